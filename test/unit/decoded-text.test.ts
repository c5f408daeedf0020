import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodedText } from '../../src/secrets/decoded-text.js';

const plain = (text: string) => new DecodedText(text).plain;

describe('DecodedText', () => {
  it('is the text itself when nothing in it is encoded or white space', () => {
    const text = 'plain-text_with.punctuation!"#$\'()*+,/:;<=>?@[]^`{|}~é😀';
    expect(plain(text)).toBe(text);
  });

  it('decodes percent-encoding in either case, UTF-8 sequences whole', () => {
    expect(plain('TOP%2BSECRET%2fabc')).toBe('TOP+SECRET/abc');
    expect(plain('caf%C3%A9 %F0%9F%98%80')).toBe('café😀');
    // Not a character: an invalid or cut sequence, an overlong form, a surrogate, no hex digits.
    expect(plain('%C3%28 %C0%AF %ED%A0%80 %E2%82 %zz %4')).toBe('%C3(%C0%AF%ED%A0%80%E2%82%zz%4');
  });

  it('decodes JSON escapes; a backslash before anything else stays', () => {
    expect(plain('a\\u002Bb\\u002fc\\"d\\\\e\\/f')).toBe('a+b/c"d\\e/f');
    expect(plain('\\ud83d\\ude00')).toBe('😀');
    expect(plain('\\x41 \\u12 \\')).toBe('\\x41\\u12\\');
    // An escaped backslash is one character: what follows it is text, but for an escape, which a
    // string's JSON text holds so (the escape read too: masking errs toward masking).
    expect(plain('\\\\x41 \\\\"')).toBe('\\x41\\"');
    expect(plain('\\\\u0041\\\\u200b\\\\nb \\\\uZZ')).toBe('Ab\\uZZ');
  });

  it('decodes HTML character references: named, decimal and hexadecimal, any number of leading zeros', () => {
    expect(plain('&plus;&sol;&equals;&amp;&quot;&lt;&gt;&bsol;&lowbar;')).toBe('+/=&"<>\\_');
    expect(plain('&#43;&#043;&#0000000043;&#x2B;&#X2b;&#x0002B;')).toBe('++++++');
    // As browsers read them: numbers and the old names without the `;`.
    expect(plain('&#43x &#x2Bz &ampx &lt3')).toBe('+x+z&x<3');
    expect(plain('&plus &unknown; &#; &#0; &#x110000; &')).toBe('&plus&unknown;&#;&#0;&#x110000;&');
  });

  it('leaves out white space, as is or encoded', () => {
    expect(plain('a b\tc\r\nd\u00a0e\u2028f')).toBe('abcdef');
    expect(plain('a\\nb\\r\\nc\\td')).toBe('abcd');
    expect(plain('a%20b%0D%0Ac%09d&#10;e&#x20;f&Tab;g&NewLine;h&nbsp;i')).toBe('abcdefghi');
  });

  it('leaves out exactly the ignorable characters: white space, controls, format and default-ignorable ones, U+FFFD', () => {
    const ignorable = /^[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\uFFFD]$/u;
    for (let point = 0; point <= 0x10ffff; point += point < 0x10000 ? 1 : 0x10) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const char = String.fromCodePoint(point);
      if (char === '%' || char === '\\' || char === '&') continue;
      expect(plain(`a${char}b`), point.toString(16)).toBe(ignorable.test(char) ? 'ab' : `a${char}b`);
    }
  });

  it('leaves out invisible characters written as JSON escapes, HTML references or percent-encoded', () => {
    expect(plain('a\\u200bb\\u00ADc\\uFEFFd\\udb40\\udc41e\\u2060f')).toBe('abcdef');
    expect(plain('a&#8203;b&#x200C;c&shy;d&ZeroWidthSpace;e&zwj;f&NoBreak;g&thinsp;h&lrm;i')).toBe('abcdefghi');
    // As browsers read them: the old names without the `;`.
    expect(plain('a&nbspb&shyc')).toBe('abc');
    expect(plain('a%E2%80%8Bb%C2%A0c%c2%add%EF%BB%BFe%F3%A0%81%81f')).toBe('abcdef');
    // A surrogate pair escaped is one character; a lone half, raw or escaped, shows as U+FFFD: left out.
    expect(plain('\\ud83d\\ude00 a\\ud83db\\ude00c\ud83dd\ude00e\u{1f600}')).toBe('\u{1f600}abcde\u{1f600}');
  });

  it('maps a character after an astral ignorable one, left out whole, to its own text', () => {
    const decoded = new DecodedText('a\u{e0041}b\\udb40\\udc42c');
    expect(decoded.plain).toBe('abc');
    expect([0, 1, 2].map((i) => [decoded.start(i), decoded.end(i)])).toEqual([
      [0, 1],
      [3, 4],
      [16, 17],
    ]);
  });

  it('knows the span of the text each character came from', () => {
    const decoded = new DecodedText('ab %2B&plus;\\u002b c😀');
    expect(decoded.plain).toBe('ab+++c😀');
    const spans = Array.from({ length: decoded.plain.length }, (_, i) => [decoded.start(i), decoded.end(i)]);
    expect(spans).toEqual([
      [0, 1],
      [1, 2],
      [3, 6],
      [6, 12],
      [12, 18],
      [19, 20],
      [20, 21],
      [21, 22],
    ]);
    expect([2, 3, 4, 5].map((i) => decoded.gapBefore(i))).toEqual([true, false, false, true]);
  });

  it('maps every character back to text that decodes to it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 5 }),
            fc.constantFrom(
              '%2B',
              '%c3%a9',
              '%',
              '\\u0041',
              '\\"',
              '\\\\',
              '\\n',
              '\\',
              '&amp;',
              '&#43;',
              '&#x2f',
              '&',
            ),
          ),
        ),
        (pieces) => {
          const text = pieces.join('');
          const decoded = new DecodedText(text);
          for (let i = 0; i < decoded.plain.length; i += 1) {
            const start = decoded.start(i);
            // In order, and never overlapping (but the two halves of one astral character share theirs).
            if (i > 0) expect(start === decoded.start(i - 1) || start >= decoded.end(i - 1)).toBe(true);
            // An astral character whole (a lone half reads as nothing), from its first half.
            const point = decoded.plain.codePointAt(i)!;
            if (point >= 0xdc00 && point <= 0xdfff) continue;
            const whole = decoded.end(point > 0xffff ? i + 1 : i);
            expect(new DecodedText(text.slice(start, whole)).plain).toContain(String.fromCodePoint(point));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
