// The integer a plant id spells, under any spelling a service may read as that number (protections.ts, idKey).

/**
 * Plain decimal: ASCII digits, a sign, a fraction (`7.0`, `.7`, `7.`) and an
 * exponent of any length. Most ids are this, and take no other path.
 */
export const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?)(\d+))?$/;

/** A number with a base prefix, either case, after an optional sign; its digits are checked apart. */
const PREFIXED = /^([+-]?)0([xXoObB])([\da-fA-F_]+)$/;
const BASE_DIGITS: Record<string, RegExp> = { x: /^[\da-f]+$/i, o: /^[0-7]+$/, b: /^[01]+$/ };

/** An underscore that is not alone between two decimal digits (Python's rule). */
const STRAY_UNDERSCORE = /(?<!\d)_|_(?!\d)/;

/** Zeros an exponent may add, and digits a prefixed number may have: past them no integer is formed. */
const MAX_DIGITS = 1000;

/**
 * The integer a text stands for, in its plain decimal form, or undefined
 * when it is not a whole number. A service that reads ids as numbers
 * deletes plant 7 for `07`, `+7`, `7.0`, `7e0`, `.7e1`, `7e00000`, `0x7`,
 * `0o7`, `0b111` (JavaScript's Number()), `0_7`, `-0x_7` or `７` (Python's
 * int()), so an id rule must protect it under every spelling:
 *
 * - a sign, a fraction and an exponent of any length, as both read decimals;
 * - a prefix 0x, 0o or 0b in either case, after an optional sign;
 * - underscores where Python allows them: one at a time, between two
 *   digits, or right after a base prefix;
 * - any Unicode decimal digit (`７`, `٧`, `७`), read as Python reads it (as
 *   its ASCII digit, mixed with ASCII ones too, after a prefix too).
 *
 * Not a leading zero as octal (`010` is 10, not C's 8), nor a number with
 * text after it (`7abc`, 7 to C's atoi and Ruby's to_i): either would make
 * ordinary ids one (a protection still reads the leading number, in
 * idReadings). A number whose exponent would add more than MAX_DIGITS
 * zeros, or a prefixed one of more than MAX_DIGITS digits, gets no integer
 * form (undefined), so that `1e999999999` costs nothing: it is compared as
 * text, and `1e2000` is not the same id as 1 followed by 2000 zeros.
 */
export function integerForm(text: string): string | undefined {
  const match = DECIMAL.exec(text);
  return match ? decimalForm(match) : spelledForm(text);
}

/** The integer of a DECIMAL match, or undefined when it is not whole (or would need too many zeros). */
function decimalForm([, sign, whole = '', fraction = '', exponentSign, exponent]: RegExpExecArray): string | undefined {
  let digits = `${whole}${fraction}`;
  if (digits === '') return undefined;
  let shift = -fraction.length;
  if (exponent !== undefined) {
    // Past 9 digits (leading zeros aside) an exponent is past any bound, either way.
    const size = exponent.length > 9 && exponent.replace(/^0+/, '').length > 9 ? 1e9 : Number(exponent);
    shift += exponentSign === '-' ? -size : size;
  }
  if (shift < 0) {
    if (!/^0*$/.test(digits.slice(shift))) return undefined;
    digits = digits.slice(0, shift);
  } else if (!/^0*$/.test(digits)) {
    if (shift > MAX_DIGITS) return undefined;
    digits += '0'.repeat(shift);
  }
  return signed(sign, digits);
}

/** What is not plain ASCII decimal: Unicode digits, a base prefix, underscores. */
function spelledForm(text: string): string | undefined {
  const ascii = OTHER_DIGIT.test(text) ? text.replace(OTHER_DIGITS, asciiDigit) : text;
  const prefixed = PREFIXED.exec(ascii);
  if (prefixed) return prefixedForm(prefixed);
  let plain = ascii;
  if (ascii.includes('_')) {
    if (STRAY_UNDERSCORE.test(ascii)) return undefined;
    plain = ascii.replaceAll('_', '');
  }
  if (plain === text) return undefined;
  const match = DECIMAL.exec(plain);
  return match ? decimalForm(match) : undefined;
}

function prefixedForm([, sign, prefix = '', body = '']: RegExpExecArray): string | undefined {
  // The body is hex digits and underscores: one may come first (right after the prefix), none last, never two.
  if (body.endsWith('_') || body.includes('__')) return undefined;
  const base = prefix.toLowerCase();
  const digits = body.replaceAll('_', '').replace(/^0+/, '');
  if (digits === '') return '0';
  if (!BASE_DIGITS[base]!.test(digits) || digits.length > MAX_DIGITS) return undefined;
  return signed(sign, BigInt(`0${base}${digits}`).toString());
}

/** Decimal digits without leading zeros, signed; zero has no sign. */
function signed(sign: string | undefined, digits: string): string {
  const plain = digits.replace(/^0+/, '');
  if (plain === '') return '0';
  return sign === '-' ? `-${plain}` : plain;
}

/** A decimal digit other than ASCII's (`７`, `٧`): in \p{Nd}, not in 0-9. */
const OTHER_DIGIT = /[^\P{Nd}0-9]/u;
const OTHER_DIGITS = new RegExp(OTHER_DIGIT.source, 'gu');
const IS_DIGIT = /^\p{Nd}$/u;
const digitValues = new Map<string, string>();

/**
 * The ASCII digit for a Unicode decimal digit. Unicode keeps decimal digits
 * in runs of ten, 0 to 9, one after another (a stability promise), so a
 * digit's value is its distance from the start of its block of runs, mod 10.
 */
function asciiDigit(digit: string): string {
  let value = digitValues.get(digit);
  if (value === undefined) {
    const code = digit.codePointAt(0)!;
    let zero = code;
    while (IS_DIGIT.test(String.fromCodePoint(zero - 1))) zero -= 1;
    value = String((code - zero) % 10);
    digitValues.set(digit, value);
  }
  return value;
}

/** White space a number may have around it: JavaScript's (trim) and Python's (U+0085 too). */
const BLANK = /[\s\u0085]/;

/** The id without the blanks a number may have around it. */
export function withoutBlanks(id: string): string {
  const trimmed = id.trim();
  if (!trimmed.startsWith('\u0085') && !trimmed.endsWith('\u0085')) return trimmed;
  let start = 0;
  let end = id.length;
  while (start < end && BLANK.test(id[start]!)) start += 1;
  while (end > start && BLANK.test(id[end - 1]!)) end -= 1;
  return id.slice(start, end);
}
