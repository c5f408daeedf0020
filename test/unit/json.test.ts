import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { JsonNumber, numberText, parseJson, stringifyJson } from '../../src/shared/json.js';

describe('parseJson', () => {
  it('is JSON.parse when every number survives', () => {
    const text = '[{"id":1,"name":"a:12","price":2.5,"n":-3,"big":9007199254740991}]';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it('keeps integers above 2^53 exactly', () => {
    const value = parseJson('[{"id":1234567890123456789,"name":"Big"}]') as { id: JsonNumber }[];
    expect(value[0]!.id).toBeInstanceOf(JsonNumber);
    expect(numberText(value[0]!.id)).toBe('1234567890123456789');
  });

  it('keeps the integers past 2^53 - 1 that JSON.parse would change, and the rest as numbers, beside other kept numbers', () => {
    const integers = [
      '9007199254740991',
      '9007199254740992',
      '9007199254740993',
      '-9007199254740992',
      '-9007199254740993',
      '1000000000000000',
      '10000000000000000',
      '12345678901234567',
      '100000000000000000000',
      '1234567890123456789',
    ];
    const kept = (text: string) => String(Number(text)) !== text;
    // Beside 1.50, which is kept whatever else the text holds; and alone, each the same way.
    expect(parseJson(`[1.50,${integers.join(',')}]`)).toEqual([
      new JsonNumber('1.50'),
      ...integers.map((text) => (kept(text) ? new JsonNumber(text) : Number(text))),
    ]);
    for (const text of integers)
      expect(parseJson(`[${text}]`)).toEqual([kept(text) ? new JsonNumber(text) : Number(text)]);
    expect(integers.filter(kept)).toEqual([
      '9007199254740993',
      '-9007199254740993',
      '12345678901234567',
      '1234567890123456789',
    ]);
  });

  it('judges any integer of 15 to 18 digits as a conversion back to text would, on every way through', () => {
    const integer = fc
      .tuple(
        fc.oneof(
          fc.bigInt({ min: 10n ** 14n, max: 10n ** 18n - 1n }),
          // The 16-digit integers past 2^53, judged by their last digit.
          fc.bigInt({ min: 2n ** 53n - 64n, max: 10n ** 16n - 1n }),
        ),
        fc.boolean(),
      )
      .map(([n, negative]) => String(negative ? -n : n));
    const expected = (text: string) => (String(Number(text)) === text ? Number(text) : new JsonNumber(text));
    const reviverWay = vi.spyOn(JSON, 'parse');
    try {
      fc.assert(
        fc.property(integer, (text) => {
          expect(parseJson(`[${text}]`)).toEqual([expected(text)]);
          // Beside a number that is kept: the marking way.
          expect(parseJson(`[1.50,${text}]`)).toEqual([new JsonNumber('1.50'), expected(text)]);
          // Beside a look-alike in a string that the marking breaks: the reviver's way, when the integer is kept.
          reviverWay.mockClear();
          expect(parseJson(`["[1.5]",${text}]`)).toEqual(['[1.5]', expected(text)]);
          const revived = reviverWay.mock.calls.some((call) => call[1] !== undefined);
          expect(revived).toBe(String(Number(text)) !== text);
        }),
        { numRuns: 3000 },
      );
    } finally {
      reviverWay.mockRestore();
    }
    for (const text of [
      '9007199254740991',
      '9007199254740992',
      '9007199254740993',
      '9007199254740994',
      '-9007199254740995',
    ]) {
      expect(parseJson(`[${text}]`)).toEqual([expected(text)]);
    }
  });

  it('gives a number that round-trips as a number whether or not a look-alike in a string sends the text the slow way', () => {
    // `[0e` in the key looks like a number that would change: the whole text is then parsed keeping numbers.
    const text = '{"[0e":false,"":-9007199254740992,"b":9007199254740994}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it.each(['1.50', '1e2', '-0', '1E+2', '0.1000000000000000055511151231257827'])('keeps %s as written', (number) => {
    const value = parseJson(`{"x":${number}}`) as { x: JsonNumber };
    expect(value.x).toEqual(new JsonNumber(number));
  });

  it('leaves look-alike numbers inside strings alone', () => {
    const text = '[{"name":"x:1.50, [12345678901234567890","id":12345678901234567890}]';
    const [plant] = parseJson(text) as { name: string; id: JsonNumber }[];
    expect(plant!.name).toBe('x:1.50, [12345678901234567890');
    expect(plant!.id.rawJSON).toBe('12345678901234567890');
  });

  it('handles escaped quotes inside strings', () => {
    const [plant] = parseJson('[{"name":"say \\"1.50\\"","id":99999999999999999999}]') as {
      name: string;
      id: JsonNumber;
    }[];
    expect(plant!.name).toBe('say "1.50"');
    expect(plant!.id.rawJSON).toBe('99999999999999999999');
  });

  it('rejects invalid JSON like JSON.parse', () => {
    expect(() => parseJson('[1.2.3]')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":')).toThrow(SyntaxError);
  });

  it.each([
    '[01234567890123456789]',
    '[1.e5]',
    '[1e]',
    '[12345678901234567890abc]',
    '[12345678901234567890.]',
    '[-12345678901234567890-1]',
    '{"a":1.50,"b":"x:1.5.0"',
    '{"a":1,1.50:2}',
    '1.50,2',
    '12345678901234567890]',
    ' -0 0',
  ])('rejects %s, which holds a risky number, like JSON.parse', (text) => {
    expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
    expect(() => parseJson(text)).toThrow(SyntaxError);
  });

  it('throws what JSON.parse throws, positions counted in the text as given', () => {
    for (const text of ['[01.5,1.50]', '1.50,2', '[12345678901234567890,]']) {
      let expected = '';
      try {
        JSON.parse(text);
      } catch (err) {
        expected = (err as Error).message;
      }
      expect(expected).not.toBe('');
      expect(() => parseJson(text)).toThrow(expected);
    }
  });

  it.each([
    ['12345678901234567890', '12345678901234567890'],
    [' \n-12345678901234567890 ', '-12345678901234567890'],
    ['1.50', '1.50'],
    ['-0', '-0'],
    ['10000000000000000.5', '10000000000000000.5'],
  ])('keeps %j, a number alone, as written', (text, written) => {
    expect(numberText(parseJson(text) as JsonNumber)).toBe(written);
  });

  it.each([
    ['7', 7],
    ['9007199254740991', 9007199254740991],
    ['-1.5', -1.5],
  ])('reads %j, a number alone that survives, as a number', (text, value) => {
    expect(parseJson(text)).toBe(value);
  });

  it('keeps a fraction whose integer part alone would survive (16 digits and more, then a fraction)', () => {
    expect(parseJson('[10000000000000000.5]')).toEqual([new JsonNumber('10000000000000000.5')]);
  });

  it('leaves a string that starts with the mark character alone beside a kept number', () => {
    expect(parseJson('["~home",1.50,{"a":"~"}]')).toEqual(['~home', new JsonNumber('1.50'), { a: '~' }]);
  });
});

describe('stringifyJson', () => {
  it('writes the numbers back exactly as they were, compact and pretty', () => {
    const text = '[{"id":1234567890123456789,"name":"Big","price":1.50,"tag":null}]';
    expect(stringifyJson(parseJson(text))).toBe(text);
    expect(stringifyJson(parseJson(text), 2)).toBe(
      '[\n  {\n    "id": 1234567890123456789,\n    "name": "Big",\n    "price": 1.50,\n    "tag": null\n  }\n]',
    );
  });
});
