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

const MiB = 1024 * 1024;
/** Text of `size` characters, the token in `forms` at each offset. */
function withTokens(size: number, offsets: readonly number[], form = TOKEN): string {
  let text = 'leaf, stem; '.repeat(Math.ceil(size / 12)).slice(0, size);
  for (const at of offsets) text = text.slice(0, at) + form + text.slice(at + form.length);
  return text;
}
const OFFSETS = [0, 1 * MiB - 7, 1 * MiB + 64 * 1024 - 3, 1 * MiB + 64 * 1024 + 400, 2 * MiB + 5, 3 * MiB - 200];

describe('MaskedStream', () => {
  it.each([
    ['as it is', TOKEN],
    ['percent-encoded', encodeURIComponent(TOKEN)],
    ['after Bearer, in base64', Buffer.from(`Bearer ${TOKEN}`).toString('base64')],
    ['spaced out', [...TOKEN].join(' ')],
    ['as JSON escapes', [...TOKEN].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  ])('masks the token %s wherever the pieces cut it, as a whole text is masked', (_, form) => {
    const text = withTokens(3 * MiB + 100, OFFSETS, form);
    for (const [seed, most] of [
      [1, 70_000],
      [2, 17],
      [3, 1_500_000],
    ] as const) {
      const stream = new MaskedStream(redact);
      const shown = pieces(text, sizes(seed, most)).map((piece) => stream.push(piece));
      shown.push(stream.end());
      const joined = shown.join('');
      expect(joined, `seed ${seed}`).toBe(redact(text));
      expect(joined).not.toContain(form);
    }
  });

  it('holds a bounded amount: text is let out before its end', () => {
    const stream = new MaskedStream(redact);
    let out = 0;
    for (let i = 0; i < 40; i += 1) out += stream.push('x'.repeat(256 * 1024)).length;
    expect(out).toBeGreaterThan(40 * 256 * 1024 - 2 * MiB);
    expect(out + stream.end().length).toBe(40 * 256 * 1024);
  });

  it('lets out text dense with tokens, every one masked', () => {
    const text = `${TOKEN} `.repeat(300_000);
    const stream = new MaskedStream(redact);
    const shown = pieces(text, sizes(4, 100_000)).map((piece) => stream.push(piece));
    shown.push(stream.end());
    expect(shown.join('')).not.toContain(TOKEN);
    expect(shown.join('')).not.toContain('TOP+');
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
