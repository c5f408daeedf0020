import { describe, expect, it } from 'vitest';
import { isSpace, QUOTE, StringPieces, ValueText } from '../../src/shared/json-value-text.js';

/** A ValueText for `text`'s first character, read from 0. */
function valueText(text: string): ValueText {
  return new ValueText(text.charCodeAt(0));
}

describe('ValueText: where one value of a JSON text ends', () => {
  it.each([
    ['"ab"', 'string'],
    ['{"a":1}', 'container'],
    ['[1]', 'container'],
    ['12', 'scalar'],
    ['true', 'scalar'],
  ] as const)('%s is a %s', (text, kind) => {
    expect(valueText(text).kind).toBe(kind);
  });

  it.each([
    ['"a,b"x', 5, '"a,b"'],
    ['"a\\"b"x', 6, '"a\\"b"'],
    ['"a\\\\"x', 5, '"a\\\\"'],
    ['{"a":"}"}x', 9, '{"a":"}"}'],
    ['[[1],[2]],3', 9, '[[1],[2]]'],
    ['{"a":[1,{"b":2}]} ', 17, '{"a":[1,{"b":2}]}'],
    ['12,', 2, '12'],
    ['-1.5]', 4, '-1.5'],
    ['3}', 1, '3'],
    ['true ', 4, 'true'],
    ['null\n', 4, 'null'],
    ['0\t', 1, '0'],
    ['7\r', 1, '7'],
  ])('%j ends at %i, as %j', (text, end, value) => {
    const reading = valueText(text);
    expect(reading.read(text, 0)).toBe(end);
    expect(reading.close()).toBe(value);
  });

  it('reads from the index given, and keeps the text of a value that goes on past it', () => {
    const reading = new ValueText(QUOTE);
    expect(reading.read('xx"abc', 2)).toBe(-1);
    expect(reading.length).toBe(4);
    expect(reading.read('\\"d"', 0)).toBe(4);
    expect(reading.close()).toBe('"abc\\"d"');
  });

  it('carries an escape and the depth across pieces', () => {
    const reading = valueText('{');
    expect(reading.read('{"a":"\\', 0)).toBe(-1);
    expect(reading.read('"}', 0)).toBe(-1);
    expect(reading.read('"}', 0)).toBe(2);
    // The `}` after the escaped quote is in the string: the object ends at the second.
    expect(reading.close()).toBe('{"a":"\\"}"}');
    expect(reading.length).toBe(9);
  });

  it('a scalar ends with the text only when the text ends (close gives what was read)', () => {
    const reading = valueText('1');
    expect(reading.read('123', 0)).toBe(-1);
    expect(reading.read('45', 0)).toBe(-1);
    expect(reading.close()).toBe('12345');
  });
});

describe('StringPieces: a large string decoded piece by piece', () => {
  /** The string of `pieces` (the first from just after its opening quote), and the index just after the quote. */
  function decode(pieces: string[]): { value: string; end: number } {
    const string = new StringPieces();
    for (let i = 0; i < pieces.length; i += 1) {
      const end = string.read(pieces[i]!, i === 0 ? 1 : 0);
      if (end !== -1) return { value: string.value(), end };
    }
    throw new Error('the string did not end');
  }

  it('ends just after its closing quote', () => {
    expect(decode(['"abc"x'])).toEqual({ value: 'abc', end: 5 });
    expect(decode(['"ab', 'c"x'])).toEqual({ value: 'abc', end: 2 });
  });

  it('decodes escapes, even one cut between pieces', () => {
    expect(decode(['"a\\n\\u00e9\\"', '"'])).toEqual({ value: 'a\né"', end: 1 });
    expect(decode(['"a\\', 'tb"'])).toEqual({ value: 'a\tb', end: 3 });
    expect(decode(['"a\\u00', 'e9b"'])).toEqual({ value: 'aéb', end: 4 });
    expect(decode(['"\\u', '0041', '"'])).toEqual({ value: 'A', end: 1 });
    expect(decode(['"x\\\\', '"'])).toEqual({ value: 'x\\', end: 1 });
  });

  it('joins a string longer than a run (1 MiB) whole', () => {
    const long = 'x'.repeat(1024 * 1024 + 5);
    expect(decode(['"', long.slice(0, 700_000), long.slice(700_000), 'y"']).value).toBe(`${long}y`);
  });

  it('refuses a control character, as JSON.parse does; an escaped one is read', () => {
    expect(() => decode(['"a\nb"'])).toThrow(SyntaxError);
    expect(decode(['"a\\u0001"']).value).toBe('a\u0001');
  });

  it('refuses a bad escape', () => {
    expect(() => decode(['"a\\x"'])).toThrow(SyntaxError);
  });
});

describe('isSpace', () => {
  it("is true for JSON's four blanks only", () => {
    expect([32, 10, 13, 9].map(isSpace)).toEqual([true, true, true, true]);
    expect([0, 11, 12, 160, 33].map(isSpace)).toEqual([false, false, false, false, false]);
  });
});
