import { afterEach, describe, expect, it } from 'vitest';
import { bodyEncoding, MaskedBody } from '../../src/output/masked-body.js';
import { terminalText, TerminalTextStream } from '../../src/output/response.js';
import { MaskedStream } from '../../src/secrets/masked-stream.js';
import { redactToken } from '../../src/secrets/redact.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';

afterEach(forgetSecrets);

/** A token with the characters every encoding changes: `+`, `/` and `=`. */
const TOKEN = 'TOP+SECRET/abc=def==';
const redact = (text: string) => redactToken(text, TOKEN);

/** A deterministic sequence of piece sizes (a linear congruential generator), from 1 to `most`. */
function sizes(seed: number, most: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return 1 + (state % most);
  };
}

/** `text` cut into pieces of the given sizes. */
function pieces(text: string, next: () => number): string[] {
  const cut: string[] = [];
  for (let at = 0; at < text.length;) {
    const size = next();
    cut.push(text.slice(at, at + size));
    at += size;
  }
  return cut;
}

// The stream's sizes (masked-stream.ts): a cut at the held text's length less KEEP once WINDOW + KEEP is held,
// stepped back CUT_STEP at a time while a masked span crosses it.
const KEEP = 64 * 1024;
const WINDOW = 1024 * 1024;
const CUT_STEP = 4099;

/**
 * `redact`, one run of text between dots at a time: a dot is in no form of the token and ends every encoding
 * (checked below), so this masks as `redact` masks the whole text, without decoding a mebibyte of dots at
 * every cut tried (the instrumented decoder of a mutation run takes about a second a mebibyte).
 */
const redactRuns = (text: string) =>
  text
    .split(/(\.+)/)
    .map((part, i) => (i % 2 === 1 ? part : redact(part)))
    .join('');

/** `text` with `form` written over it at `at`. */
const put = (text: string, at: number, form: string) => text.slice(0, at) + form + text.slice(at + form.length);

const FORMS = [
  ['as it is', TOKEN],
  ['percent-encoded', encodeURIComponent(TOKEN)],
  ['after Bearer, in base64', Buffer.from(`Bearer ${TOKEN}`).toString('base64')],
  ['spaced out', [...TOKEN].join(' ')],
  ['as JSON escapes', [...TOKEN].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  // The last character as it is: a reference's `;` is optional, and a cut just before the last one lets it out
  // after the `***` (no part of the token, but not as the whole text is masked).
  ['as HTML references', `${[...TOKEN.slice(0, -1)].map((ch) => `&#${ch.charCodeAt(0)};`).join('')}=`],
] as const;

describe('MaskedStream', () => {
  it.each(FORMS)('masks the token %s, run by run between dots, as redactToken masks it whole', (_, form) => {
    const text = `..${form}.&amp.${form.slice(0, 5)}..${form}${form}.${form.slice(3)}.%2${form}.`;
    expect(redactRuns(text)).toBe(redact(text));
    expect(redactRuns(text)).not.toContain(form);
  });

  it.each(FORMS)(
    'masks the token %s cut at each of its characters by the first cut, the end of what is held, and the cut after the carry-over',
    (_, form) => {
      const n = form.length;
      // One text, dots but for the token at A, B and D. The piece that fills the window overshoots it by e,
      // so the first cut, at WINDOW + e, crosses the token at A at each of its characters as e goes, and the
      // end of what is then held crosses the one at B. What is left after the cut is carried over and held
      // with what follows; the piece before the last ends at `size - e % n`, so the second cut, that length
      // less KEEP, crosses the token at D at each of its characters.
      const a = WINDOW + 8;
      const b = WINDOW + KEEP + 8;
      const size = 2 * WINDOW + KEEP + 2 * n + 64;
      const d = size - KEEP - n;
      let text = '.'.repeat(size);
      for (const at of [a, b, d]) text = put(text, at, form);
      const expected = redactRuns(text);
      expect(expected.split('***')).toHaveLength(4);
      /** `expected` up to where `cut` falls in the text, a cut that crosses no token. */
      const maskedUpTo = (cut: number) =>
        expected.slice(0, cut - (n - 3) * [a, b, d].filter((at) => at + n <= cut).length);
      // The e that cut the token at A (and so the end of what is held, the one at B) at each of its first 14
      // characters and its last 6, and just after it: every character of a short form, and of a long one, its
      // escapes (each alike) cut at each of their characters.
      const overshoots = Array.from({ length: n + 10 }, (_, e) => e).filter((e) => e <= 14 || e >= n - 6);
      for (const e of overshoots) {
        const stream = new MaskedStream(redactRuns);
        const filled = WINDOW + KEEP + e;
        const first = stream.push(text.slice(0, filled));
        // Let out up to the cut, or a step before it when the token at A crosses it.
        const cut = e > 8 && e < 8 + n ? WINDOW + e - CUT_STEP : WINDOW + e;
        expect(first, `e ${e}`).toBe(maskedUpTo(cut));
        const shown = [first];
        // The rest of the token at B in pieces of 1 to 17 characters, then up to `size - e % n`, then the end.
        const next = sizes(e + 1, 17);
        let at = filled;
        while (at < b + n + 8) {
          const piece = text.slice(at, Math.min(at + next(), b + n + 8));
          shown.push(stream.push(piece));
          at += piece.length;
        }
        const last = size - (e % n);
        const second = stream.push(text.slice(at, last));
        // The second cut, at `last - KEEP` or a step before it when the token at D crosses it, let out
        // all before it.
        const cut2 = last - KEEP > d && last - KEEP < d + n ? last - KEEP - CUT_STEP : last - KEEP;
        expect(shown.join('') + second, `e ${e}`).toBe(maskedUpTo(cut2));
        shown.push(second, stream.push(text.slice(last)), stream.end());
        expect(shown.join(''), `e ${e}`).toBe(expected);
      }
    },
  );

  it('holds a bounded amount: text is let out before its end', () => {
    const stream = new MaskedStream(redact);
    let out = 0;
    for (let i = 0; i < 40; i += 1) out += stream.push('x'.repeat(256 * 1024)).length;
    expect(out).toBeGreaterThan(40 * 256 * 1024 - 2 * WINDOW);
    expect(out + stream.end().length).toBe(40 * 256 * 1024);
  });

  it('lets out text dense with tokens, every one masked', () => {
    // Back-to-back tokens where the eight cuts are tried (each at 1 to 19 characters into a token: all
    // crossed), dots elsewhere.
    const band = `${TOKEN} `.repeat(Math.ceil((8 * CUT_STEP + 130) / 21));
    const text = put('.'.repeat(2 * WINDOW), WINDOW - 8 * CUT_STEP - 65, band);
    const stream = new MaskedStream(redactRuns);
    // Every cut crossed: all held.
    expect(stream.push(text.slice(0, WINDOW + KEEP))).toBe('');
    const shown = pieces(text.slice(WINDOW + KEEP), sizes(4, 100_000)).map((piece) => stream.push(piece));
    // Let out before the end: the first cut that is not crossed, past the band.
    expect(shown.join('').length).toBeGreaterThan(WINDOW - 8 * CUT_STEP);
    shown.push(stream.end());
    expect(shown.join('')).toBe(redactRuns(text));
    expect(shown.join('')).not.toContain('TOP+');
    expect(shown.join('').split('***')).toHaveLength(band.length / 21 + 1);
  });
});

describe('bodyEncoding', () => {
  const bytes = (...values: number[]) => Uint8Array.from(values);
  it.each<[string | undefined, Uint8Array, string]>([
    ['application/json', bytes(0xff, 0xfe, 0x7b, 0), 'utf16le'],
    ['text/plain; charset=utf-8', bytes(0xfe, 0xff, 0, 0x7b), 'utf16be'],
    ['text/plain; charset=UTF-16LE', bytes(0x61, 0x62, 0x63, 0x64), 'utf16le'],
    ['text/plain; charset="utf-16be"', bytes(0x61, 0x62, 0x63, 0x64), 'utf16be'],
    ['text/plain; charset=utf-16', bytes(0x61, 0x62, 0x63, 0x64), 'utf16le'],
    ['text/plain; charset=utf-16', bytes(0, 0x61, 0, 0x62), 'utf16be'],
    ['application/json', bytes(0x7b, 0, 0x22, 0), 'utf16le'],
    [undefined, bytes(0, 0x7b, 0, 0x22), 'utf16be'],
    ['application/json', bytes(0x7b, 0x22, 0x61, 0x22), 'utf8'],
    ['application/json', bytes(0x7b), 'utf8'],
    ['application/octet-stream', bytes(0, 0, 0, 0), 'utf8'],
  ])('%s, %j: %s', (type, start, encoding) => {
    expect(bodyEncoding(type, start)).toBe(encoding);
  });
});

describe('MaskedBody', () => {
  const through = (body: Buffer, type: string, out: 'bytes' | 'text', most: number) => {
    registerSecret(TOKEN);
    const masked = new MaskedBody(type, out);
    const next = sizes(7, most);
    const parts: (Buffer | string)[] = [];
    for (let at = 0; at < body.length;) {
      const size = next();
      parts.push(masked.push(body.subarray(at, at + size)));
      at += size;
    }
    parts.push(masked.end());
    return out === 'bytes' ? Buffer.concat(parts as Buffer[]) : parts.join('');
  };

  it('passes bytes on as received, but for the token, whatever they are', () => {
    const body = Buffer.concat([Buffer.from([0xc3, 0x28, 0xff, 0x00, 0x80]), Buffer.from(` ${TOKEN} é\n`)]);
    for (const most of [1, 2, 5, 100]) {
      expect(through(body, 'text/plain', 'bytes', most)).toEqual(
        Buffer.concat([Buffer.from([0xc3, 0x28, 0xff, 0x00, 0x80]), Buffer.from(' *** é\n')]),
      );
    }
  });

  it('reads UTF-8 as UTF-8 in a pipe: a token split by invisible characters is masked, every other byte kept', () => {
    const split = [...TOKEN].join('\u200b').replace('S', '\u00a0S').replace('c', '\u00adc');
    const bad = Buffer.from([0xe2, 0x80, 0x41, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0xc0, 0xff]);
    const body = Buffer.concat([Buffer.from(`🌿 ${split} é`), bad, Buffer.from(' 植 '), Buffer.from([0xe2, 0x80])]);
    const expected = Buffer.concat([Buffer.from('🌿 *** é'), bad, Buffer.from(' 植 '), Buffer.from([0xe2, 0x80])]);
    // Pieces of one byte and more: a sequence cut between two.
    for (const most of [1, 2, 3, 5, 100]) expect(through(body, 'application/json', 'bytes', most)).toEqual(expected);
  });

  it('masks UTF-16 in its encoding, every other code unit kept (a lone surrogate, an odd last byte)', () => {
    const text = `\uFEFF{"a":"\uD800 ${TOKEN} 🌿"}`;
    for (const swap of [false, true]) {
      const encode = (value: string) => (swap ? Buffer.from(value, 'utf16le').swap16() : Buffer.from(value, 'utf16le'));
      const body = Buffer.concat([encode(text), Buffer.from([0x41])]);
      const expected = Buffer.concat([encode(text.replace(TOKEN, '***')), Buffer.from([0x41])]);
      for (const most of [1, 3, 64]) expect(through(body, 'application/json', 'bytes', most)).toEqual(expected);
    }
  });

  it('masks a token sent as ASCII in a body declared UTF-16, or after its byte order mark, in a pipe', () => {
    // A service echoing the Authorization header under a wrong charset: read as UTF-16, the token is no text.
    const ascii = Buffer.from(`your token: Bearer ${TOKEN}\n`);
    for (const most of [1, 2, 3, 64]) {
      expect(through(ascii, 'text/plain; charset=utf-16le', 'bytes', most)).toEqual(
        Buffer.from('your token: Bearer ***\n'),
      );
      expect(through(ascii, 'text/plain; charset=utf-16be', 'bytes', most)).toEqual(
        Buffer.from('your token: Bearer ***\n'),
      );
    }
    const afterMark = Buffer.concat([Buffer.from([0xff, 0xfe, 0x41]), Buffer.from(TOKEN), Buffer.from([0xc3])]);
    for (const most of [1, 5, 100]) {
      expect(through(afterMark, 'text/plain', 'bytes', most)).toEqual(
        Buffer.concat([Buffer.from([0xff, 0xfe, 0x41]), Buffer.from('***'), Buffer.from([0xc3])]),
      );
    }
  });

  it('gives a terminal the text: UTF-8 decoded across chunks, UTF-16 without its byte order mark', () => {
    const utf8 = Buffer.from(`🌿 ${TOKEN} é`);
    expect(through(utf8, 'text/plain', 'text', 1)).toBe('🌿 *** é');
    const utf16 = Buffer.from(`\uFEFF🌿 ${TOKEN} é`, 'utf16le');
    expect(through(utf16, 'text/plain', 'text', 3)).toBe('🌿 *** é');
  });
});

describe('TerminalTextStream', () => {
  it.each(['', 'a', 'a\n', 'line\r\nnext\r', '\r', 'tab\there\u001b[31m\r\n', 'x\r\r\n\n'])(
    'shows %j in pieces as terminalText shows it whole',
    (text) => {
      for (const most of [1, 2, 5]) {
        const stream = new TerminalTextStream();
        const shown = pieces(text, sizes(9, most)).map((piece) => stream.push(piece));
        expect(shown.join('') + stream.end()).toBe(terminalText(text));
      }
    },
  );
});
