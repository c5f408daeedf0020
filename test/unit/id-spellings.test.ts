import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idSpellings, wrappedReadings } from '../../src/deletion/id-spellings.js';
import { idReadings, protectionMatcher } from '../../src/deletion/protections.js';

// Ids a service may take for a protected one before reading the number in
// them: Unicode forms, invisible characters, percent-escapes decoded once
// more, and numbers wrapped to 32 or 64 bits (docs/commands.md, protections).

const protectsSeven = protectionMatcher({ ids: ['7'], tags: [], names: [] });

describe('an id rule protects what a service may read as its id', () => {
  it.each([
    // percent-decoded, as a proxy or app that decodes twice reads /plants/%2537; lenient, a few times
    ['%37', true],
    ['%2537', true],
    ['%252537', true],
    ['%37%zz', true],
    ['%37abc', true],
    ['%EF%BC%97', true],
    ['%E2%80%8B7', true],
    ['%\u200b37', true],
    ['\uff05\uff13\uff17', true],
    ['%38', false],
    ['%3', false],
    ['%', false],
    // 32 and 64 bits: mod 2^32 and 2^64, unsigned and signed; negative numbers too
    ['4294967303', true],
    ['-4294967289', true],
    ['18446744073709551623', true],
    ['-18446744073709551609', true],
    ['340282366920938463463374607431768211463', true],
    ['4294967303.json', true],
    ['4294967303abc', true],
    ['0x100000007', true],
    ['4294967304', false],
    ['-7', false],
    ['2147483655', false],
    // invisible characters anywhere, controls too
    ['\u200b7', true],
    ['7\u200d', true],
    ['\u20607\u00ad', true],
    ['\u00007', true],
    ['\u200b8', false],
    // NFKC, before the leading number and the rest
    ['\uff17abc', true],
    ['\u2077', true],
    ['\u2466', true],
    ['\u2466.json', true],
    ['\u2166', false],
  ])('%j: protected %s, read as 7', (id, protectedToo) => {
    const found = protectsSeven(id, []);
    expect(found !== undefined).toBe(protectedToo);
    if (protectedToo) expect(found).toEqual({ rule: 'id "7"', readAs: '7' });
  });

  it('-7 and 4294967289 are one int32 or uint32; 2147483655 is -2147483641 there', () => {
    expect(protectionMatcher({ ids: ['-7'], tags: [], names: [] })('4294967289', [])?.readAs).toBe('-7');
    expect(protectionMatcher({ ids: ['4294967289'], tags: [], names: [] })('-7', [])?.readAs).toBe('4294967289');
    expect(protectionMatcher({ ids: ['-2147483641'], tags: [], names: [] })('2147483655', [])?.readAs).toBe(
      '-2147483641',
    );
    expect(protectionMatcher({ ids: ['18446744073709551609'], tags: [], names: [] })('-7', [])?.readAs).toBe(
      '18446744073709551609',
    );
  });

  it('wraps by the digits alone, however many, in linear time', () => {
    expect(wrappedReadings('7')).toEqual([]);
    expect(wrappedReadings('999999999')).toEqual([]);
    expect(wrappedReadings('abc')).toEqual([]);
    expect(wrappedReadings('2147483648')).toEqual(['-2147483648']);
    expect(wrappedReadings('9223372036854775807')).toEqual(['4294967295', '-1']);
    expect(wrappedReadings('9223372036854775808')).toEqual(['0', '-9223372036854775808']);
    expect(wrappedReadings('-1')).toEqual(['4294967295', '18446744073709551615']);
    expect(wrappedReadings('-7')).toEqual(['4294967289', '18446744073709551609']);
    const huge = `${'9'.repeat(300_000)}`;
    const start = performance.now();
    const readings = wrappedReadings(huge);
    expect(performance.now() - start).toBeLessThan(2000);
    const value = 10n ** 300_000n - 1n;
    const expected = [
      BigInt.asUintN(32, value),
      BigInt.asIntN(32, value),
      BigInt.asUintN(64, value),
      BigInt.asIntN(64, value),
    ];
    expect(readings).toEqual([...new Set(expected.map(String))]);
  });

  it('the fast path of plain digits reads them as the general path does', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,20}$/), (digits) => {
        // A leading space takes the general path, and changes no reading.
        expect(new Set(idReadings(digits))).toEqual(new Set(idReadings(` ${digits}`)));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the readings of one id bounded, and a plain id on its fast path', () => {
    expect(idSpellings('12345')).toEqual(['12345']);
    expect(idReadings('12345')).toEqual(['12345']);
    expect(idSpellings('%25'.repeat(50) + '37').length).toBeLessThanOrEqual(12);
    const hostile = `\uff05\u200b${'%25'.repeat(20)}37\u2077.json.xml.tar\u0000x`.repeat(3);
    expect(idReadings(hostile).length).toBeLessThan(400);
  });
});
