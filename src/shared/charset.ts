/**
 * A body's bytes as text, for a person to read and for the token to be found
 * in (a UTF-16 body read as UTF-8 shows the token with a NUL between its
 * letters). Which encoding: the byte order mark first (it overrides a
 * declared charset, as browsers read it); then the charset the Content-Type
 * declares; then, none declared, the NULs that ASCII leaves in UTF-16 or
 * UTF-32 (RFC 4627's detection); then UTF-8.
 *
 * `legacy` honours a declared charset that is no Unicode encoding
 * (ISO-8859-1, windows-1252, Shift_JIS: as TextDecoder knows them), right
 * for an error page; without it such a body reads as UTF-8, as JSON is
 * (RFC 8259), and a mislabelled list's names keep their letters.
 */

/** The encodings other than TextDecoder's: UTF-32 (which the Encoding Standard leaves out). */
const UTF32 = new Set(['utf-32le', 'utf-32be']);

/** A declared UTF-16 or UTF-32 without an order: its order comes from the bytes. */
const UNMARKED: Record<string, 'utf-16' | 'utf-32'> = {
  'utf-16': 'utf-16',
  'ucs-2': 'utf-16',
  unicode: 'utf-16',
  csunicode: 'utf-16',
  'iso-10646-ucs-2': 'utf-16',
  'utf-32': 'utf-32',
  'ucs-4': 'utf-32',
  'iso-10646-ucs-4': 'utf-32',
};

/** Labels of an ordered UTF-16 or UTF-32, and of UTF-8. */
const ORDERED: Record<string, string> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
  // ASCII is UTF-8 as far as it goes; a byte past it is far likelier UTF-8 mislabelled than windows-1252.
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  unicodefffe: 'utf-16be',
  'utf-32le': 'utf-32le',
  'utf-32be': 'utf-32be',
};

/** The charset a Content-Type declares, in lower case, or undefined. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const charset = (match?.[1] ?? match?.[2] ?? '').trim().toLowerCase();
  return charset === '' ? undefined : charset;
}

/**
 * The encoding of a body that starts with `start` (its first 4 bytes are
 * enough): `utf-8`, `utf-16le`, `utf-16be`, `utf-32le`, `utf-32be`, or with
 * `legacy` the name TextDecoder gives a declared charset.
 */
export function bodyEncoding(start: Uint8Array, contentType: string | undefined, legacy = false): string {
  const [a, b, c, d] = start;
  if (a === 0xef && b === 0xbb && start[2] === 0xbf) return 'utf-8';
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'utf-32be';
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return 'utf-32le';
  if (a === 0xfe && b === 0xff) return 'utf-16be';
  if (a === 0xff && b === 0xfe) return 'utf-16le';
  const declared = declaredCharset(contentType);
  if (declared !== undefined && ORDERED[declared]) return ORDERED[declared];
  const unmarked = declared === undefined ? undefined : UNMARKED[declared];
  if (declared === undefined || unmarked) {
    // ASCII in UTF-16 or UTF-32 has NULs where its order puts the high bytes.
    if (a === 0 && b === 0 && c === 0 && d !== 0 && d !== undefined && unmarked !== 'utf-16') return 'utf-32be';
    if (a !== 0 && a !== undefined && b === 0 && c === 0 && d === 0 && unmarked !== 'utf-16') return 'utf-32le';
    if (a === 0 && b !== 0 && b !== undefined && (unmarked || (c === 0 && d !== 0 && d !== undefined))) {
      return unmarked === 'utf-32' ? 'utf-32be' : 'utf-16be';
    }
    if (a !== 0 && a !== undefined && b === 0 && (unmarked || (c !== 0 && c !== undefined && d === 0))) {
      return unmarked === 'utf-32' ? 'utf-32le' : 'utf-16le';
    }
    // No order to be seen: little-endian, as the Encoding Standard reads `utf-16`.
    if (unmarked) return `${unmarked}le`;
    return 'utf-8';
  }
  if (!legacy) return 'utf-8';
  try {
    const { encoding } = new TextDecoder(declared);
    // `replacement` (ISO-2022-KR and the like) would show one U+FFFD for the whole body.
    return encoding === 'replacement' ? 'utf-8' : encoding;
  } catch {
    return 'utf-8';
  }
}

/** A decoder that takes the body in pieces; a BOM at its start is left out. */
export interface BodyDecoder {
  readonly encoding: string;
  write(bytes: Uint8Array): string;
  end(): string;
}

export function bodyDecoder(encoding: string): BodyDecoder {
  if (UTF32.has(encoding)) return new Utf32Decoder(encoding === 'utf-32be');
  const decoder = new TextDecoder(encoding);
  return {
    encoding,
    write: (bytes) => decoder.decode(bytes, { stream: true }),
    end: () => decoder.decode(),
  };
}

/** A whole body (or its start) as text: see above. */
export function bodyText(bytes: Uint8Array, contentType: string | undefined, legacy = false): string {
  const decoder = bodyDecoder(bodyEncoding(bytes.subarray(0, 4), contentType, legacy));
  return decoder.write(bytes) + decoder.end();
}

/**
 * A body as UTF-8, as it arrives: passed on untouched when it is UTF-8 (no
 * cost for the usual list), else decoded (UTF-16, UTF-32: see bodyEncoding,
 * without `legacy`) and encoded again. Its first 4 bytes are waited for,
 * to see its byte order mark.
 */
export async function* asUtf8(body: AsyncIterable<Buffer>, contentType: string | undefined): AsyncGenerator<Buffer> {
  const pieces = body[Symbol.asyncIterator]();
  const rest = { [Symbol.asyncIterator]: () => pieces };
  try {
    const start: Buffer[] = [];
    let length = 0;
    while (length < 4) {
      const next = await pieces.next();
      if (next.done) break;
      start.push(next.value);
      length += next.value.length;
    }
    const head = Buffer.concat(start);
    const decoder = bodyDecoder(bodyEncoding(head, contentType));
    if (decoder.encoding === 'utf-8') {
      if (head.length > 0) yield head;
      yield* rest;
      return;
    }
    const first = decoder.write(head);
    if (first !== '') yield Buffer.from(first);
    for await (const chunk of rest) {
      const text = decoder.write(chunk);
      if (text !== '') yield Buffer.from(text);
    }
    const last = decoder.end();
    if (last !== '') yield Buffer.from(last);
  } finally {
    // Stopped early (or failed) between pieces: the body is closed, as a loop over it would.
    await pieces.return?.();
  }
}

/** UTF-32 in either order; a unit that is no code point (a surrogate, past U+10FFFF, cut short) reads as U+FFFD. */
class Utf32Decoder implements BodyDecoder {
  readonly encoding: string;
  readonly #bigEndian: boolean;
  #carry = Buffer.alloc(0);
  #started = false;

  constructor(bigEndian: boolean) {
    this.#bigEndian = bigEndian;
    this.encoding = bigEndian ? 'utf-32be' : 'utf-32le';
  }

  write(bytes: Uint8Array): string {
    const all = this.#carry.length === 0 ? Buffer.from(bytes) : Buffer.concat([this.#carry, bytes]);
    const whole = all.length - (all.length % 4);
    this.#carry = Buffer.from(all.subarray(whole));
    const points: number[] = [];
    let text = '';
    for (let at = 0; at < whole; at += 4) {
      const point = this.#bigEndian ? all.readUInt32BE(at) : all.readUInt32LE(at);
      const first = !this.#started;
      this.#started = true;
      if (first && point === 0xfeff) continue;
      points.push(point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff) ? 0xfffd : point);
      if (points.length === 4096) text += String.fromCodePoint(...points.splice(0));
    }
    return text + String.fromCodePoint(...points);
  }

  end(): string {
    const cut = this.#carry.length > 0;
    this.#carry = Buffer.alloc(0);
    return cut ? '\ufffd' : '';
  }
}
