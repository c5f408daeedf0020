/**
 * How many columns text takes on a terminal, and cutting it to fit: the one
 * measure of every table and aligned column. Wide East Asian characters and
 * emoji take two columns, combining marks and other invisible code points
 * none, everything else one (ambiguous-width characters too, as UAX #11
 * advises where the context is unknown).
 */

/**
 * The columns of the code point `code` at `index` when it is East Asian
 * Wide or Fullwidth: 2, or 0 for the combining marks among them (U+302A–
 * U+302D, U+3099–U+309A, U+16FE4); -1 for any other.
 */
type WideColumns = (text: string, index: number, code: number) => number;

/** The measure: see displayMeasure. */
export interface DisplayMeasure {
  /** The columns `text` takes on a terminal (it holds no escape sequences: tables escape them). */
  width(this: void, text: string): number;
  /**
   * `text` if it fits in `columns` columns; else as much of its start as
   * fits in one column fewer, then `…`. It cuts between graphemes (never
   * inside a surrogate pair or between a letter and its combining marks)
   * and never inside an escape. It reads the text only as far as `columns`
   * columns reach, so the time is linear in that, not in the length of the
   * text.
   */
  cut(this: void, text: string, columns: number): string;
}

let measure: Promise<DisplayMeasure> | undefined;

/**
 * The measure, once the East Asian Width data is loaded: a bundle of its
 * own (src/vendor/east-asian-width.ts), loaded by the first run that draws
 * a table or aligns columns, so that a run that prints none never loads it.
 */
export function displayMeasure(): Promise<DisplayMeasure> {
  measure ??= import('../vendor/east-asian-width.js').then(({ eastAsianWidth }) => {
    compilePatterns();
    const wide = wideColumns(eastAsianWidth);
    const width = (text: string) => displayWidth(text, wide);
    return { width, cut: (text, columns) => cutToWidth(text, columns, width) };
  });
  return measure;
}

/**
 * WideColumns from the East Asian Width data (2 for Wide and Fullwidth).
 * What a code point of the BMP is, is looked up once: a table of CJK text
 * measures as fast as with a range table of its own.
 */
function wideColumns(eastAsianWidth: (codePoint: number) => number): WideColumns {
  const lookUp: WideColumns = (text, index, code) =>
    eastAsianWidth(code) === 2 ? (matchesAt(MARK, text, index) ? 0 : 2) : -1;
  // 0: not looked up yet; else the columns + 2.
  const bmp = new Uint8Array(0x10000);
  return (text, index, code) => {
    if (code > 0xffff) return lookUp(text, index, code);
    if (bmp[code] === 0) bmp[code] = lookUp(text, index, code) + 2;
    return bmp[code]! - 2;
  };
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// Sticky: each is tried at one index of the text, without making a string per code point.
// Made with the measure (compilePatterns), not as this bundle loads: V8
// parses a pattern when it makes it, and these read ICU's Unicode property
// data (0.8 ms of every run, most of it ZERO_WIDTH's), which a run that
// draws no table and aligns no column never needs.
let ZERO_WIDTH: RegExp;
let MARK: RegExp;
let EMOJI_PRESENTATION: RegExp;
let EMOJI: RegExp;
let MODIFIER_BASE: RegExp;

function compilePatterns(): void {
  ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]/uy;
  MARK = /[\p{Mn}\p{Me}]/uy;
  EMOJI_PRESENTATION = /\p{Emoji_Presentation}/uy;
  EMOJI = /\p{Emoji}/uy;
  MODIFIER_BASE = /\p{Emoji_Modifier_Base}/uy;
}

function matchesAt(pattern: RegExp, text: string, index: number): boolean {
  pattern.lastIndex = index;
  return pattern.test(text);
}

/**
 * The columns of the code point `code` at `index`, given the one before it
 * (at `before`, `beforeWidth` columns wide; -1 at the start): a variation
 * selector 16 or a skin-tone modifier turns a one-column emoji into a
 * two-column one, and merges into a two-column one.
 */
function codePointWidth(
  text: string,
  index: number,
  code: number,
  before: number,
  beforeWidth: number,
  wide: WideColumns,
): number {
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (code < 0x300) return 1;
  if (code === 0xfe0f) return before >= 0 && beforeWidth === 1 && matchesAt(EMOJI, text, before) ? 1 : 0;
  if (code >= 0x1f3fb && code <= 0x1f3ff && before >= 0 && matchesAt(MODIFIER_BASE, text, before)) {
    return beforeWidth === 1 ? 1 : 0;
  }
  const wideWidth = wide(text, index, code);
  if (wideWidth >= 0) return wideWidth;
  // Hangul vowels and final consonants join the syllable before them.
  if ((code >= 0x1160 && code <= 0x11ff) || (code >= 0xd7b0 && code <= 0xd7ff)) return 0;
  if (matchesAt(ZERO_WIDTH, text, index)) return 0;
  // A regional indicator is one column: a flag is two of them.
  if (code >= 0x1f1e6 && code <= 0x1f1ff) return 1;
  // Emoji are Wide in the data; an emoji newer than it is found by the running Node.js's Unicode data.
  return matchesAt(EMOJI_PRESENTATION, text, index) ? 2 : 1;
}

function displayWidth(text: string, wide: WideColumns): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  let before = -1;
  let beforeWidth = 0;
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i)!;
    const columns = codePointWidth(text, i, code, before, beforeWidth, wide);
    width += columns;
    before = i;
    beforeWidth = columns;
    i += code > 0xffff ? 2 : 1;
  }
  return width;
}

export const ELLIPSIS = '…';

/**
 * How tables show what they escape (see printable in src/shared/text.ts):
 * `\u202e`, `\n`, `\r`, `\t`. A cut never splits one. Only a backslash
 * starts one, so where one starts is known without reading from the start.
 */
const ESCAPE = /\\(?:u[0-9a-fA-F]{4}|[nrt])/y;

let graphemes: Intl.Segmenter | undefined;

/** DisplayMeasure.cut, measuring graphemes with `width`. */
function cutToWidth(text: string, columns: number, width: (text: string) => number): string {
  // Room for the ellipsis at least.
  const max = Math.max(1, columns);
  const head = text.slice(0, max + 1);
  if (PRINTABLE_ASCII.test(head)) {
    if (text.length <= max) return text;
    return `${text.slice(0, notInEscape(text, max - 1))}${ELLIPSIS}`;
  }
  // Segment a piece of the text that reaches past `max` columns; should a
  // grapheme or escape run past the end of the piece, try twice as much.
  for (let size = 4 * (max + 2); ; size *= 2) {
    const end = cutIndex(text, Math.min(size, text.length), max, width);
    if (end === 'whole') return text;
    if (end !== 'more') return `${text.slice(0, end)}${ELLIPSIS}`;
  }
}

/**
 * Where to cut `text` so it takes at most `max - 1` columns, reading its
 * first `size` characters; 'whole' when the whole text fits in `max`
 * columns; 'more' when those characters are too few to tell.
 */
function cutIndex(text: string, size: number, max: number, width: (text: string) => number): number | 'whole' | 'more' {
  const whole = size === text.length;
  const piece = whole ? text : text.slice(0, size);
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let used = 0;
  let cut = 0;
  // The unit being read: a grapheme, or an escape and the graphemes that end it.
  let unitEnd = 0;
  let unitWidth = 0;
  let escapeEnd = 0;
  for (const { segment, index } of graphemes.segment(piece)) {
    const segmentEnd = index + segment.length;
    if (!whole && segmentEnd === size) return 'more';
    if (index >= escapeEnd) {
      // The unit before this grapheme is whole.
      used += unitWidth;
      if (used > max) return cut;
      if (used <= max - 1) cut = unitEnd;
      unitWidth = 0;
      if (segment === '\\' && matchesAt(ESCAPE, text, index)) {
        escapeEnd = ESCAPE.lastIndex;
        if (escapeEnd > size) return 'more';
      }
    }
    unitEnd = segmentEnd;
    unitWidth += width(segment);
  }
  used += unitWidth;
  if (used > max) return cut;
  return whole ? 'whole' : 'more';
}

/** `end`, or the start of an escape that `end` would split. */
function notInEscape(text: string, end: number): number {
  for (let start = Math.max(0, end - 5); start < end; start += 1) {
    if (text.charCodeAt(start) === 0x5c && matchesAt(ESCAPE, text, start) && ESCAPE.lastIndex > end) return start;
  }
  return end;
}
