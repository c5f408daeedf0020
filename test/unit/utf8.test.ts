import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInvalidByte, Utf8Checker } from '../../src/shared/utf8.js';

/** Feed `bytes` cut at `cuts`; the offset the checker reports. */
function check(bytes: Uint8Array, cuts: number[] = []): number | undefined {
  const checker = new Utf8Checker();
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
    checker.push(bytes.subarray(at, cut));
    at = cut;
  }
  return checker.end();
}

const bytes = (...parts: (string | readonly number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

describe('firstInvalidByte', () => {
  it.each([
    ['plain ASCII', bytes('abc'), 3],
    ['two-, three- and four-byte characters', bytes('é€😀'), 9],
    ['a stray continuation byte', bytes('ab', [0x80], 'c'), 2],
    ['an overlong two-byte form (C0)', bytes('a', [0xc0, 0xaf]), 1],
    ['an overlong three-byte form (E0 80)', bytes([0xe0, 0x80, 0xaf]), 0],
    ['a surrogate (ED A0)', bytes('xy', [0xed, 0xa0, 0x80]), 2],
    ['past U+10FFFF (F4 90)', bytes([0xf4, 0x90, 0x80, 0x80]), 0],
    ['F5 and above', bytes('a', [0xf5]), 1],
    ['a sequence cut short by ASCII', bytes('é', [0xe2, 0x82], 'x'), 2],
    ['a sequence cut short by the end', bytes('ok', [0xf0, 0x9f, 0x98]), 2],
  ])('%s', (_name, input, expected) => {
    expect(firstInvalidByte(input)).toBe(expected);
  });
});

describe('Utf8Checker', () => {
  it('finds nothing in valid text however it is cut', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.array(fc.nat({ max: 200 })), (text, cuts) => {
        expect(check(Buffer.from(text), cuts)).toBeUndefined();
      }),
    );
  });

  it('reports the first bad byte at the same offset however the input is cut', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.constantFrom([0xff], [0x80], [0xc0, 0x80], [0xed, 0xb0, 0x80], [0xe2, 0x28, 0xa1]),
        fc.string({ unit: 'binary' }),
        fc.array(fc.nat({ max: 200 })),
        (before, bad, after, cuts) => {
          const input = bytes(before, bad, after);
          expect(check(input, cuts)).toBe(Buffer.byteLength(before));
        },
      ),
    );
  });

  it('reports a sequence the input ends in the middle of', () => {
    expect(check(bytes('abc', [0xe2, 0x82]), [4])).toBe(3);
    expect(check(bytes('abc', [0xf0]))).toBe(3);
  });
});
