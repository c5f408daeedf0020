import { describe, expect, it } from 'vitest';
import { IGNORABLE_RUN, IGNORABLE_SOURCE, isIgnorable, ROUGHLY_IGNORABLE_SOURCE } from '../../src/shared/ignorable.js';

/** What ignorable.ts writes out as ranges, as Unicode's properties say it. */
const BY_PROPERTY = /^[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\uFFFD]$/u;

describe('ignorable characters', () => {
  it('are white space, controls, format characters, default-ignorable code points and U+FFFD, every code point checked', () => {
    const exact = new RegExp(`^${IGNORABLE_SOURCE}$`);
    const rough = new RegExp(`^${ROUGHLY_IGNORABLE_SOURCE}+$`);
    const wrong: string[] = [];
    for (let point = 0; point <= 0x10ffff; point += 1) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const char = String.fromCodePoint(point);
      const expected = BY_PROPERTY.test(char);
      // The rough class may take more, never less.
      if (isIgnorable(point) !== expected || exact.test(char) !== expected || (expected && !rough.test(char))) {
        wrong.push(point.toString(16));
      }
    }
    expect(wrong).toEqual([]);
  });

  it('include the characters that split a token invisibly', () => {
    for (const char of ['\u200b', '\u200c', '\u200d', '\u2060', '\u00ad', '\ufeff', '\u200e', '\u202e', '\u180e']) {
      expect(isIgnorable(char.codePointAt(0)!), char.codePointAt(0)!.toString(16)).toBe(true);
    }
    for (const char of ['\u00a0', '\u2007', '\u202f', '\u205f', '\u3000', '\0', '\ufe0f', '\u{e0041}', '\u{e0100}']) {
      expect(isIgnorable(char.codePointAt(0)!), char.codePointAt(0)!.toString(16)).toBe(true);
    }
    for (const char of ['a', '-', '.', '\u00e9', '\u4e00', '\u{1f600}', '\u2800']) {
      expect(isIgnorable(char.codePointAt(0)!), char).toBe(false);
    }
  });

  it('are taken out in runs, astral ones whole, lone surrogates too (they show as U+FFFD)', () => {
    expect('a\u200b\u00a0b\u{e0041}c \n\u{1f600}'.replace(IGNORABLE_RUN, '')).toBe('abc\u{1f600}');
    expect('a\ud83db\ude00c\udc00\ud800d\u{1f600}'.replace(IGNORABLE_RUN, '')).toBe('abcd\u{1f600}');
  });
});
