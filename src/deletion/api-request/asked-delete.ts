import type { Readable } from 'node:stream';
import type { RequestBody } from '../../http/attempt.js';
import { UsageError } from '../../shared/errors.js';
import { contentCodings, decoded } from './encoded-body.js';
import { mayNameMethod, METHOD_WORD_OVERLAP } from './method-word.js';
import { deleteOverride } from './override.js';
import { INSPECTED_BYTES, type FileBody } from './request-body.js';

/**
 * Whether a request of another method asks for a DELETE (override.ts), said
 * as where it asks, or undefined. A body up to INSPECTED_BYTES is parsed as
 * the service might (form, multipart, JSON); a larger one, which cannot be
 * parsed without holding it whole, is scanned for `method` as a parameter's
 * name (method-word.ts), and refused (UsageError) when it may be one: it
 * might ask for a DELETE that could not be checked. A body with a
 * Content-Encoding is read decompressed (encoded-body.ts); one that cannot
 * be (an unknown coding, corrupt data) is scanned as it is, by the large
 * body's rule; one that decompresses to more than MOST_DECODED is refused.
 */
export async function deleteAskedBy(
  headers: Readonly<Record<string, string>>,
  path: string,
  body: Buffer | FileBody | undefined,
): Promise<string | undefined> {
  const codings = contentCodings(headers['content-encoding']);
  const plain = codings?.length === 0;
  const inspected = plain && Buffer.isBuffer(body) && body.length <= INSPECTED_BYTES ? body : undefined;
  const asked = deleteOverride(headers, path, inspected);
  if (asked !== undefined || body === undefined || inspected !== undefined) return asked;
  const size = Buffer.isBuffer(body) ? body.length : body.size;
  const raw = () => chunksOf(body);
  if (plain || codings === undefined) {
    if (await namesMethod(raw())) throw refusal(size, plain ? 'large' : 'unknown');
    return undefined;
  }
  // A deflate body that is not zlib's format may be raw deflate: read as that too.
  for (const rawDeflate of codings.includes('deflate') ? [false, true] : [false]) {
    try {
      const start = await decodedStart(decoded(raw, codings, rawDeflate));
      if (start !== undefined) return deleteOverride(headers, path, start);
      if (await namesMethod(decoded(raw, codings, rawDeflate), MOST_DECODED)) throw refusal(size, 'large');
      return undefined;
    } catch (err) {
      if (err instanceof UsageError) throw err;
    }
  }
  // It cannot be decompressed: nor, most likely, can the service; its bytes are scanned as they are.
  if (await namesMethod(raw())) throw refusal(size, 'undecoded');
  return undefined;
}

/** Decompressed, a body is read for a _method up to this much; past it, refused (a zip bomb would take long). */
const MOST_DECODED = 1024 * 1024 * 1024;

/** The whole decompressed body, when it is at most INSPECTED_BYTES; else undefined. */
async function decodedStart(chunks: AsyncIterable<Buffer>): Promise<Buffer | undefined> {
  const start: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > INSPECTED_BYTES) return undefined;
    start.push(chunk);
  }
  return Buffer.concat(start);
}

function refusal(size: number, why: 'large' | 'unknown' | 'undecoded'): UsageError {
  const what = `refusing a body of ${size} bytes that may name a method parameter (such as _method)`;
  const reason = {
    large: `it is too large (over ${INSPECTED_BYTES / 1024 / 1024} MiB) to read`,
    unknown: 'its Content-Encoding is not one plants can decompress (gzip, deflate, br, zstd) to read it',
    undecoded: 'it cannot be decompressed as its Content-Encoding says to read it',
  }[why];
  return new UsageError(
    `${what}: ${reason} for a _method=DELETE, which a service would honour as a DELETE unchecked; send the DELETE itself with -X DELETE, or a body without such a key`,
  );
}

/**
 * Whether a large body may name a method parameter (mayNameMethod), read a
 * chunk at a time, each with the end of the one before; past `most` bytes,
 * it may (what was not read is not known).
 */
async function namesMethod(chunks: AsyncIterable<Buffer>, most = Infinity): Promise<boolean> {
  let tail: string | undefined;
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > most) return true;
    const text = (tail ?? '') + chunk.toString('latin1');
    // Its end is only the body's once no chunk follows: tested again below.
    if (mayNameMethod(text, tail === undefined, false)) return true;
    tail = text.slice(-METHOD_WORD_OVERLAP);
  }
  return tail !== undefined && mayNameMethod(tail, false, true);
}

const SCANNED_CHUNK = 1024 * 1024;

async function* chunksOf(body: Buffer | FileBody): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(body)) {
    for (let at = 0; at < body.length; at += SCANNED_CHUNK) yield body.subarray(at, at + SCANNED_CHUNK);
    return;
  }
  yield* openFile(body, SCANNED_CHUNK)() as AsyncIterable<Buffer>;
}

/** A file body's stream, opened on each call (each attempt sends it anew). */
function openFile(body: FileBody, highWaterMark = 256 * 1024): () => Readable {
  const { createReadStream } = process.getBuiltinModule('node:fs');
  return () => createReadStream(body.path, { highWaterMark });
}

/** The body as the client sends it, and the Content-Length a file's needs (undici would send it chunked). */
export function sentBody(
  body: Buffer | FileBody | undefined,
  headers: Record<string, string>,
): RequestBody | undefined {
  if (body === undefined || Buffer.isBuffer(body)) return body;
  headers['content-length'] = String(body.size);
  return openFile(body);
}
