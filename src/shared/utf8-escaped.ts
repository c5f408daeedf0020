import { firstInvalidByte, incompleteTail } from './utf8.js';

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

/** A lone surrogate standing for a byte: not the second half of a pair. */
const ESCAPED_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g;

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
  let text = '';
  let rest = bytes;
  while (rest.length > 0) {
    const bad = firstInvalidByte(rest);
    text += rest.toString('utf8', 0, bad);
    if (bad < rest.length) text += escaped(rest.subarray(bad, bad + 1));
    rest = rest.subarray(bad + 1);
  }
  return text;
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
  const parts: Buffer[] = [];
  let copied = 0;
  for (const match of text.matchAll(ESCAPED_BYTE)) {
    parts.push(Buffer.from(text.slice(copied, match.index), 'utf8'), Buffer.of(match[0].charCodeAt(0) - 0xdc00));
    copied = match.index + 1;
  }
  parts.push(Buffer.from(text.slice(copied), 'utf8'));
  return Buffer.concat(parts);
}
