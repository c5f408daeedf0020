import { isIgnorable } from '../shared/ignorable.js';
import { hexValue, referenceAt } from './html-references.js';

/**
 * Text as it reads once a service's encodings are undone, for finding a
 * secret in it: percent-encoding (UTF-8), JSON escapes (`\u002B`, `\"`,
 * `\\`, `\/`) and HTML character references (named, decimal, hexadecimal)
 * decoded, and ignorable characters (white space, zero-width and other
 * invisible ones: ignorable.ts) left out, as is or encoded (`\n` and
 * `\u200b` in JSON, `%E2%80%8B`, `&#8203;`, `&shy;`). Each character of `plain` knows the span of the text it
 * came from (`start`, `end`), so what is found there can be masked in the text.
 */
export class DecodedText {
  readonly plain: string;
  // The text in segments, each a run of characters taken as they are, or one decoded
  // character: where it starts in plain, and the span of the text it comes from.
  readonly #plainStarts: number[] = [];
  readonly #textStarts: number[] = [];
  readonly #textEnds: number[] = [];
  readonly #runs: boolean[] = [];

  constructor(text: string) {
    const parts: string[] = [];
    let plainLength = 0;
    let run = 0;
    for (let at = 0; at < text.length;) {
      const code = text.charCodeAt(at);
      // Most characters stand for themselves: only ignorable ones, %, \\ and & may not.
      if ((code > 0x26 && code !== 0x5c && code < 0x7f) || (code > 0x20 && code < 0x25)) {
        at += 1;
        continue;
      }
      const decoded = decodeAt(text, at);
      if (decoded === code && length === 1) {
        at += 1;
        continue;
      }
      if (run < at) {
        this.#segment(plainLength, run, at, true);
        parts.push(text.slice(run, at));
        plainLength += at - run;
      }
      if (decoded !== SKIPPED) {
        const character = String.fromCodePoint(decoded);
        this.#segment(plainLength, at, at + length, false);
        parts.push(character);
        plainLength += character.length;
      }
      at += length;
      run = at;
    }
    if (run === 0) {
      this.plain = text;
      return;
    }
    if (run < text.length) {
      this.#segment(plainLength, run, text.length, true);
      parts.push(text.slice(run));
    }
    this.plain = parts.join('');
  }

  /** Where the text of `plain[index]` starts. */
  start(index: number): number {
    const segment = this.#segmentOf(index);
    if (segment === -1) return index;
    const start = this.#textStarts[segment]!;
    return this.#runs[segment] ? start + index - this.#plainStarts[segment]! : start;
  }

  /** Where the text of `plain[index]` ends. */
  end(index: number): number {
    const segment = this.#segmentOf(index);
    if (segment === -1) return index + 1;
    return this.#runs[segment] ? this.start(index) + 1 : this.#textEnds[segment]!;
  }

  /** Whether white space was left out just before `plain[index]`. */
  gapBefore(index: number): boolean {
    return index > 0 && this.end(index - 1) < this.start(index);
  }

  #segment(plainStart: number, textStart: number, textEnd: number, run: boolean): void {
    this.#plainStarts.push(plainStart);
    this.#textStarts.push(textStart);
    this.#textEnds.push(textEnd);
    this.#runs.push(run);
  }

  /** The segment holding `plain[index]`, or -1 when plain is the text itself. */
  #segmentOf(index: number): number {
    const starts = this.#plainStarts;
    if (starts.length === 0) return -1;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** What decodeAt returns for an ignorable character, which plain leaves out. */
const SKIPPED = -1;
/** What the helpers of decodeAt return when the text there is no encoding after all. */
const NONE = -2;
/**
 * How much text the last decodeAt took. A variable rather than a second
 * return value: this runs once per character, and allocates nothing.
 */
let length = 0;

/** The code point at `at` (SKIPPED for an ignorable one), setting `length`. */
function decodeAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  length = 1;
  let decoded = NONE;
  if (code === 0x25) decoded = percentAt(text, at);
  else if (code === 0x5c) decoded = escapeAt(text, at);
  else if (code === 0x26) {
    const reference = referenceAt(text, at);
    if (reference !== undefined) {
      length = reference.length;
      decoded = reference.point;
    }
  } else if (code >= 0xd800 && code <= 0xdfff) return surrogateAt(text, at);
  if (decoded === NONE) {
    length = 1;
    decoded = code;
  }
  // A lone surrogate from an escape (`\ud83d` alone) shows as U+FFFD: ignorable too.
  return isIgnorable(decoded) || (decoded >= 0xd800 && decoded <= 0xdfff) ? SKIPPED : decoded;
}

/**
 * Half of a surrogate pair: an astral ignorable character (a tag character)
 * is left out whole, as is a lone half (it shows as U+FFFD); any other pair
 * stays two units as it is.
 */
function surrogateAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (isHighSurrogate(code)) {
    const next = text.charCodeAt(at + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return SKIPPED;
    if (!isIgnorable(text.codePointAt(at)!)) return code;
    length = 2;
    return SKIPPED;
  }
  return isHighSurrogate(text.charCodeAt(at - 1)) ? code : SKIPPED;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** `%XX`, or the `%XX` bytes of one UTF-8 character. */
function percentAt(text: string, at: number): number {
  const first = percentByte(text, at);
  if (first < 0) return NONE;
  if (first < 0x80) {
    length = 3;
    return first;
  }
  // A lead byte says how many bytes the character has; anything else is no character.
  const size =
    first >= 0xc2 && first <= 0xdf ? 2 : first >= 0xe0 && first <= 0xef ? 3 : first >= 0xf0 && first <= 0xf4 ? 4 : 0;
  if (size === 0) return NONE;
  let point = first & (0x7f >> size);
  for (let i = 1; i < size; i += 1) {
    const next = percentByte(text, at + 3 * i);
    if (next < 0x80 || next > 0xbf) return NONE;
    point = (point << 6) | (next & 0x3f);
  }
  // Overlong forms, surrogates and what lies beyond Unicode are no character either.
  const least = [0, 0, 0x80, 0x800, 0x10000][size]!;
  if (point < least || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return NONE;
  length = 3 * size;
  return point;
}

function percentByte(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x25) return -1;
  const high = hexValue(text.charCodeAt(at + 1));
  const low = hexValue(text.charCodeAt(at + 2));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/**
 * A JSON escape: `\u` and four hex digits, `\"`, `\\`, `\/`, and `\n` `\r`
 * `\t` as white space; `\\u0041`, `\\n` as the escape after the backslash.
 */
function escapeAt(text: string, at: number): number {
  const next = text.charCodeAt(at + 1);
  length = 2;
  if (next === 0x6e || next === 0x72 || next === 0x74) return 0x20;
  if (next === 0x5c) {
    // An escaped backslash before `u` or a line break's letter: JSON text of a string that holds
    // an escape (a body shown as it came, a service that encodes twice), read as that escape.
    const after = text.charCodeAt(at + 2);
    const nested = after === 0x75 || after === 0x6e || after === 0x72 || after === 0x74 ? escapeAt(text, at + 1) : NONE;
    if (nested !== NONE) {
      length += 1;
      return nested;
    }
    length = 2;
    return next;
  }
  if (next === 0x22 || next === 0x2f) return next;
  if (next !== 0x75) return NONE;
  const unit = escapedUnit(text, at);
  if (unit < 0) return NONE;
  length = 6;
  // A surrogate pair, as JSON escapes a character beyond the BMP: one code point (an ignorable one is left out whole).
  const low = isHighSurrogate(unit) && text.charCodeAt(at + 6) === 0x5c ? escapedUnit(text, at + 6) : -1;
  if (low < 0xdc00 || low > 0xdfff) return unit;
  length = 12;
  return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
}

/** The unit of the `\u` escape (four hex digits) at `at`, or -1. */
function escapedUnit(text: string, at: number): number {
  if (text.charCodeAt(at + 1) !== 0x75) return -1;
  let unit = 0;
  for (let i = 2; i < 6; i += 1) {
    const digit = hexValue(text.charCodeAt(at + i));
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}
