import { StringDecoder } from 'node:string_decoder';
import { bodyEncoding, SNIFFED, type BodyEncoding } from '../shared/body-encoding.js';
import { MaskedStream } from '../secrets/masked-stream.js';
import { Utf8EscapedDecoder, Utf8EscapedEncoder } from '../shared/utf8-escaped.js';

// Moved to shared/ (deletion/ reads a request body's encoding too); named here as before.
export { bodyEncoding, type BodyEncoding };

/**
 * A response body as `plants api` passes it on, the secrets this run knows
 * masked (maskSecrets), a chunk at a time (memory bounded, whatever the
 * size): in a pipe its bytes as received, in the encoding it came in; on a
 * terminal its text. The stdout writer masks text only: these bytes are
 * masked here, across chunks (a token cut between two would escape it).
 *
 * A body in UTF-16 holds the token as two bytes a character (`t\0o\0…`),
 * which no search of its bytes as text finds: it is read as UTF-16 (its
 * byte order mark; else a declared charset utf-16, utf-16le or utf-16be;
 * else a start of ASCII in UTF-16, `{\0"\0`, as RFC 4627 tells JSON's
 * encoding), masked, and written back in UTF-16, every other code unit as
 * it came (a lone surrogate too). Any other body is read as UTF-8, each
 * byte of what is not valid UTF-8 kept as it is (utf8-escaped.ts): an
 * invisible character between the token's letters (U+200B) is one the
 * masker passes over, as it is in any text, and every byte comes out as it
 * came where nothing is masked.
 */
export class MaskedBody<Out extends 'bytes' | 'text'> {
  readonly #contentType: string | undefined;
  readonly #out: Out;
  readonly #masked: MaskedStream;
  /** Until the encoding is known: the first bytes. */
  #start: Buffer | undefined = Buffer.alloc(0);
  #encoding: BodyEncoding = 'utf8';
  /** UTF-16: a byte of a code unit whose other byte is still to come. */
  #odd: Buffer = Buffer.alloc(0);
  /** Text on a terminal, not UTF-16: UTF-8 decoded across chunks. */
  #utf8: StringDecoder | undefined;
  /** Bytes for a pipe, not UTF-16: UTF-8 decoded across chunks, bytes that are not UTF-8 kept. */
  #bytesIn: Utf8EscapedDecoder | undefined;
  #bytesOut: Utf8EscapedEncoder | undefined;
  /**
   * Bytes for a pipe, UTF-16: what it writes, read again as single bytes
   * and masked. A body declared UTF-16 (or starting with its byte order
   * mark) may hold ASCII all the same, an echoed `Authorization` header
   * among it: read as UTF-16 its token is no text the masker finds, and
   * its bytes would pass as they came.
   */
  #singleBytes: MaskedStream | undefined;

  /** `out`: `bytes` for a pipe (the encoding received), `text` for a terminal. */
  constructor(contentType: string | undefined, out: Out) {
    this.#masked = new MaskedStream();
    this.#contentType = contentType;
    this.#out = out;
  }

  /** The encoding the body is read in (utf8 until its first bytes came). */
  get encoding(): BodyEncoding {
    return this.#encoding;
  }

  /** The next chunk received; returns what can be passed on (often nothing yet). */
  push(chunk: Buffer): Out extends 'bytes' ? Buffer : string {
    let bytes = chunk;
    if (this.#start !== undefined) {
      this.#start = Buffer.concat([this.#start, chunk]);
      if (this.#start.length < SNIFFED) return this.#encoded('');
      bytes = this.#begin();
    }
    return this.#encoded(this.#masked.push(this.#decoded(bytes)));
  }

  /** The body's end: the rest, masked. */
  end(): Out extends 'bytes' ? Buffer : string {
    let text = this.#masked.push(this.#start === undefined ? '' : this.#decoded(this.#begin()));
    const odd = this.#odd;
    this.#odd = Buffer.alloc(0);
    if (this.#out === 'text') text += this.#masked.push((this.#utf8?.end() ?? '') + (odd.length > 0 ? '\ufffd' : ''));
    else text += this.#masked.push(this.#bytesIn?.end() ?? '');
    text += this.#masked.end();
    if (this.#out === 'text') return this.#encoded(text);
    // A last odd byte of UTF-16 is no character: passed on as it came.
    const last = this.#bytesOut?.end() ?? Buffer.alloc(0);
    const bytes = [this.#encoded(text) as Buffer, last, this.#asSingleBytes(odd)];
    if (this.#singleBytes) bytes.push(Buffer.from(this.#singleBytes.end(), 'latin1'));
    return Buffer.concat(bytes) as Out extends 'bytes' ? Buffer : string;
  }

  /** The encoding told from the first bytes, which are returned to be read. */
  #begin(): Buffer {
    const start = this.#start!;
    this.#start = undefined;
    this.#encoding = bodyEncoding(this.#contentType, start);
    if (this.#encoding === 'utf8' && this.#out === 'text') this.#utf8 = new StringDecoder('utf8');
    if (this.#encoding === 'utf8' && this.#out === 'bytes') {
      this.#bytesIn = new Utf8EscapedDecoder();
      this.#bytesOut = new Utf8EscapedEncoder();
    }
    if (this.#encoding !== 'utf8' && this.#out === 'bytes') this.#singleBytes = new MaskedStream();
    // On a terminal the byte order mark says nothing (and would be shown as an escape).
    if (this.#out === 'text' && this.#encoding !== 'utf8' && bomOf(start)) return start.subarray(2);
    return start;
  }

  #decoded(chunk: Buffer): string {
    if (this.#utf8) return this.#utf8.write(chunk);
    if (this.#bytesIn) return this.#bytesIn.write(chunk);
    let bytes = this.#odd.length > 0 ? Buffer.concat([this.#odd, chunk]) : chunk;
    const even = bytes.length - (bytes.length % 2);
    this.#odd = Buffer.from(bytes.subarray(even));
    bytes = bytes.subarray(0, even);
    return (this.#encoding === 'utf16be' ? Buffer.from(bytes).swap16() : bytes).toString('utf16le');
  }

  #encoded(text: string): Out extends 'bytes' ? Buffer : string {
    type Result = Out extends 'bytes' ? Buffer : string;
    if (this.#out === 'text') return text as Result;
    // Before the encoding is known nothing is let out; after, bytesOut is set for UTF-8.
    if (this.#bytesOut) return this.#bytesOut.write(text) as Result;
    if (this.#encoding === 'utf8') return Buffer.from(text, 'utf8') as Result;
    const bytes = Buffer.from(text, 'utf16le');
    return this.#asSingleBytes(this.#encoding === 'utf16be' ? bytes.swap16() : bytes) as Result;
  }

  /** UTF-16 bytes about to be written, masked as single bytes too (#singleBytes); others as they are. */
  #asSingleBytes(bytes: Buffer): Buffer {
    if (this.#singleBytes === undefined) return bytes;
    return Buffer.from(this.#singleBytes.push(bytes.toString('latin1')), 'latin1');
  }
}

function bomOf(start: Buffer): boolean {
  return (start[0] === 0xff && start[1] === 0xfe) || (start[0] === 0xfe && start[1] === 0xff);
}
