/**
 * The number a service reads at the start of an id, ignoring what follows:
 * JavaScript's `parseInt` (`7abc`, ` 7`, `7,8`, `7.9` and `7e3x` are 7;
 * `0x7z` is 7), Ruby's `to_i`, which Rails uses to find a record (`1_000x`
 * is 1000), and PHP's `(int)` cast (`7e3x` is 7000, `7.9x` is 7). Each
 * skips white space before the number and takes a sign. A service that
 * reads ids so deletes plant 7 for `DELETE /plants/7-slug`.
 *
 * Only text that starts (after white space and a sign) with a digit, or
 * with a point and a digit (PHP's `.5`), is read: `abc` is 0 to Ruby and
 * PHP, but reading it so would make every id without digits the plant 0.
 * A leading zero is decimal, as the rest of the tool reads it (`010x` is
 * 10, not C's octal 8).
 */

/** parseInt: JavaScript's white space (a superset of Ruby's and PHP's), a sign, then hex after 0x, else decimal digits. */
const PARSE_INT = /^[\s\u0085]*([+-]?)(?:0[xX]([\da-fA-F]+)|(\d+))/;
/** Ruby's to_i: decimal digits with single underscores between them. */
const TO_I = /^[\s\u0085]*([+-]?)(\d+(?:_\d+)+)/;
/** PHP's numeric prefix: a decimal with a fraction or an exponent, which (int) truncates. */
const PHP_FLOAT = /^[\s\u0085]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/;

/** Hex digits past this are not read (as protections.ts bounds a prefixed number). */
const MAX_HEX_DIGITS = 1000;

/**
 * The numbers a service may read at the start of `id`, as texts the rest
 * of the tool reads as numbers (plain decimal, or `0x` hex): none when the
 * id does not start with one.
 */
export function leadingNumbers(id: string): string[] {
  const found: string[] = [];
  const parsed = PARSE_INT.exec(id);
  if (!parsed) {
    // PHP alone reads `.5x` (as 0).
    const php = PHP_FLOAT.exec(id);
    if (php) found.push(...truncated(php[1]!));
    return found;
  }
  const [, sign = '', hex, digits] = parsed;
  if (hex !== undefined) {
    if (hex.length <= MAX_HEX_DIGITS) found.push(`${sign}0x${hex}`);
    // Ruby and PHP read `0x7` as 0.
    found.push('0');
  } else {
    found.push(`${sign}${digits!}`);
  }
  const ruby = TO_I.exec(id);
  if (ruby) found.push(`${ruby[1]!}${ruby[2]!.replaceAll('_', '')}`);
  const php = PHP_FLOAT.exec(id);
  if (php && /[.eE]/.test(php[1]!)) found.push(...truncated(php[1]!));
  return found;
}

/** The whole number (int) makes of a decimal: the double it is read as, cut toward zero; none past a double's range. */
function truncated(decimal: string): string[] {
  const value = Math.trunc(Number(decimal));
  return Number.isFinite(value) ? [BigInt(value).toString()] : [];
}
