/**
 * HTML character references as decoded-text.ts reads them, the way browsers
 * do: numeric ones (`&#43;`, `&#x2B;`, the `;` optional) of any character,
 * named ones of the characters a token may hold and of the ignorable ones
 * (a service may write either), and the few names read without their `;`.
 */

/** A character reference read: the code point, and how much text it took. */
export interface Reference {
  point: number;
  length: number;
}

/** Named references to characters a token may hold (visible ASCII; `-` and `~` have none), and to ignorable ones. */
const HTML_NAMES = new Map<string, number>(
  Object.entries({
    Tab: 9,
    NewLine: 10,
    nbsp: 0xa0,
    NonBreakingSpace: 0xa0,
    shy: 0xad,
    ensp: 0x2002,
    emsp: 0x2003,
    emsp13: 0x2004,
    emsp14: 0x2005,
    numsp: 0x2007,
    puncsp: 0x2008,
    thinsp: 0x2009,
    ThinSpace: 0x2009,
    hairsp: 0x200a,
    VeryThinSpace: 0x200a,
    ZeroWidthSpace: 0x200b,
    NegativeVeryThinSpace: 0x200b,
    NegativeThinSpace: 0x200b,
    NegativeMediumSpace: 0x200b,
    NegativeThickSpace: 0x200b,
    zwnj: 0x200c,
    zwj: 0x200d,
    lrm: 0x200e,
    rlm: 0x200f,
    MediumSpace: 0x205f,
    // U+205F U+200A: both ignorable, one stands for the two.
    ThickSpace: 0x205f,
    NoBreak: 0x2060,
    ApplyFunction: 0x2061,
    af: 0x2061,
    InvisibleTimes: 0x2062,
    it: 0x2062,
    InvisibleComma: 0x2063,
    ic: 0x2063,
    excl: 0x21,
    quot: 0x22,
    QUOT: 0x22,
    num: 0x23,
    dollar: 0x24,
    percnt: 0x25,
    amp: 0x26,
    AMP: 0x26,
    apos: 0x27,
    lpar: 0x28,
    rpar: 0x29,
    ast: 0x2a,
    midast: 0x2a,
    plus: 0x2b,
    comma: 0x2c,
    period: 0x2e,
    sol: 0x2f,
    colon: 0x3a,
    semi: 0x3b,
    lt: 0x3c,
    LT: 0x3c,
    equals: 0x3d,
    gt: 0x3e,
    GT: 0x3e,
    quest: 0x3f,
    commat: 0x40,
    lsqb: 0x5b,
    lbrack: 0x5b,
    bsol: 0x5c,
    rsqb: 0x5d,
    rbrack: 0x5d,
    Hat: 0x5e,
    lowbar: 0x5f,
    UnderBar: 0x5f,
    grave: 0x60,
    DiacriticalGrave: 0x60,
    lcub: 0x7b,
    lbrace: 0x7b,
    verbar: 0x7c,
    vert: 0x7c,
    VerticalLine: 0x7c,
    rcub: 0x7d,
    rbrace: 0x7d,
  }),
);
/** Names browsers also read without the `;`. */
const LEGACY_NAMES = ['quot', 'QUOT', 'amp', 'AMP', 'lt', 'LT', 'gt', 'GT', 'nbsp', 'shy'];

/** An HTML character reference: `&#43;`, `&#x2B;` (the `;` optional, as browsers read them), `&plus;`. */
export function referenceAt(text: string, at: number): Reference | undefined {
  if (text.charCodeAt(at + 1) === 0x23) {
    const hex = (text.charCodeAt(at + 2) | 0x20) === 0x78;
    const first = at + (hex ? 3 : 2);
    let end = first;
    while (text.charCodeAt(end) === 0x30) end += 1;
    // Leading zeros, then up to 8 digits: more would be beyond Unicode anyway.
    const significant = end;
    let point = 0;
    for (; end < text.length && end - significant < 8; end += 1) {
      const digit = hex ? hexValue(text.charCodeAt(end)) : decimalValue(text.charCodeAt(end));
      if (digit < 0) break;
      point = point * (hex ? 16 : 10) + digit;
    }
    if (end === first || point === 0 || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return undefined;
    return { point, length: end - at + (text.charCodeAt(end) === 0x3b ? 1 : 0) };
  }
  let end = at + 1;
  while (end < text.length && end - at <= 32 && isLetter(text.charCodeAt(end))) end += 1;
  const name = text.slice(at + 1, end);
  const named = HTML_NAMES.get(name);
  if (named !== undefined && text.charCodeAt(end) === 0x3b) {
    return { point: named, length: end - at + 1 };
  }
  const legacy = LEGACY_NAMES.find((candidate) => name.startsWith(candidate));
  if (legacy === undefined) return undefined;
  return { point: HTML_NAMES.get(legacy)!, length: legacy.length + 1 };
}

export function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function decimalValue(code: number): number {
  return code >= 0x30 && code <= 0x39 ? code - 0x30 : -1;
}

function isLetter(code: number): boolean {
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}
