import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { naturalOrder, sortNaturally } from '../../src/completion/order.js';

const sorted = (values: string[]) => sortNaturally(values, (value) => value);

describe('natural order of completion values', () => {
  it('puts numbers by value, then text with its digit runs by value', () => {
    expect(sorted(['b', '100', 'a10', '10', 'A', '2', 'a9', '9', '-1'])).toEqual([
      '-1',
      '2',
      '9',
      '10',
      '100',
      'A',
      'a9',
      'a10',
      'b',
    ]);
    expect(sorted(['plant-10', 'plant-9', 'plant-10b', 'plant-1.10', 'plant-1.9'])).toEqual([
      'plant-1.9',
      'plant-1.10',
      'plant-9',
      'plant-10',
      'plant-10b',
    ]);
  });

  it('compares numbers of any length exactly, past 2^53', () => {
    expect(sorted(['9007199254740993', '9007199254740992', '18446744073709551616', '99'])).toEqual([
      '99',
      '9007199254740992',
      '9007199254740993',
      '18446744073709551616',
    ]);
  });

  it('orders equal values (leading zeros) by their text, whatever order they came in', () => {
    expect(sorted(['7', '007', '07', '0', '00'])).toEqual(['0', '00', '007', '07', '7']);
    expect(sorted(['07', '7', '00', '007', '0'])).toEqual(['0', '00', '007', '07', '7']);
  });

  it('compares text by code point, not UTF-16 unit and not locale', () => {
    // U+1F331 (a surrogate pair) is after U+FF5E; `<` on UTF-16 units says otherwise.
    expect(sorted(['\u{1F331}', '\uFF5E', 'é', 'z', 'Z'])).toEqual(['Z', 'z', 'é', '\uFF5E', '\u{1F331}']);
  });

  it('is a total order: antisymmetric, and the sort is the same from any starting order', () => {
    const id = fc.stringMatching(/^[0-9a-z.-]{0,6}$/);
    fc.assert(
      fc.property(fc.array(id), (values) => {
        const once = sorted(values);
        expect(sorted([...values].reverse())).toEqual(once);
        for (let i = 1; i < once.length; i += 1) expect(naturalOrder(once[i - 1]!, once[i]!)).toBeLessThanOrEqual(0);
      }),
    );
    fc.assert(
      fc.property(id, id, (a, b) => {
        expect(Math.sign(naturalOrder(a, b)) + Math.sign(naturalOrder(b, a))).toBe(0);
      }),
    );
  });
});
