import { afterEach, describe, expect, it } from 'vitest';
import { describeErrorBody } from '../../src/api/responses.js';
import { redactToken } from '../../src/secrets/redact.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';
import { escapeForTerminal } from '../../src/output/formats.js';
import { excerpt, printable, quoted, singleLine, wordList } from '../../src/shared/text.js';

const TOKEN = 'canary-7f3a9c1e-token';
const redact = (text: string) => redactToken(text, TOKEN);
const pieces = Array.from({ length: TOKEN.length - 7 }, (_, start) => TOKEN.slice(start, start + 8));

afterEach(() => forgetSecrets());

describe('excerpt masks the token before it cuts', () => {
  it.each([200, 300, 500])('wherever a cut at %i falls in the token', (max) => {
    for (let into = 0; into <= TOKEN.length; into += 1) {
      for (const token of [TOKEN, `Bearer ${TOKEN}`]) {
        const shown = excerpt(redact(`${'x'.repeat(max - into)}${token} and more`), max);
        expect(shown.startsWith('x'.repeat(max - into)), shown).toBe(true);
        for (const piece of pieces) expect(shown).not.toContain(piece);
      }
    }
  });

  it('in every kind of error body, the token decoded from JSON escapes too', () => {
    const escaped = TOKEN.replaceAll('-', '\\u002d');
    for (let into = 0; into <= TOKEN.length; into += 1) {
      const bodies: [string, string][] = [
        [`${'t'.repeat(200 - into)}${TOKEN}`, 'text/plain'],
        [`{"message":"${'m'.repeat(500 - into)}${escaped}"}`, 'application/json'],
        [`{"title":"T","detail":"${'d'.repeat(497 - into)}${escaped}"}`, 'application/problem+json'],
        [`{"error":"${'e'.repeat(500 - into)}${escaped}"}`, 'application/json'],
        [`<title>${'h'.repeat(200 - into)}${TOKEN}</title>`, 'text/html'],
        [`<p>${'h'.repeat(200 - into)}${TOKEN}</p>`, 'text/html'],
      ];
      registerSecret(TOKEN);
      for (const [body, type] of bodies) {
        const { message } = describeErrorBody(body, type);
        for (const piece of pieces) expect(message, body).not.toContain(piece);
      }
    }
  });
});

/** Every character that must not reach a terminal raw, beyond C0 and C1 controls. */
const INVISIBLE = [
  '\u061c',
  '\u180e',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2060',
  '\u2061',
  '\u2062',
  '\u2063',
  '\u2064',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u206a',
  '\u206f',
  '\ufeff',
  '\ufff9',
  '\ufffb',
];
const escape = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

describe('printable: text for a terminal', () => {
  it.each(INVISIBLE.map((ch) => [escape(ch), ch]))('shows %s as an escape', (escaped, ch) => {
    expect(printable(`a${ch}b`)).toBe(`a${escaped}b`);
  });

  it('still escapes C0 and C1 controls, and leaves other text alone', () => {
    expect(printable('a\u001b[2J\u009b\u0085\n')).toBe('a\\u001b[2J\\u009b\\u0085\\n');
    const plain = 'Ficus lyrata 植物 🌱 e\u0301 ü \u00a0 \u3000 \u2764\ufe0f \u{1f3f4}\u{e0067}';
    expect(printable(plain)).toBe(plain);
  });

  it('escapes the zero-width joiner of an emoji sequence too, at the cost of its look', () => {
    expect(printable('\u{1f469}\u200d\u{1f33e}')).toBe('\u{1f469}\\u200d\u{1f33e}');
  });

  it('quotes text as a JSON string, with everything a terminal would act on escaped', () => {
    expect(quoted('a"b\\c\u202e\u009b\n')).toBe('"a\\"b\\\\c\\u202e\\u009b\\n"');
    expect(JSON.parse(quoted('x\u202ey\u2066'))).toBe('x\u202ey\u2066');
  });
});

describe('singleLine: piped TSV keeps the data but not what breaks a line', () => {
  it('escapes controls and the Unicode line and paragraph separators', () => {
    expect(singleLine('a\tb\u2028c\u2029d\u0085e\u001b')).toBe('a\\tb\\u2028c\\u2029d\\u0085e\\u001b');
  });

  it('keeps bidi and zero-width characters exact', () => {
    expect(singleLine('a\u202eb\u200bc\u2066d\ufeff')).toBe('a\u202eb\u200bc\u2066d\ufeff');
  });
});

describe('escapeForTerminal: JSON for a terminal', () => {
  it('escapes bidi, zero-width and separator characters, C1 and DEL, as JSON escapes that read back the same', () => {
    const value = { name: `x${INVISIBLE.join('')}\u009b\u007fy` };
    const shown = escapeForTerminal(JSON.stringify(value));
    expect(shown).toBe(`{"name":"x${INVISIBLE.map(escape).join('')}\\u009b\\u007fy"}`);
    expect(JSON.parse(shown)).toEqual(value);
  });

  it('leaves JSON without such characters as it is', () => {
    const json = JSON.stringify({ name: 'Ficus 植物 🌱' });
    expect(escapeForTerminal(json)).toBe(json);
  });
});

describe('wordList: words in a sentence', () => {
  it('joins the last with the word given, the others with commas', () => {
    expect(wordList([], 'and')).toBe('');
    expect(wordList(['json'], 'or')).toBe('json');
    expect(wordList(['json', 'csv'], 'or')).toBe('json or csv');
    expect(wordList(['table', 'tsv', 'csv'], 'and')).toBe('table, tsv and csv');
  });
});
