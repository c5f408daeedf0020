import { describe, expect, it } from 'vitest';
import { Utf8EscapedDecoder, Utf8EscapedEncoder } from '../../src/shared/utf8-escaped.js';

/** Deterministic bytes (a linear congruential generator), mostly UTF-8 edges: leads, continuations, ASCII. */
function bytesOf(seed: number, length: number): Buffer {
  const pool = [
    0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff,
  ];
  let state = seed;
  return Buffer.from(
    Array.from({ length }, () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state % 3 === 0 ? state % 256 : pool[state % pool.length]!;
    }),
  );
}

/** Through a decoder and an encoder, in pieces of `size` bytes. */
function roundTrip(bytes: Buffer, size: number): { text: string; out: Buffer } {
  const decoder = new Utf8EscapedDecoder();
  const encoder = new Utf8EscapedEncoder();
  const parts: Buffer[] = [];
  let text = '';
  for (let at = 0; at < bytes.length; at += size) {
    const piece = decoder.write(bytes.subarray(at, at + size));
    text += piece;
    parts.push(encoder.write(piece));
  }
  const last = decoder.end();
  text += last;
  parts.push(encoder.write(last), encoder.end());
  return { text, out: Buffer.concat(parts) };
}

describe('Utf8EscapedDecoder and Utf8EscapedEncoder', () => {
  it('give back every byte, whatever the bytes and wherever they are cut', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const bytes = bytesOf(seed, 4000);
      for (const size of [1, 2, 3, 7, 4000]) expect(roundTrip(bytes, size).out.equals(bytes)).toBe(true);
    }
  });

  it('read valid UTF-8 as UTF-8, a sequence cut between pieces too', () => {
    const text = 'a é 植 🌿 \u200b\u00a0\u{e0020} z';
    for (const size of [1, 2, 3, 100]) expect(roundTrip(Buffer.from(text), size).text).toBe(text);
  });

  it('read each byte of what is not UTF-8 as a lone surrogate, the valid text around it as text', () => {
    const bytes = Buffer.concat([Buffer.from('é'), Buffer.from([0xed, 0xa0, 0x80, 0xe2, 0x80]), Buffer.from('\u200b')]);
    expect(roundTrip(bytes, 2).text).toBe('é\udced\udca0\udc80\udce2\udc80\u200b');
  });
});
