import { beforeEach, describe, expect, it } from 'vitest';
import { DecodedText } from '../../src/secrets/decoded-text.js';
import { findForms, mayHold, mayHoldSpaced, tokenForms } from '../../src/secrets/token-forms.js';

/** The spans findForms returns for `token` in `text`, as the pieces of text they cover. */
function found(text: string, token: string): string[] {
  const decoded = new DecodedText(text);
  return findForms(decoded, tokenForms(token))
    .map(({ start, end }) => decoded.plain.slice(start, end))
    .sort();
}

describe('tokenForms', () => {
  it('works out a token of 8 characters: itself, its base64 at each alignment, with Bearer too, and its hex', () => {
    const forms = tokenForms('abcdefgh');
    expect(forms.texts).toEqual(['abcdefgh']);
    expect(forms.bearerOnly).toBe(false);
    expect(forms.hex).toBe('6162636465666768');
    expect(forms.hexStart.source).toBe('6162636465666768');
    expect(forms.hexStart.flags).toBe('gi');
    expect(forms.base64).toEqual([
      { cores: ['QmVhcmVyIGFiY2RlZmdo'] },
      { cores: ['JlYXJlciBhYmNkZWZna'], before: { known: 15, value: 4 }, after: { known: 48, value: 0 } },
      { cores: ['CZWFyZXIgYWJjZGVmZ2'], before: { known: 3, value: 1 }, after: { known: 60, value: 32 } },
      { cores: ['YWJjZGVmZ2'], after: { known: 60, value: 32 } },
      { cores: ['FiY2RlZmdo'], before: { known: 15, value: 6 } },
      { cores: ['hYmNkZWZna'], before: { known: 3, value: 1 }, after: { known: 48, value: 0 } },
    ]);
    expect(forms.needles).toEqual([
      'abcdefgh',
      'QmVhcmVyIGFiY2RlZmdo',
      'JlYXJlciBhYmNkZWZna',
      'CZWFyZXIgYWJjZGVmZ2',
      'YWJjZGVmZ2',
      'FiY2RlZmdo',
      'hYmNkZWZna',
    ]);
    expect(forms.shortest).toBe(8);
    expect(forms.spacedStarts).toHaveLength(2);
    expect(forms.spacedStarts[1]!.flags).toBe('i');
  });

  it('works out a token of 7 characters for Bearer only: no bare base64, no hex', () => {
    const forms = tokenForms('abcdefg');
    expect(forms.bearerOnly).toBe(true);
    expect(forms.hex).toBe('');
    expect(forms.base64.map((form) => form.cores)).toEqual([
      ['QmVhcmVyIGFiY2RlZm'],
      ['JlYXJlciBhYmNkZWZn'],
      ['CZWFyZXIgYWJjZGVmZ'],
    ]);
    // The token after `Bearer`: 7 + 6 characters at least.
    expect(forms.shortest).toBe(13);
    expect(forms.spacedStarts).toHaveLength(1);
  });

  it('takes the shortest of the texts and the base64 cores', () => {
    // `ab` after Bearer is 8 characters; its shortest base64 core is 11.
    expect(tokenForms('ab').shortest).toBe(8);
    expect(tokenForms('ab').base64[1]).toEqual({
      cores: ['JlYXJlciBhY'],
      before: { known: 15, value: 4 },
      after: { known: 48, value: 32 },
    });
  });

  it('looks for no empty text: a token of invisible characters is only itself', () => {
    const token = '\u200b'.repeat(8);
    expect(tokenForms(token).texts).toEqual([token]);
    expect(found('abc', token)).toEqual([]);
  });

  it('looks for a token that reads as encoded both as given and decoded', () => {
    const forms = tokenForms('a%41b+c/d=');
    expect(forms.texts).toEqual(['a%41b+c/d=', 'aAb+c/d=']);
    expect(forms.hex).toBe('61253431622b632f643d');
    // Only the start of the hex is searched for: the rest is compared.
    expect(forms.hexStart.source).toBe('61253431622b632f');
    expect(forms.shortest).toBe(8);
  });

  it('gives base64url variants for cores with + or /', () => {
    const forms = tokenForms('>>>???>>>');
    const cores = forms.base64.flatMap((form) => form.cores);
    expect(cores.some((core) => core.includes('+') || core.includes('/'))).toBe(true);
    for (const form of forms.base64) {
      const [core, url] = form.cores;
      if (url !== undefined) expect(url).toBe(core!.replaceAll('+', '-').replaceAll('/', '_'));
      else expect(core).not.toMatch(/[+/]/);
    }
  });
});

describe('findForms', () => {
  it('finds the token as is, every time, overlapping too', () => {
    expect(found('x abcdefgh y abcdefgh', 'abcdefgh')).toEqual(['abcdefgh', 'abcdefgh']);
    expect(found('aaaaaaaaa', 'aaaaaaaa')).toEqual(['aaaaaaaa', 'aaaaaaaa']);
    expect(found('abcdefg', 'abcdefgh')).toEqual([]);
  });

  it('finds a short token only right after Bearer (any case) and white space', () => {
    expect(found('Bearer abc', 'abc')).toEqual(['abc']);
    expect(found('BEARER abc', 'abc')).toEqual(['abc']);
    expect(found('bearer\tabc', 'abc')).toEqual(['abc']);
    expect(found('Bearerabc', 'abc')).toEqual([]);
    expect(found('Bearer xabc', 'abc')).toEqual([]);
    expect(found('earer abc', 'abc')).toEqual([]);
    expect(found('abc', 'abc')).toEqual([]);
    // At the very start: no room for Bearer before it.
    expect(found('abc Bearer abc', 'abc')).toEqual(['abc']);
  });

  it('finds the hex of the token in any case, overlapping starts too', () => {
    expect(found('x 6162636465666768 y', 'abcdefgh')).toEqual(['6162636465666768']);
    expect(found('x 6162636465666768'.toUpperCase(), 'abcdefgh')).toEqual(['6162636465666768']);
    expect(found('6f6f6f6f6f6f6f6f6f', 'oooooooo')).toEqual(['6f6f6f6f6f6f6f6f', '6f6f6f6f6f6f6f6f']);
    expect(found('616263646566676', 'abcdefgh')).toEqual([]);
    expect(found('6162636465666769', 'abcdefgh')).toEqual([]);
    // A longer hex: its start (16 digits) is searched for, the rest compared.
    expect(found('x 616263646566676869', 'abcdefghi')).toEqual(['616263646566676869']);
    expect(found('x 616263646566676800', 'abcdefghi')).toEqual([]);
  });

  it('widens a base64 core by a neighbour only where its known bits fit', () => {
    // btoa('\0abcdefgh') = AGFiY2RlZmdo: `G` holds the first bits of `a` (before: known 15, value 6).
    expect(found('AGFiY2RlZmdo', 'abcdefgh')).toEqual(['GFiY2RlZmdo']);
    // `X` (23): 23 & 15 = 7, not 6; `W` (22): 22 & 15 = 6 fits.
    expect(found('XFiY2RlZmdo', 'abcdefgh')).toEqual(['FiY2RlZmdo']);
    expect(found('WFiY2RlZmdo', 'abcdefgh')).toEqual(['WFiY2RlZmdo']);
    // A character outside base64 is never a neighbour; `-` and `_` are base64url's.
    expect(found('.FiY2RlZmdo', 'abcdefgh')).toEqual(['FiY2RlZmdo']);
    // After (known 60, value 32): `g` (32) and `h` (33) fit, `w` (48) does not.
    expect(found('YWJjZGVmZ2g=', 'abcdefgh')).toEqual(['YWJjZGVmZ2g']);
    expect(found('YWJjZGVmZ2h', 'abcdefgh')).toEqual(['YWJjZGVmZ2h']);
    expect(found('YWJjZGVmZ2w', 'abcdefgh')).toEqual(['YWJjZGVmZ2']);
    expect(found('YWJjZGVmZ2\u00e9', 'abcdefgh')).toEqual(['YWJjZGVmZ2']);
    // Nor is a character beyond ASCII, or one outside base64 before a core whose known bit is 1.
    expect(found('JlYXJlciBhYmNkZWZna\u00e9', 'abcdefgh')).toEqual(['BhYmNkZWZna', 'JlYXJlciBhYmNkZWZna']);
    expect(found('\u00e9hYmNkZWZna', 'abcdefgh')).toEqual(['hYmNkZWZna']);
    expect(found('.hYmNkZWZna', 'abcdefgh')).toEqual(['hYmNkZWZna']);
  });
});

describe('mayHold and mayHoldSpaced', () => {
  // Worked out in each test, not once: a mutant under test must reach it.
  let forms: ReturnType<typeof tokenForms>;
  beforeEach(() => {
    forms = tokenForms('abcdefgh');
  });

  it('tell text that may hold a form from text that cannot', () => {
    expect(mayHold('x abcdefgh', forms)).toBe(true);
    expect(mayHold('x YWJjZGVmZ2 x', forms)).toBe(true);
    expect(mayHold('x 6162636465666768', forms)).toBe(true);
    expect(mayHold('x 6162636465666768'.toUpperCase(), forms)).toBe(true);
    expect(mayHold('abcdefg h', forms)).toBe(false);
    expect(mayHold('', forms)).toBe(false);
  });

  it('find a form with white space or invisible characters between its characters', () => {
    expect(mayHoldSpaced('a b c d e f g h', forms)).toBe(true);
    expect(mayHoldSpaced('a\u200bbcdefgh', forms)).toBe(true);
    expect(mayHoldSpaced('6162 6364 6566 6768', forms)).toBe(true);
    expect(mayHoldSpaced('a b c d e f g', forms)).toBe(false);
    // The start matches, the whole does not.
    expect(mayHoldSpaced('a b c d e f g x', forms)).toBe(false);
    expect(mayHoldSpaced('nothing', forms)).toBe(false);
    // The start of the base64 of `Bearer abcdefgh` (what the pattern looks for), but not the rest.
    expect(mayHoldSpaced('QmVhcmVyIGFiY2Rl xyz', forms)).toBe(false);
  });
});
