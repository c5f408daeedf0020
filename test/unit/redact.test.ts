import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactToken } from '../../src/secrets/redact.js';
import { ECHO_FORMS, expectNoFormOf, INVISIBLES } from '../helpers/token-forms.js';

/** A token with the characters every encoding changes: `+`, `/` and `=`. */
const TOKEN = 'TOP+SECRET/abc=def==';
const redact = (text: string) => redactToken(text, TOKEN);
const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const base64url = (text: string | Buffer) => Buffer.from(text).toString('base64url');

describe('redactToken', () => {
  it('masks a long token anywhere, and a short one only after Bearer', () => {
    expect(redactToken('got Bearer abcdefgh12 and abcdefgh12', 'abcdefgh12')).toBe('got Bearer *** and ***');
    expect(redactToken('DELETE http://x/plants/T: Bearer T rejected', 'T')).toBe(
      'DELETE http://x/plants/T: Bearer *** rejected',
    );
  });

  it('masks a token with a quote, backslash or slash as JSON text writes it too', () => {
    // An item that is not a plant is shown as JSON: the token's quote and backslash then come escaped.
    const token = 'ab"c\\d/ef+gh';
    expect(redactToken(`{"x":${JSON.stringify(token)}}`, token)).toBe('{"x":"***"}');
    // Some services (PHP's json_encode) escape the slash as well.
    expect(redactToken('{"x":"ab\\"c\\\\d\\/ef+gh"}', token)).toBe('{"x":"***"}');
    expect(redactToken(`Bearer ${JSON.stringify(token).slice(1, -1)}`, token)).toBe('Bearer ***');
  });

  it.each([
    ['whole, upper-case hex', encodeURIComponent(TOKEN)],
    [
      'whole, lower-case hex',
      encodeURIComponent(TOKEN).toLowerCase().replace('top', 'TOP').replace('secret', 'SECRET'),
    ],
    ['in part, mixed case', 'TOP%2BSECRET%2fabc=def%3d='],
    ['every character', Array.from(TOKEN, (c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
  ])('masks the token percent-encoded: %s', (_name, form) => {
    expect(redact(`GET /cb?t=${form}&x=1 failed`)).toBe('GET /cb?t=***&x=1 failed');
  });

  it.each([
    ['base64', base64(TOKEN)],
    ['base64url', base64url(TOKEN)],
    ['base64 of Bearer <token>', base64(`Bearer ${TOKEN}`)],
    ['base64url of Bearer <token>', base64url(`Bearer ${TOKEN}`)],
  ])('masks the token in %s', (_name, form) => {
    const shown = redact(`echo: ${form}.`);
    expect(shown).toMatch(/^echo: \*\*\*=*\.$/);
  });

  it('masks the hexadecimal of the token, in either case, alone, inside a longer value or wrapped; not of a short one', () => {
    const hex = Buffer.from(TOKEN).toString('hex');
    expect(redact(`token ${hex} refused`)).toBe('token *** refused');
    expect(redact(`token=0x${hex.toUpperCase()}00ff`)).toBe('token=0x***00ff');
    expect(redact(`dump: ${hex.slice(0, 10)}\n      ${hex.slice(10)}`)).toBe('dump: ***');
    // As some dumps write it: upper case here and there, right after a piece of its own start.
    const mixed = `${hex.slice(0, 6).toUpperCase()}${hex.slice(6, 20)}${hex.slice(20).toUpperCase()}`;
    expect(redact(`bytes ${hex.slice(0, 8)}${mixed}.`)).toBe(`bytes ${hex.slice(0, 8)}***.`);
    expect(redact(`line one\nbytes: ${mixed.slice(0, 24)}\n       ${mixed.slice(24)} end`)).toBe(
      'line one\nbytes: *** end',
    );
    // Under 8 characters a token is masked only after Bearer: its hex (10 digits) could be any number.
    expect(redactToken('id 5465737421 ok', 'Test!')).toBe('id 5465737421 ok');
  });

  it('masks base64 of the token inside a longer encoded text, at each alignment: the characters that carry its bits', () => {
    for (const before of ['', 'x', 'xy', 'xyz', 'user:']) {
      for (const encode of [base64, base64url]) {
        const encoded = encode(`${before}${TOKEN};more`);
        // The first character with a bit of the token, and the first after the last one.
        const start = Math.floor((before.length * 8) / 6);
        const end = Math.ceil(((before.length + TOKEN.length) * 8) / 6);
        expect(redact(`cookie=${encoded}`), encoded).toBe(`cookie=${encoded.slice(0, start)}***${encoded.slice(end)}`);
      }
    }
  });

  it('masks base64 wrapped across lines, and base64 percent-encoded in a URL', () => {
    const wrapped = base64(`${'p'.repeat(40)}${TOKEN}`).replace(/.{30}/g, '$&\r\n');
    expect(redact(wrapped)).toContain('***');
    expectNoFormOf(TOKEN, redact(wrapped));
    expect(redact(`/next?state=${encodeURIComponent(base64(`x${TOKEN}`))}`)).toBe('/next?state=e***');
  });

  it.each([
    ['one character', 'TOP\\u002bSECRET/abc=def=='],
    [
      'every character, upper-case hex',
      Array.from(TOKEN, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(''),
    ],
    ['mixed with \\/', 'TOP\\u002BSECRET\\/abc\\u003ddef=\\u003D'],
  ])('masks JSON \\u escapes: %s', (_name, form) => {
    expect(redact(`{"message":"bad token ${form}"}`)).toBe('{"message":"bad token ***"}');
  });

  it.each([
    ['named', 'TOP&plus;SECRET&sol;abc&equals;def&equals;&equals;'],
    ['decimal', 'TOP&#43;SECRET&#47;abc&#61;def&#61;&#61;'],
    ['hexadecimal, either case, leading zeros', 'TOP&#x2B;SECRET&#X2f;abc&#x0003d;def&#0061;&#x3D;'],
    ['every character in decimal', Array.from(TOKEN, (c) => `&#${c.charCodeAt(0)};`).join('')],
  ])('masks HTML character references: %s', (_name, form) => {
    expect(redact(`<p>token ${form} refused</p>`)).toBe('<p>token *** refused</p>');
  });

  it('masks &amp; and &quot; in a token that holds & and "', () => {
    const token = 'k&y"Z12345';
    expect(redactToken('<a href="?t=k&amp;y&quot;Z12345">', token)).toBe('<a href="?t=***">');
    expect(redactToken('t=k&y&#34;Z12345.', token)).toBe('t=***.');
  });

  it('masks the token split by white space, line breaks or JSON line breaks', () => {
    expect(redact('token TOP+SECRET/ab\nc=def== refused')).toBe('token *** refused');
    expect(redact('token TOP+SEC RET/abc=\r\n  def== refused')).toBe('token *** refused');
    expect(redact('{"m":"TOP+SECRET\\n/abc=def=="}')).toBe('{"m":"***"}');
  });

  it.each([
    ['zero-width space', '\u200b'],
    ['zero-width non-joiner and joiner', '\u200c\u200d'],
    ['word joiner', '\u2060'],
    ['soft hyphen', '\u00ad'],
    ['BOM', '\ufeff'],
    ['left-to-right and right-to-left marks', '\u200e\u200f'],
    ['a bidi override and its end', '\u202e\u202c'],
    ['Mongolian vowel separator', '\u180e'],
    ['a tag character', '\u{e0041}'],
    ['a variation selector', '\ufe0f'],
    ['NBSP', '\u00a0'],
    ['en space, thin space, hair space', '\u2002\u2009\u200a'],
    ['narrow NBSP, medium mathematical space, ideographic space', '\u202f\u205f\u3000'],
    ['NUL (UTF-16 read as UTF-8)', '\u0000'],
    ['U+FFFD (a byte that was no UTF-8)', '\ufffd'],
    ['\\u200b in JSON', '\\u200b'],
    ['a tag character as a JSON surrogate pair', '\\udb40\\udc41'],
    ['&#8203;', '&#8203;'],
    ['&shy; and &nbsp;', '&shy;&nbsp;'],
    ['&ZeroWidthSpace;', '&ZeroWidthSpace;'],
    ['%E2%80%8B', '%E2%80%8B'],
    ['%C2%A0', '%C2%A0'],
  ])('masks the token split by %s, the whole span from its first character to its last', (_name, invisible) => {
    expect(redact(`token TOP+${invisible}SECRET/abc=def${invisible}== refused`)).toBe('token *** refused');
    expect(redact(`token ${Array.from(TOKEN).join(invisible)} refused`)).toBe('token *** refused');
    // In the token's other forms too: percent-encoded, base64, hexadecimal.
    const hex = Buffer.from(TOKEN).toString('hex');
    for (const form of [encodeURIComponent(TOKEN), base64(TOKEN), hex]) {
      const split = `${form.slice(0, 6)}${invisible}${form.slice(6, 9)}${invisible}${invisible}${form.slice(9)}`;
      expect(redact(`got ${split}.`), form).toMatch(/^got \*\*\*=*\.$/);
    }
    // Invisible characters around the token are not part of it.
    expect(redact(`a${invisible}${TOKEN}${invisible}b`)).toBe(`a${invisible}***${invisible}b`);
    // A short token, only after Bearer, which may be split too.
    expect(redactToken(`Bea${invisible}rer${invisible}a${invisible}b+c.`, 'ab+c')).toBe(
      `Bea${invisible}rer${invisible}***.`,
    );
  });

  it('masks a token of any length split by white space, characters outside the BMP and regular expression syntax too', () => {
    // A JWT's length, and one long enough that a pattern of its every character would not run.
    for (const length of [1_000, 20_000]) {
      const token = Array.from({ length }, (_, i) => 'aZ0.-_+/'[(i * 7) % 8]).join('');
      const split = `${token.slice(0, 3)} ${token.slice(3, 500)}\n  ${token.slice(500)}`;
      expect(redactToken(`got ${split} back`, token)).toBe('got *** back');
      expect(redactToken(`got ${token.slice(0, -1)} back`, token)).toBe(`got ${token.slice(0, -1)} back`);
    }
    // A token with white space of its own (a hand-edited config file): echoed as it is, or across a line break.
    expect(redactToken(`got ab cd   efgh ijkl back`, 'ab cd efgh ijkl')).toBe('got *** back');
    expect(redactToken(`got ab cd\nefgh ijkl back`, 'ab cd efgh ijkl')).toBe('got *** back');
    for (const token of ['🌱🌿(a)[b]*c?', 'x\\d+.*$^|{2}']) {
      const split = Array.from(token).join(' ');
      expect(redactToken(`got ${split} back`, token)).toBe('got *** back');
    }
  });

  it('masks Bearer and any form of a short token, and leaves a short token alone without Bearer', () => {
    const token = 'ab+c';
    for (const form of [token, 'ab%2Bc', 'ab\\u002bc', 'ab&plus;c', 'a b+c']) {
      expect(redactToken(`sent Bearer ${form}.`, token)).toBe('sent Bearer ***.');
      expect(redactToken(`sent ${form}.`, token)).toBe(`sent ${form}.`);
    }
    expect(redactToken(`sent Bearer%20ab%2Bc.`, token)).toBe('sent Bearer%20***.');
    expect(redactToken(`sent bearer ab+c.`, token)).toBe('sent bearer ***.');
    for (const form of [base64(`Bearer ${token}`), base64url(`Bearer ${token}`), base64(`xBearer ${token}x`)]) {
      expect(redactToken(`sent ${form}.`, token)).not.toContain(form);
    }
    expect(redactToken(`sent ${base64(token)}.`, token)).toBe(`sent ${base64(token)}.`);
  });

  it('leaves text without the token as it is', () => {
    for (const text of ['', 'Bearer ***', 'TOP+SECRET/abc=def=', 'TOP SECRET abc def', base64('TOP+SECRET/abc=def=')]) {
      expect(redact(text)).toBe(text);
    }
  });
});

// What a property draws: a token of visible ASCII, with the characters that encode differently.
const tokens = fc
  .tuple(
    fc.string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 5,
      maxLength: 40,
    }),
    fc.shuffledSubarray(['+', '/', '='], { minLength: 3 }),
  )
  .map(([chars, specials]) => `${chars}${specials.join('')}`);

/** A run of 1 to 3 invisible characters, as they are or encoded. */
const invisibleRuns = fc
  .array(fc.constantFrom(...INVISIBLES), { minLength: 1, maxLength: 3 })
  .map((chars) => chars.join(''));

/** Each character in a form a service may use, chosen per character. */
function encodeChar(char: string, how: number): string {
  const code = char.charCodeAt(0);
  const hex = code.toString(16);
  const named: Record<string, string> = {
    '\\': '&bsol;',
    '+': '&plus;',
    '/': '&sol;',
    '=': '&equals;',
    '&': '&amp;',
    '"': '&quot;',
    '<': '&lt;',
  };
  switch (how % 9) {
    case 0:
      return `%${hex.toUpperCase().padStart(2, '0')}`;
    case 1:
      return `%${hex.padStart(2, '0')}`;
    case 2:
      return `\\u${hex.padStart(4, '0')}`;
    case 3:
      return `\\u${hex.toUpperCase().padStart(4, '0')}`;
    case 4:
      return `&#${code};`;
    case 5:
      return `&#x${hex.toUpperCase()};`;
    case 6:
      return named[char] ?? char;
    default:
      // A bare backslash before an escape would read as that escape; JSON writes it escaped.
      return char === '\\' ? '\\\\' : char;
  }
}

describe('redactToken, properties', () => {
  it('masks the token written with any mix of encodings and splits, in any text, leaving the text around it', () => {
    fc.assert(
      fc.property(
        tokens,
        fc.array(fc.nat(), { minLength: 50, maxLength: 50 }),
        fc.array(fc.oneof(fc.constantFrom('', '', '', ' ', '\n', '\r\n  ', '\\n'), invisibleRuns), {
          minLength: 50,
          maxLength: 50,
        }),
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        (token, hows, splits, before, after) => {
          // The text around holds none of the token's characters: what is masked is the token alone.
          const strip = (text: string) => Array.from(text, (c) => (token.includes(c) ? '' : c)).join('');
          const [head, tail] = [strip(before), strip(after)];
          const form = Array.from(
            token,
            (c, i) => encodeChar(c, hows[i]!) + (i < token.length - 1 ? splits[i]! : ''),
          ).join('');
          expect(redactToken(`${head}${form}${tail}`, token)).toBe(`${head}***${tail}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('masks the token in each form a service echoes it in, any runs of invisible characters between its characters', () => {
    fc.assert(
      fc.property(
        // Without a backslash: one as is before an escaped invisible character (`\` `\u200b`) reads as
        // an escaped backslash (JSON text of `\u200b`), which the token has no way to tell apart.
        tokens.filter((token) => !token.includes('\\')),
        fc.constantFrom(...ECHO_FORMS),
        fc.array(fc.tuple(fc.nat(), invisibleRuns), { minLength: 1, maxLength: 12 }),
        (token, [name, echo], inserts) => {
          // Between the form's characters, an escape (`%2B`, `\u002b`, `&plus;`) counted as one, as is
          // one character's UTF-8 bytes percent-encoded, and a surrogate pair's escapes.
          const units = echo(token).match(
            /%[c-fC-F][\dA-Fa-f](?:%[89abAB][\dA-Fa-f])+|%[\dA-Fa-f]{2}|\\u[dD][89abAB]..\\u[dD][c-fC-F]..|\\u[\dA-Fa-f]{4}|&#?\w+;|[^]/g,
          )!;
          for (const [at, run] of inserts) {
            const i = 1 + (at % (units.length - 1));
            units[i] = `${run}${units[i]!}`;
          }
          const shown = redactToken(`data: ${units.join('')} (end)`, token);
          expect(shown, name).toContain('***');
          expectNoFormOf(token, shown, name);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('masks the token in base64 or base64url inside a longer encoded text, wrapped or percent-encoded', () => {
    fc.assert(
      fc.property(
        tokens,
        fc.uint8Array({ maxLength: 12 }),
        fc.uint8Array({ maxLength: 12 }),
        fc.boolean(),
        fc.constantFrom<'base64' | 'base64url'>('base64', 'base64url'),
        fc.constantFrom(0, 4, 30, 76),
        fc.boolean(),
        (token, before, after, bearer, alphabet, wrapAt, percent) => {
          const bytes = Buffer.concat([before, Buffer.from(`${bearer ? 'Bearer ' : ''}${token}`), after]);
          let encoded = bytes.toString(alphabet);
          if (wrapAt > 0) encoded = encoded.replace(new RegExp(`.{${wrapAt}}`, 'g'), '$&\r\n');
          if (percent) encoded = encodeURIComponent(encoded);
          const shown = redactToken(`data: ${encoded} (end)`, token);
          expect(shown.startsWith('data: ') && shown.endsWith(' (end)')).toBe(true);
          expect(shown).toContain('***');
          expectNoFormOf(token, decodeURIComponent(shown));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves a token with one character changed, dropped or added, split by invisible characters, as it is', () => {
    fc.assert(
      fc.property(
        // Not a token with a backslash: `\/` dropping its `\` is still the token, read as the JSON escape it is.
        tokens.filter((token) => !token.includes('\\')),
        fc.nat(),
        fc.constantFrom('change', 'drop', 'add'),
        fc.array(invisibleRuns, { minLength: 60, maxLength: 60 }),
        (token, at, how, runs) => {
          const i = at % token.length;
          // A character the token does not hold (`~` and `"` are outside what tokens draws: `"` only as itself).
          const other = token.includes('~') ? '\u00e9' : '~';
          const near =
            how === 'change'
              ? `${token.slice(0, i)}${other}${token.slice(i + 1)}`
              : how === 'drop'
                ? `${token.slice(0, i)}${token.slice(i + 1)}`
                : `${token.slice(0, i)}${other}${token.slice(i)}`;
          fc.pre(!near.includes(token));
          // Framed by a character the token does not hold: a word around it (`got`) could end in the token's first character.
          const text = `${other} ${Array.from(near, (c, k) => (k === 0 ? '' : runs[k - 1]!) + c).join('')} ${other}`;
          expect(redactToken(text, token)).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves any text that does not hold the token unchanged', () => {
    const texts = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.base64String({ maxLength: 200 }),
      fc.string({ maxLength: 100 }).map((text) => encodeURIComponent(text)),
      fc.string({ maxLength: 100 }).map((text) => `Bearer ${JSON.stringify(text)}`),
      fc.string({ maxLength: 60 }).map((text) => Array.from(text, (c) => `&#${c.charCodeAt(0)};`).join('')),
      // The token's characters and invisible ones, in any order: the token with gaps is too unlikely to come up.
      fc.string({ unit: fc.constantFrom(...'TOP+SECRET/abc=def', ...INVISIBLES), maxLength: 60 }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(TOKEN, 'canary-7f3a9c1e-token', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a'),
        texts,
        (token, text) => {
          expect(redactToken(text, token)).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });
});
