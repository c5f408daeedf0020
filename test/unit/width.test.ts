import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayMeasure } from '../../src/output/width.js';

const { width: displayWidth, cut: cutToWidth } = await displayMeasure();

describe('displayWidth', () => {
  it.each([
    ['plain ASCII', 'Ficus lyrata', 12],
    ['CJK ideographs count double', '植物', 4],
    ['fullwidth forms count double, halfwidth ones single', 'Ａｱ', 3],
    ['emoji count double', '🌱', 2],
    ['emoji newer than cli-table3 knows, such as the potted plant', '🪴', 2],
    ['a combining mark counts nothing', 'e\u0301', 1],
    ['a Thai vowel mark counts nothing', 'กั', 1],
    ['a one-column symbol', '❤', 1],
    ['the same symbol as emoji (variation selector 16)', '❤\ufe0f', 2],
    ['an emoji with a skin tone', '👍🏽', 2],
    ['a one-column emoji base with a skin tone', '☝🏽', 2],
    ['a flag (two regional indicators)', '🇫🇷', 2],
    ['control characters count nothing', 'a\u001bb', 2],
    ['a character outside the BMP that is wide (U+20000)', '\u{20000}', 2],
  ])('%s', (_, text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});

describe('displayMeasure: widths by kind of character (East Asian Width data of Unicode 17)', () => {
  it.each([
    // Combining marks take no column, after a narrow letter or a wide one.
    ['combining marks on a Latin letter', 'a\u0301\u0323', 1],
    ['a kana voicing mark (Wide in the data, yet a combining mark)', 'か\u3099', 2],
    ['a Hangul syllable from conjoining jamo', '\u1112\u1161\u11ab', 2],
    // ZWJ sequences: each emoji two columns and the joiner none, as a terminal that does not
    // join them draws them. Tables never show one joined: they escape the joiner (\u200d).
    ['a ZWJ sequence (farmer: woman, ZWJ, sheaf of rice)', '👩\u200d🌾', 4],
    ['a ZWJ sequence with variation selectors (rainbow flag)', '🏳\ufe0f\u200d🌈', 4],
    // Flags: two regional indicators, one column each.
    ['a flag', '🇯🇵', 2],
    ['a lone regional indicator', '🇯', 1],
    // Variation selectors: 16 makes a one-column symbol of text presentation wide; 15 takes no column.
    ['a text-presentation symbol', '☺', 1],
    ['the same with variation selector 16', '☺\ufe0f', 2],
    ['variation selector 16 on an emoji that is wide already', '🌱\ufe0f', 2],
    ['variation selector 16 after a letter, which it does not change', 'a\ufe0f', 1],
    ['variation selector 15 takes no column', '☺\ufe0e', 1],
    // CJK and fullwidth forms.
    ['CJK ideographs and kana', '植物のなまえ', 12],
    ['Hangul syllables', '한국', 4],
    ['an ideograph outside the BMP (U+2A700)', '\u{2a700}', 2],
    ['fullwidth Latin letters and digits', 'ＦＩＣＵＳ１', 12],
    ['the ideographic space (Fullwidth)', '\u3000', 2],
    ['halfwidth katakana', 'ﾌｨｸｽ', 4],
    // Ambiguous width: narrow, as UAX #11 advises where the context is unknown.
    ['ambiguous: Greek, Cyrillic, arrows, circled digits, the ellipsis', 'αЖ→①…', 5],
    ['ambiguous: the degree sign and the plus-minus sign', '°±', 2],
    // Control characters take no column; tables and columns escape them before measuring.
    ['C0 controls, DEL and C1 controls', '\u0007\u001b\u007f\u0085\u009b', 0],
    ['a control escaped as tables show it', 'a\\u0007b', 8],
    // Unicode 16 made these Wide; the Unicode 15.1 table had them narrow (the new data's doing).
    ['U+2630 TRIGRAM FOR HEAVEN, narrow in Unicode 15.1, Wide since 16', '\u2630', 2],
    ['U+4DC0 HEXAGRAM FOR THE CREATIVE HEAVEN, likewise', '\u4dc0', 2],
    ['U+1D360 COUNTING ROD UNIT DIGIT ONE, likewise', '\u{1d360}', 2],
  ])('%s', (_, text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it('cuts a character made wide by the new data as wide: ☰ does not fit in one column', () => {
    expect(cutToWidth('☰☰☰', 4)).toBe('☰…');
    expect(cutToWidth('☰☰', 4)).toBe('☰☰');
  });

  it('is one measure: the same object for every caller', async () => {
    expect(await displayMeasure()).toBe(await displayMeasure());
  });
});

/** The grapheme boundaries of `text`, as Intl.Segmenter finds them. */
function boundaries(text: string): Set<number> {
  const ends = new Set([0]);
  for (const { index, segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    ends.add(index + segment.length);
  }
  return ends;
}

describe('cutToWidth', () => {
  it('leaves text that fits, exactly or with room', () => {
    expect(cutToWidth('Fern', 4)).toBe('Fern');
    expect(cutToWidth('Fern', 10)).toBe('Fern');
    expect(cutToWidth('', 1)).toBe('');
    expect(cutToWidth('植物', 4)).toBe('植物');
  });

  it('cuts one column over to one column less and an ellipsis', () => {
    expect(cutToWidth('Ferns', 4)).toBe('Fer…');
    expect(cutToWidth('Monstera deliciosa', 10)).toBe('Monstera …');
  });

  it('counts wide characters double and never cuts one in half', () => {
    expect(cutToWidth('植物植物', 5)).toBe('植物…');
    // Three columns before the ellipsis: the second ideograph would reach the fourth; a space is left.
    expect(cutToWidth('植物植物', 4)).toBe('植…');
    expect(cutToWidth('ab植物', 4)).toBe('ab…');
    expect(cutToWidth('🌱🌱🌱', 4)).toBe('🌱…');
    expect(cutToWidth('🪴🪴🪴', 5)).toBe('🪴🪴…');
  });

  it('keeps a letter with its combining marks, and a surrogate pair whole', () => {
    expect(cutToWidth('e\u0301e\u0301e\u0301', 2)).toBe('e\u0301…');
    expect(cutToWidth('\u{20000}\u{20000}\u{20000}', 4)).toBe('\u{20000}…');
    expect(cutToWidth('a𝒜𝒜𝒜', 3)).toBe('a𝒜…');
    // More marks on one letter than the piece first read holds.
    const heavy = `a${'\u0301'.repeat(5_000)}`;
    expect(cutToWidth(`${heavy}bcd`, 2)).toBe(`${heavy}…`);
  });

  it('never splits an escape of the kind tables show (\\u202e, \\n)', () => {
    expect(cutToWidth('ab\\u202ecd', 5)).toBe('ab…');
    expect(cutToWidth('ab\\u202ecd', 9)).toBe('ab\\u202e…');
    expect(cutToWidth('abcde\\nfg', 7)).toBe('abcde…');
    expect(cutToWidth('植\\u202e植', 5)).toBe('植…');
    expect(cutToWidth('植\\u202e植植', 9)).toBe('植\\u202e…');
    // A backslash before other text is itself.
    expect(cutToWidth('ab\\zcdef', 5)).toBe('ab\\z…');
  });

  it('cuts a 1 MiB name reading only its start', () => {
    expect(cutToWidth('x'.repeat(2 ** 20), 60)).toBe(`${'x'.repeat(59)}…`);
    expect(cutToWidth('植'.repeat(2 ** 20), 60)).toBe(`${'植'.repeat(29)}…`);
    expect(cutToWidth(`${'e\u0301'.repeat(2 ** 19)}`, 60)).toBe(`${'e\u0301'.repeat(59)}…`);
  });

  it('fits any text: within the width, a prefix cut between graphemes and outside escapes, as long as fits', () => {
    const text = fc
      .array(
        fc.constantFrom('a', ' ', '植', '🌱', '🪴', 'e\u0301', '\u0301', '❤\ufe0f', '🇫🇷', '\\', '\\u202e', '\\n', '𝒜'),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 40 }), (original, max) => {
        const cut = cutToWidth(original, max);
        if (displayWidth(original) <= max) {
          expect(cut).toBe(original);
          return;
        }
        expect(cut.endsWith('…')).toBe(true);
        const kept = cut.slice(0, -1);
        expect(original.startsWith(kept)).toBe(true);
        expect(displayWidth(cut)).toBeLessThanOrEqual(max);
        expect(boundaries(original).has(kept.length)).toBe(true);
        expect(kept).not.toMatch(/\p{Cs}/u);
        // Not inside an escape: no escape starts in the last five characters kept and runs past them.
        const escape = /\\(?:u[0-9a-f]{4}|[nrt])/g;
        for (const match of original.matchAll(escape)) {
          expect(match.index < kept.length && match.index + match[0].length > kept.length).toBe(false);
        }
        // As long as fits: the next grapheme (when no escape starts there) would not fit before the ellipsis.
        const next = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(original)].find(
          (part) => part.index === kept.length,
        );
        if (next && !/^\\(?:u[0-9a-f]{4}|[nrt])/.test(original.slice(kept.length))) {
          expect(displayWidth(kept + next.segment)).toBeGreaterThan(max - 1);
        }
      }),
      { numRuns: 500 },
    );
  });
});
