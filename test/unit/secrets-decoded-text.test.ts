import { describe, expect, it } from 'vitest';
import { DecodedText } from '../../src/secrets/decoded-text.js';

/** The plain text, and the span of the text each of its characters came from. */
function read(text: string): [string, number[][]] {
  const decoded = new DecodedText(text);
  return [decoded.plain, Array.from({ length: decoded.plain.length }, (_, i) => [decoded.start(i), decoded.end(i)])];
}

/** Text left as it is: each character its own span. */
const asIs = (text: string): [string, number[][]] => [text, Array.from(text, (_, i) => [i, i + 1])];

describe('DecodedText at the edges of each encoding', () => {
  it.each([
    // UTF-8 percent-encoded: the least and the most of each length, and what is just past them.
    ['%DF%BF', '\u07ff', [[0, 6]]],
    ['%E0%A0%80', '\u0800', [[0, 9]]],
    ['%ED%9F%BF', '\ud7ff', [[0, 9]]],
    ['%EF%BF%BF', '\uffff', [[0, 9]]],
    [
      '%F0%90%80%80',
      '\u{10000}',
      [
        [0, 12],
        [0, 12],
      ],
    ],
    [
      '%F4%8F%BF%BFx',
      '\u{10ffff}x',
      [
        [0, 12],
        [0, 12],
        [12, 13],
      ],
    ],
    // A control character, encoded, is left out; the span of what follows is its own.
    ['%C2%80a', 'a', [[6, 7]]],
  ])('decodes %j', (text, plain, spans) => {
    expect(read(text)).toEqual([plain, spans]);
  });

  it.each(['%F4%90%80%80', '%E0%9F%BF', '%C1%BF', '%F5%80%80%80', '%C3%C0', '%F0%8F%BF%BF', '%C2', '%C2%', '%C2%8'])(
    'leaves %j as it is: no character (beyond Unicode, overlong, a bad lead or continuation byte, cut short)',
    (text) => {
      expect(read(text)).toEqual(asIs(text));
    },
  );

  it.each([
    [
      'a\\rb\\tc',
      'abc',
      [
        [0, 1],
        [3, 4],
        [6, 7],
      ],
    ],
    [
      '\\\\rb\\\\tc',
      'bc',
      [
        [3, 4],
        [7, 8],
      ],
    ],
    ['\\ud83d\\u0041', 'A', [[6, 12]]],
    ['\\ud83dA', 'A', [[6, 7]]],
    [
      '\\u00e9\\u00E9',
      '\u00e9\u00e9',
      [
        [0, 6],
        [6, 12],
      ],
    ],
    [
      '\\uD83D\\uDE00',
      '\u{1f600}',
      [
        [0, 12],
        [0, 12],
      ],
    ],
  ])('reads the JSON escapes of %j', (text, plain, spans) => {
    expect(read(text)).toEqual([plain, spans]);
  });

  it.each([
    ['&#xE000;', '\ue000', [[0, 8]]],
    [
      '&#x10FFFF;',
      '\u{10ffff}',
      [
        [0, 10],
        [0, 10],
      ],
    ],
    [
      '&#1114111;',
      '\u{10ffff}',
      [
        [0, 10],
        [0, 10],
      ],
    ],
    ['&#55295;', '\ud7ff', [[0, 8]]],
    ['&#x2B', '+', [[0, 5]]],
    ['&#43', '+', [[0, 4]]],
    [
      'a&#x2B;b',
      'a+b',
      [
        [0, 1],
        [1, 7],
        [7, 8],
      ],
    ],
    [
      '&quotx',
      '"x',
      [
        [0, 5],
        [5, 6],
      ],
    ],
    ['&QUOT;', '"', [[0, 6]]],
    ['&AMP', '&', [[0, 4]]],
    [
      '&gtx',
      '>x',
      [
        [0, 3],
        [3, 4],
      ],
    ],
    ['&GT;', '>', [[0, 4]]],
    [
      '&LTx',
      '<x',
      [
        [0, 3],
        [3, 4],
      ],
    ],
    ['&nbsp', '', []],
    ['&Tab;', '', []],
    [
      '&lbrace;&rbrace;',
      '{}',
      [
        [0, 8],
        [8, 16],
      ],
    ],
  ])('reads the character reference %j', (text, plain, spans) => {
    expect(read(text)).toEqual([plain, spans]);
  });

  it.each(['&#x;', '&#x0;', '&#xD800;', '&#xDFFF;', '&#1114112;', '&#123456789;', '&copy;', '&Tab'])(
    'leaves %j as it is: no reference to a character it knows',
    (text) => {
      expect(read(text)).toEqual(asIs(text));
    },
  );

  it('reads an old name without its `;` at the start of a long run of letters', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyzabcdefghijk';
    const [plain, spans] = read(`&amp${letters}`);
    expect(plain).toBe(`&${letters}`);
    expect(spans[0]).toEqual([0, 4]);
    expect(spans[1]).toEqual([4, 5]);
    expect(read(`&${letters};`)).toEqual(asIs(`&${letters};`));
  });

  it('tells where white space was left out, and nowhere else', () => {
    const decoded = new DecodedText('ab c%20d\\ne&#32;f');
    expect(decoded.plain).toBe('abcdef');
    expect([0, 1, 2, 3, 4, 5].map((i) => decoded.gapBefore(i))).toEqual([false, false, true, true, true, true]);
    const none = new DecodedText('abc');
    expect([0, 1, 2].map((i) => none.gapBefore(i))).toEqual([false, false, false]);
  });
});
