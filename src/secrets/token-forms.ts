import { DecodedText } from './decoded-text.js';
import { IGNORABLE_RUN, IGNORABLE_SOURCE, ROUGHLY_IGNORABLE_SOURCE } from '../shared/ignorable.js';

/**
 * What a token looks like in decoded text (decoded-text.ts), worked out once
 * per token: the token itself, its base64 at each alignment, and the
 * hexadecimal of its bytes.
 */
export interface TokenForms {
  /** The token as decoded text shows it: as given, and decoded (when it holds what reads as an encoding, such as `%41`). */
  texts: string[];
  /** Only after `Bearer`: a token under 8 characters, which as a bare word could be anything. */
  bearerOnly: boolean;
  base64: Base64Form[];
  /**
   * The hexadecimal of the token's UTF-8 bytes in lower case, found in any
   * case (`746F6b…` too); empty for a token under 8 characters.
   */
  hex: string;
  /** The start of `hex`, in any case (global): where to compare the rest. */
  hexStart: RegExp;
  /** The strings looked for as they are (all but the hexadecimal): decoded text without any of them, or `hex`, holds no form of the token. */
  needles: string[];
  /** The length of the shortest match: shorter text holds none. */
  shortest: number;
  /**
   * The start of each needle, any run of ignorable characters (white space,
   * zero-width and other invisible ones: ignorable.ts) allowed between its
   * characters: text none of them matches holds no needle even with those
   * taken out (the pattern lets a few more through, which mayHoldSpaced
   * looks at again). Only the start, so that a long token (a JWT) makes no long
   * pattern, which V8 is slow to compile and run (and cannot run at all
   * past some thousands of characters).
   */
  spacedStarts: RegExp[];
}

/**
 * Base64 of some bytes inside a longer encoded text: `cores`, the
 * characters that encode only those bytes (in base64, and in base64url when
 * that differs), and the characters before and after them that encode some
 * of their bits along with a neighbour's.
 */
interface Base64Form {
  cores: string[];
  before?: Sextet;
  after?: Sextet;
}

/** Which bits of a base64 character are known, and their value. */
interface Sextet {
  known: number;
  value: number;
}

/** A span of decoded text to mask. */
export interface Found {
  start: number;
  end: number;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The value of each base64 and base64url character (both alphabets at once), -1 for others. */
const SEXTETS = new Int8Array(128).fill(-1);
// Stryker disable next-line EqualityOperator: BASE64 has no 65th character to set.
for (let value = 0; value < 64; value += 1) SEXTETS[BASE64.charCodeAt(value)] = value;
SEXTETS[0x2d] = 62; // -
SEXTETS[0x5f] = 63; // _

export function tokenForms(token: string): TokenForms {
  const texts = [...new Set([token, new DecodedText(token).plain])].filter((text) => text !== '');
  const bearerOnly = token.length < 8;
  const encoder = new TextEncoder();
  // The base64 of `Bearer <token>` is an Authorization header echoed encoded: masked for any token.
  const base64 = [encoder.encode(`Bearer ${token}`), ...(bearerOnly ? [] : [encoder.encode(token)])].flatMap(
    base64Forms,
  );
  const cores = base64.flatMap((form) => form.cores);
  // A service that logs or echoes bytes as hex (`746f6b…`): each pair of digits is one byte of the token.
  const hex = bearerOnly ? '' : Buffer.from(token, 'utf8').toString('hex');
  const textLength = Math.min(...texts.map((text) => text.length)) + (bearerOnly ? 'Bearer'.length : 0);
  const needles = [...texts, ...cores];
  return {
    texts,
    bearerOnly,
    base64,
    hex,
    // Only digits and a to f: nothing in it is syntax.
    hexStart: new RegExp(hex.slice(0, SPACED_START), 'gi'),
    needles,
    shortest: Math.min(textLength, ...cores.map((core) => core.length)),
    // One pattern for all the needles: one pass over the text, which is every line of output. A needle
    // that holds an ignorable character is never in text without any (and would backtrack on long runs of them).
    spacedStarts: [
      spacedPattern([
        ...new Set(
          [...texts, ...cores].filter((needle) => !IGNORABLE.test(needle)).map((n) => n.slice(0, SPACED_START)),
        ),
      ]),
      // The hexadecimal in any case: one search of the text.
      ...(hex === '' ? [] : [spacedPattern([hex.slice(0, SPACED_START)], 'i')]),
    ],
  };
}

/** How much of a needle's start spacedStarts looks for. */
const SPACED_START = 16;

const IGNORABLE = new RegExp(IGNORABLE_SOURCE);

/**
 * Any of `texts`, with any run of ignorable characters between their own
 * (ROUGHLY_IGNORABLE_SOURCE: short to compile, 15 needles of 16 characters
 * repeat it hundreds of times), each a `\u` escape of its four hex digits
 * (so nothing in it is syntax).
 */
function spacedPattern(texts: string[], flags = ''): RegExp {
  const spaced = texts.map((text) =>
    Array.from({ length: text.length }, (_, i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`).join(
      `${ROUGHLY_IGNORABLE_SOURCE}*`,
    ),
  );
  return new RegExp(spaced.join('|'), flags);
}

/**
 * Whether text may hold a needle once its ignorable characters are taken
 * out, found without taking them out (which copies the whole text).
 */
export function mayHoldSpaced(text: string, forms: TokenForms): boolean {
  // Stryker disable next-line ConditionalExpression: a shortcut; the check after it answers the same, slower.
  return forms.spacedStarts.some((pattern) => pattern.test(text)) && mayHold(text.replace(IGNORABLE_RUN, ''), forms);
}

/** Whether decoded text may hold the token: only then is it worth finding where. */
export function mayHold(plain: string, forms: TokenForms): boolean {
  // Stryker disable next-line BooleanLiteral: a shortcut; finding every place answers the same.
  return forms.needles.some((needle) => plain.includes(needle)) || hexIndexes(plain, forms, true).length > 0;
}

/**
 * Where the token's hexadecimal is in `plain`, in any mix of cases (the
 * first only, with `first`): each place its start matches, the rest
 * compared in lower case. No other character lower-cases to a digit or a
 * to f, so only the hexadecimal compares equal.
 */
function hexIndexes(plain: string, forms: TokenForms, first = false): number[] {
  const found: number[] = [];
  const { hex, hexStart } = forms;
  if (hex === '') return found;
  hexStart.lastIndex = 0;
  for (let match = hexStart.exec(plain); match !== null; match = hexStart.exec(plain)) {
    const at = match.index;
    if (plain.slice(at, at + hex.length).toLowerCase() === hex) {
      found.push(at);
      // Stryker disable next-line ConditionalExpression: a shortcut; mayHold asks whether there is any.
      if (first) break;
    }
    hexStart.lastIndex = at + 1; // overlapping: 6f6f6f… may start again one digit on
  }
  return found;
}

/** Where the token is in decoded text, as spans of `plain`. */
export function findForms(decoded: DecodedText, forms: TokenForms): Found[] {
  const { plain } = decoded;
  const found: Found[] = [];
  for (const text of forms.texts) {
    for (let at = plain.indexOf(text); at !== -1; at = plain.indexOf(text, at + 1)) {
      if (
        forms.bearerOnly &&
        !(at >= 6 && plain.slice(at - 6, at).toLowerCase() === 'bearer' && decoded.gapBefore(at))
      ) {
        continue;
      }
      found.push({ start: at, end: at + text.length });
    }
  }
  for (const at of hexIndexes(plain, forms)) found.push({ start: at, end: at + forms.hex.length });
  for (const { cores, before, after } of forms.base64) {
    for (const variant of cores) {
      for (let at = plain.indexOf(variant); at !== -1; at = plain.indexOf(variant, at + 1)) {
        const end = at + variant.length;
        found.push({
          start: before && fits(plain.charCodeAt(at - 1), before) ? at - 1 : at,
          end: after && fits(plain.charCodeAt(end), after) ? end + 1 : end,
        });
      }
    }
  }
  return found;
}

function fits(code: number, sextet: Sextet): boolean {
  const value = code < 128 ? SEXTETS[code]! : -1;
  return value !== -1 && (value & sextet.known) === sextet.value;
}

/** The base64 of `bytes` starting at offset 0, 1 and 2 of a group of three. */
function base64Forms(bytes: Uint8Array): Base64Form[] {
  return [0, 1, 2].map((offset) => {
    // Encoded after `offset` zero bytes and before zero bits: the characters at the edges then
    // hold the bytes' own bits where they are known.
    let binary = '\0'.repeat(offset);
    for (const byte of bytes) binary += String.fromCharCode(byte);
    const encoded = btoa(binary);
    const first = offset * 8;
    const end = first + bytes.length * 8;
    const core = encoded.slice(Math.ceil(first / 6), Math.floor(end / 6));
    const form: Base64Form = { cores: [...new Set([core, core.replaceAll('+', '-').replaceAll('/', '_')])] };
    if (first % 6 !== 0) {
      // The low bits of the character before the core are the bytes' first bits.
      const known = (1 << (6 - (first % 6))) - 1;
      form.before = { known, value: SEXTETS[encoded.charCodeAt(Math.floor(first / 6))]! & known };
    }
    if (end % 6 !== 0) {
      // The high bits of the character after the core are the bytes' last bits.
      const known = ((1 << (end % 6)) - 1) << (6 - (end % 6));
      form.after = { known, value: SEXTETS[encoded.charCodeAt(Math.floor(end / 6))]! & known };
    }
    return form;
  });
}
