/**
 * Characters a reader does not see, or sees only as a gap, and so may come
 * between a token's characters without hiding it: white space of any kind
 * (`\s`: NBSP, U+2000–U+200A, U+202F, U+3000, line breaks), controls (Cc:
 * the NULs of a UTF-16 body read as UTF-8), format characters (Cf: zero-width
 * space and joiners, soft hyphen, word joiner, BOM, bidi controls, tag
 * characters), the rest of Unicode's default-ignorable code points (variation
 * selectors, Hangul fillers, the combining grapheme joiner), and U+FFFD,
 * which stands where a byte could not be decoded (an NBSP in Latin-1 read as
 * UTF-8), as a lone surrogate shows. Masking looks through runs of them (token-forms.ts, decoded-text.ts);
 * test/unit/ignorable.test.ts holds these ranges to Unicode's properties.
 */
const RANGES: readonly (readonly [number, number])[] = [
  [0x0, 0x20],
  [0x7f, 0xa0],
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x600, 0x605],
  [0x61c, 0x61c],
  [0x6dd, 0x6dd],
  [0x70f, 0x70f],
  [0x890, 0x891],
  [0x8e2, 0x8e2],
  [0x115f, 0x1160],
  [0x1680, 0x1680],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x2000, 0x200f],
  [0x2028, 0x202f],
  [0x205f, 0x206f],
  [0x3000, 0x3000],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
  [0xfffd, 0xfffd],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];

/** The BMP's ignorable code units, one byte each: a look-up, for a check run on every character decoded. */
const BMP = new Uint8Array(0x10000);
for (const [first, last] of RANGES) if (first < 0x10000) BMP.fill(1, first, last + 1);

/** Whether a code point is ignorable (see above). */
export function isIgnorable(point: number): boolean {
  if (point < 0x10000) return BMP[point] === 1;
  return RANGES.some(([first, last]) => point >= first && point <= last);
}

const unit = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
const span = (first: number, last: number) => (first === last ? unit(first) : `${unit(first)}-${unit(last)}`);

/**
 * One ignorable character (or lone surrogate), as the source of a regular expression without
 * the `u` flag (faster on the text every line of output is: a class of code
 * units, and the astral ones as surrogate pairs).
 */
export const IGNORABLE_SOURCE = ((): string => {
  const bmp = RANGES.filter(([first]) => first < 0x10000).map(([first, last]) => span(first, last));
  const astral: string[] = [];
  for (const [first, last] of RANGES.filter(([start]) => start >= 0x10000)) {
    const [highFirst, lowFirst] = surrogates(first);
    const [highLast, lowLast] = surrogates(last);
    if (highFirst === highLast) {
      astral.push(`${unit(highFirst)}[${span(lowFirst, lowLast)}]`);
      continue;
    }
    astral.push(`${unit(highFirst)}[${span(lowFirst, 0xdfff)}]`);
    if (highLast - highFirst > 1) astral.push(`[${span(highFirst + 1, highLast - 1)}][\\udc00-\\udfff]`);
    astral.push(`${unit(highLast)}[${span(0xdc00, lowLast)}]`);
  }
  // A lone surrogate, which shows as U+FFFD.
  const lone = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
  return `(?:[${bmp.join('')}]|${astral.join('|')}|${lone})`;
})();

function surrogates(point: number): [number, number] {
  const offset = point - 0x10000;
  return [0xd800 + (offset >> 10), 0xdc00 + (offset & 0x3ff)];
}

/** A run of ignorable characters (global: for taking them all out). */
export const IGNORABLE_RUN = new RegExp(`${IGNORABLE_SOURCE}+`, 'g');

/**
 * A wider class than IGNORABLE_SOURCE, in fewer ranges (any astral character
 * half, the gaps between the BMP ranges): a pattern that repeats it hundreds
 * of times compiles fast. For a first look only; what it lets through is
 * looked at again with the exact class.
 */
export const ROUGHLY_IGNORABLE_SOURCE =
  '[\\u0000-\\u0020\\u007f-\\u00a0\\u00ad\\u034f\\u0600-\\u070f\\u0890-\\u08e2\\u115f\\u1160\\u1680\\u17b4-\\u180f\\u2000-\\u206f\\u3000\\u3164\\ufe00-\\ufeff\\uffa0-\\ufffd\\ud800-\\udfff]';
