import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leadingNumbers } from '../../src/deletion/leading-number.js';
import { idKey, idReadings, protectionMatcher } from '../../src/deletion/protections.js';

// An id rule protects the ids a service reads as that id when it parses the
// number at the start (parseInt, Ruby's to_i as Rails finds records, PHP's
// (int)): docs/decisions/0002 and docs/commands.md.

const protectedBy = (rule: string) => {
  const check = protectionMatcher({ ids: [rule], tags: [], names: [] });
  return (id: string) => check(id, []);
};

describe('the number at the start of an id', () => {
  it.each([
    // parseInt, to_i and (int) alike
    ['7', '7abc'],
    ['7', '7-slug'],
    ['7', '7,8'],
    ['7', ' 7'],
    ['7', '\t\n 7'],
    ['7', '\u00A07x'],
    ['7', '07-x'],
    ['7', '007abc'],
    ['7', '+7z'],
    ['-7', '-7z'],
    ['-7', '  -07.5'],
    ['7', '7 8'],
    ['7', '7/8'],
    ['7', '7%20'],
    ['7', '7;drop'],
    // parseInt reads 7 of 7.9 and 7e3x; PHP reads 7e3x as 7000, and 7.9x as 7
    ['7', '7.9'],
    ['7', '7.9x'],
    ['7', '7e3x'],
    ['7000', '7e3x'],
    ['79', '7.9e1x'],
    ['0', '.5x'],
    // parseInt reads hex after 0x; Ruby and PHP read 0
    ['7', '0x7z'],
    ['255', '0xffg'],
    ['-7', '-0x7z'],
    ['0', '0x7z'],
    // Ruby's to_i takes underscores between digits; parseInt stops at one
    ['1000', '1_000x'],
    ['1', '1_000x'],
    // parseInt gives a double: past 2^53 it is the nearest one
    ['9007199254740992', '9007199254740993abc'],
    ['9007199254740993', '9007199254740993abc'],
  ])('--id %j protects %j', (rule, id) => {
    expect(protectedBy(rule)(id)).toMatchObject({ rule: `id ${JSON.stringify(rule)}` });
  });

  it.each([
    ['7', 'x7'],
    ['7', 'abc'],
    ['0', 'abc'],
    ['0', ''],
    ['0', '-'],
    ['7', '17abc'],
    ['7', '70-slug'],
    ['7', '-7abc'],
    ['-7', '7abc'],
    ['7', '8.7'],
    ['7', '6.9x'],
    ['7', '0b111z'],
    ['7', '77'],
    ['8', '010-x'],
    ['7', '\uFF18abc'],
    ['7000', '700x'],
  ])('--id %j does not protect %j', (rule, id) => {
    expect(protectedBy(rule)(id)).toBeUndefined();
  });

  it('says which id a service may read the target as', () => {
    expect(protectedBy('7')('7-slug')).toEqual({ rule: 'id "7"', readAs: '7' });
    expect(protectedBy('07')('7abc')).toEqual({ rule: 'id "07"', readAs: '7' });
    // The id as written still comes first: 7.0 is the id 7 itself.
    expect(protectedBy('7')('7.0')).toEqual({ rule: 'id "7"' });
  });

  it('whatever JavaScript parseInt reads as a safe integer n, --id n protects', () => {
    const piece = fc.constantFrom(
      ...'0123456789',
      ' ',
      '\t',
      '\u00A0',
      '\u3000',
      '+',
      '-',
      '.',
      'e',
      'E',
      'x',
      'X',
      '_',
      'a',
      'f',
      'z',
      ',',
      '/',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const id = pieces.join('');
        const n = Number.parseInt(id);
        if (!Number.isSafeInteger(n)) return;
        expect(protectedBy(String(n))(id)).toBeDefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('an id that does not start with a number keeps its readings as they were', () => {
    for (const id of ['abc', 'rose.json', 'x7', '-', ''])
      expect(leadingNumbers(id).filter((text) => idKey(text) !== '0')).toEqual([]);
    expect(idReadings('rose.json')).toEqual(['rose.json', 'rose']);
  });

  it('a long run of digits or hex costs no big-number work past its bounds', () => {
    const digits = '7'.repeat(100_000);
    const started = performance.now();
    expect(idReadings(`${digits}x`)).toContain(digits);
    expect(leadingNumbers(`0x${'f'.repeat(100_000)}z`)).toEqual(['0']);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('selection and identity stay exact', () => {
  it('idKey, what ids are selected and counted by, keeps the text after a number', () => {
    expect(idKey('7abc')).toBe('7abc');
    expect(idKey('7-slug')).not.toBe(idKey('7'));
    expect(idKey(' 7')).toBe('7');
  });
});
