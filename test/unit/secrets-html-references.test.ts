import { describe, expect, it } from 'vitest';
import { hexValue, referenceAt } from '../../src/secrets/html-references.js';

describe('referenceAt', () => {
  it.each<[string, number, { point: number; length: number } | undefined]>([
    // Numeric: decimal, hexadecimal with x or X, leading zeros, the `;` optional.
    ['&#43;', 0, { point: 0x2b, length: 5 }],
    ['&#43', 0, { point: 0x2b, length: 4 }],
    ['&#43a', 0, { point: 0x2b, length: 4 }],
    ['&#x2b;', 0, { point: 0x2b, length: 6 }],
    ['&#X2B', 0, { point: 0x2b, length: 5 }],
    ['&#x2Bg;', 0, { point: 0x2b, length: 5 }],
    ['&#0000000043;', 0, { point: 0x2b, length: 13 }],
    ['&#x0000000002b;', 0, { point: 0x2b, length: 15 }],
    ['x&#9;y', 1, { point: 9, length: 4 }],
    ['&#1114111;', 0, { point: 0x10ffff, length: 10 }],
    ['&#xd7ff;', 0, { point: 0xd7ff, length: 8 }],
    ['&#xe000;', 0, { point: 0xe000, length: 8 }],
    // Decimal digits only in a decimal one: `a` ends it.
    ['&#12a;', 0, { point: 12, length: 4 }],
    // No digits, zero, surrogates, beyond Unicode, more than 8 significant digits.
    ['&#;', 0, undefined],
    ['&#x;', 0, undefined],
    ['&#', 0, undefined],
    ['&#x', 0, undefined],
    ['&#0;', 0, undefined],
    ['&#x0000;', 0, undefined],
    ['&#xd800;', 0, undefined],
    ['&#xdfff;', 0, undefined],
    ['&#1114112;', 0, undefined],
    ['&#x110000;', 0, undefined],
    ['&#123456789;', 0, undefined],
    // Named: with `;`, or one of the legacy names without it (the longest name it starts with first).
    ['&plus;', 0, { point: 0x2b, length: 6 }],
    ['&NegativeVeryThinSpace;', 0, { point: 0x200b, length: 23 }],
    ['&amp;', 0, { point: 0x26, length: 5 }],
    ['&amp', 0, { point: 0x26, length: 4 }],
    ['&ampere;', 0, { point: 0x26, length: 4 }],
    ['&nbspx', 0, { point: 0xa0, length: 5 }],
    ['&LT', 0, { point: 0x3c, length: 3 }],
    ['&plus', 0, undefined],
    ['&Plus;', 0, undefined],
    ['&unknown;', 0, undefined],
    ['&', 0, undefined],
    ['& amp;', 0, undefined],
    ['&;', 0, undefined],
  ])('%j at %d', (text, at, reference) => {
    expect(referenceAt(text, at)).toEqual(reference);
  });

  it('reads a name of at most 32 letters and the one after: a longer run of letters is no name', () => {
    // `amp` and 29 more letters: still read as the legacy `&amp`.
    expect(referenceAt(`&amp${'x'.repeat(29)}`, 0)).toEqual({ point: 0x26, length: 4 });
    expect(referenceAt(`&amp${'x'.repeat(40)}`, 0)).toEqual({ point: 0x26, length: 4 });
    // A known name found only within the first 33 letters after `&`.
    expect(referenceAt('&plus;', 0)).toEqual({ point: 0x2b, length: 6 });
  });
});

describe('hexValue', () => {
  it.each([
    ['0', 0],
    ['9', 9],
    ['a', 10],
    ['f', 15],
    ['A', 10],
    ['F', 15],
    ['/', -1],
    [':', -1],
    ['`', -1],
    ['g', -1],
    ['@', -1],
    ['G', -1],
    [' ', -1],
  ])('%j is %d', (ch, value) => {
    expect(hexValue(ch.charCodeAt(0))).toBe(value);
  });
});
