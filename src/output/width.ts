/**
 * How many columns text takes on a terminal, and cutting it to fit. Wide
 * East Asian characters and emoji take two columns, combining marks and
 * other invisible code points none, everything else one.
 */

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * East Asian Wide and Fullwidth code points (Unicode 15.1), start and end
 * pairs, less the emoji, which `\p{Emoji_Presentation}` finds (so new emoji
 * are found by the running Node.js's Unicode data) and the combining marks
 * among them (U+302A–U+302D, U+3099–U+309A, U+16FE4), which take no column.
 */
// prettier-ignore
const WIDE = [
  0x1100, 0x115f, 0x2329, 0x232a, 0x2e80, 0x2e99, 0x2e9b, 0x2ef3, 0x2f00, 0x2fd5, 0x2ff0, 0x3029,
  0x302e, 0x303e, 0x3041, 0x3096, 0x309b, 0x30ff, 0x3105, 0x312f, 0x3131, 0x318e, 0x3190, 0x31e3,
  0x31ef, 0x321e, 0x3220, 0x3247, 0x3250, 0x4dbf, 0x4e00, 0xa48c, 0xa490, 0xa4c6, 0xa960, 0xa97c,
  0xac00, 0xd7a3, 0xf900, 0xfaff, 0xfe10, 0xfe19, 0xfe30, 0xfe52, 0xfe54, 0xfe66, 0xfe68, 0xfe6b,
  0xff01, 0xff60, 0xffe0, 0xffe6, 0x16fe0, 0x16fe3, 0x16ff0, 0x16ff1, 0x17000, 0x187f7, 0x18800, 0x18cd5,
  0x18d00, 0x18d08, 0x1aff0, 0x1aff3, 0x1aff5, 0x1affb, 0x1affd, 0x1affe, 0x1b000, 0x1b122, 0x1b132, 0x1b132,
  0x1b150, 0x1b152, 0x1b155, 0x1b155, 0x1b164, 0x1b167, 0x1b170, 0x1b2fb, 0x1f200, 0x1f202, 0x1f210, 0x1f23b,
  0x1f240, 0x1f248, 0x1f250, 0x1f251, 0x1f260, 0x1f265, 0x20000, 0x2fffd, 0x30000, 0x3fffd,
];

/** Whether a code point is in WIDE (a binary search over its ranges). */
function inWideRange(code: number): boolean {
  if (code < WIDE[0]!) return false;
  let low = 0;
  let high = WIDE.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (code < WIDE[mid * 2]!) high = mid - 1;
    else if (code > WIDE[mid * 2 + 1]!) low = mid + 1;
    else return true;
  }
  return false;
}

// Sticky: each is tried at one index of the text, without making a string per code point.
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]/uy;
const EMOJI_PRESENTATION = /\p{Emoji_Presentation}/uy;
const EMOJI = /\p{Emoji}/uy;
const MODIFIER_BASE = /\p{Emoji_Modifier_Base}/uy;

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
function codePointWidth(text: string, index: number, code: number, before: number, beforeWidth: number): number {
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (code < 0x300) return 1;
  if (code === 0xfe0f) return before >= 0 && beforeWidth === 1 && matchesAt(EMOJI, text, before) ? 1 : 0;
  if (code >= 0x1f3fb && code <= 0x1f3ff && before >= 0 && matchesAt(MODIFIER_BASE, text, before)) {
    return beforeWidth === 1 ? 1 : 0;
  }
  if (inWideRange(code)) return 2;
  // Hangul vowels and final consonants join the syllable before them.
  if ((code >= 0x1160 && code <= 0x11ff) || (code >= 0xd7b0 && code <= 0xd7ff)) return 0;
  if (matchesAt(ZERO_WIDTH, text, index)) return 0;
  // A regional indicator is one column: a flag is two of them.
  if (code >= 0x1f1e6 && code <= 0x1f1ff) return 1;
  return matchesAt(EMOJI_PRESENTATION, text, index) ? 2 : 1;
}

/** The columns `text` takes on a terminal (it holds no escape sequences: tables escape them). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  let before = -1;
  let beforeWidth = 0;
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i)!;
    const columns = codePointWidth(text, i, code, before, beforeWidth);
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

/**
 * `text` if it fits in `columns` columns; else as much of its start as fits
 * in one column fewer, then `…`. It cuts between graphemes (never inside a
 * surrogate pair or between a letter and its combining marks) and never
 * inside an escape. It reads the text only as far as `columns` columns reach,
 * so the time is linear in that, not in the length of the text.
 */
export function cutToWidth(text: string, columns: number): string {
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
    const end = cutIndex(text, Math.min(size, text.length), max);
    if (end === 'whole') return text;
    if (end !== 'more') return `${text.slice(0, end)}${ELLIPSIS}`;
  }
}

/**
 * Where to cut `text` so it takes at most `max - 1` columns, reading its
 * first `size` characters; 'whole' when the whole text fits in `max`
 * columns; 'more' when those characters are too few to tell.
 */
function cutIndex(text: string, size: number, max: number): number | 'whole' | 'more' {
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
    unitWidth += displayWidth(segment);
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
