import { incompleteTail, validLength } from './utf8.js';

/**
 * Bytes that are mostly UTF-8 as text and back, every byte kept: a body
 * passed on in a pipe must come out as it came, but its token must be found
 * in its text (a zero-width space, E2 80 8B, read a byte a character, is
 * `â` and two controls, which hide a token that the same text in UTF-8 does
 * not). Each valid UTF-8 sequence is its character; each byte of an
 * invalid one is a lone low surrogate, U+DC80 to U+DCFF (Python's
 * surrogateescape), which no valid UTF-8 decodes to, and is written back as
 * that byte.
 */

const isUtf8 = (bytes: Uint8Array) => process.getBuiltinModule('node:buffer').isUtf8(bytes);

/** Decodes the pieces of a body: a sequence cut between two waits for its rest. */
export class Utf8EscapedDecoder {
  #carry: Buffer = Buffer.alloc(0);

  write(chunk: Buffer): string {
    const input = this.#carry.length > 0 ? Buffer.concat([this.#carry, chunk]) : chunk;
    const cut = incompleteTail(input);
    this.#carry = Buffer.from(input.subarray(cut));
    return decoded(input.subarray(0, cut));
  }

  /** The end: a sequence left unfinished is bytes. */
  end(): string {
    const rest = escaped(this.#carry);
    this.#carry = Buffer.alloc(0);
    return rest;
  }
}

function decoded(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  // A code unit a byte at most (a 4-byte sequence is 2): read a byte at a time, as RFC 3629 allows sequences.
  const units = new Uint16Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    const length = lead < 0x80 ? 1 : validLength(bytes, i);
    if (length === 1) units[n++] = lead;
    else if (length === 0) units[n++] = 0xdc00 + lead;
    else {
      let point = lead & (length === 2 ? 0x1f : length === 3 ? 0x0f : 0x07);
      for (let k = 1; k < length; k += 1) point = (point << 6) | (bytes[i + k]! & 0x3f);
      if (point < 0x10000) units[n++] = point;
      else {
        units[n++] = 0xd800 + ((point - 0x10000) >> 10);
        units[n++] = 0xdc00 + ((point - 0x10000) & 0x3ff);
      }
    }
    i += Math.max(length, 1);
  }
  return Buffer.from(units.buffer, 0, n * 2).toString('utf16le');
}

function escaped(bytes: Uint8Array): string {
  return String.fromCharCode(...Array.from(bytes, (byte) => 0xdc00 + byte));
}

/** Encodes what Utf8EscapedDecoder decoded (masked), in pieces: a surrogate pair cut between two is kept whole. */
export class Utf8EscapedEncoder {
  #high = '';

  write(piece: string): Buffer {
    let text = this.#high + piece;
    this.#high = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#high = text.slice(-1);
      text = text.slice(0, -1);
    }
    return encoded(text);
  }

  end(): Buffer {
    const rest = encoded(this.#high);
    this.#high = '';
    return rest;
  }
}

function encoded(text: string): Buffer {
  if (!/[\uDC80-\uDCFF]/.test(text)) return Buffer.from(text, 'utf8');
  // Written a code unit at a time: a body that is mostly not UTF-8 (binary) has an escape every other byte.
  const bytes = Buffer.allocUnsafe(text.length * 3);
  let at = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit < 0x80) bytes[at++] = unit;
    else if (unit < 0x800) {
      bytes[at++] = 0xc0 | (unit >> 6);
      bytes[at++] = 0x80 | (unit & 0x3f);
    } else if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      const point = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
      bytes[at++] = 0xf0 | (point >> 18);
      bytes[at++] = 0x80 | ((point >> 12) & 0x3f);
      bytes[at++] = 0x80 | ((point >> 6) & 0x3f);
      bytes[at++] = 0x80 | (point & 0x3f);
      i += 1;
    } else if (unit >= 0xdc80 && unit <= 0xdcff) bytes[at++] = unit - 0xdc00;
    else {
      // A lone surrogate that stands for no byte (none is decoded so) is U+FFFD, as Buffer.from writes it.
      const point = unit >= 0xd800 && unit <= 0xdfff ? 0xfffd : unit;
      bytes[at++] = 0xe0 | (point >> 12);
      bytes[at++] = 0x80 | ((point >> 6) & 0x3f);
      bytes[at++] = 0x80 | (point & 0x3f);
    }
  }
  return bytes.subarray(0, at);
}
