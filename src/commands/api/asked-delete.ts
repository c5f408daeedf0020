import type { Readable } from 'node:stream';
import type { RequestBody } from '../../api/attempt.js';
import { UsageError } from '../../errors.js';
import { mayNameMethod, METHOD_WORD_OVERLAP } from './method-word.js';
import { deleteOverride } from './override.js';
import { INSPECTED_BYTES, type FileBody } from './request.js';

/**
 * Whether a request of another method asks for a DELETE (override.ts), said
 * as where it asks, or undefined. A body up to INSPECTED_BYTES is parsed as
 * the service might (form, multipart, JSON); a larger one, which cannot be
 * parsed without holding it whole, is scanned for `method` as a parameter's
 * name (method-word.ts), and refused (UsageError) when it may be one: it
 * might ask for a DELETE that could not be checked.
 */
export async function deleteAskedBy(
  headers: Readonly<Record<string, string>>,
  path: string,
  body: Buffer | FileBody | undefined,
): Promise<string | undefined> {
  const inspected = Buffer.isBuffer(body) && body.length <= INSPECTED_BYTES ? body : undefined;
  const asked = deleteOverride(headers, path, inspected);
  if (asked !== undefined || body === undefined || inspected !== undefined) return asked;
  if (await namesMethod(body)) {
    throw new UsageError(
      `refusing a body of ${Buffer.isBuffer(body) ? body.length : body.size} bytes that may name a method parameter (such as _method): it is too large (over ${INSPECTED_BYTES / 1024 / 1024} MiB) to read for a _method=DELETE, which a service would honour as a DELETE unchecked; send the DELETE itself with -X DELETE, or a body without such a key`,
    );
  }
  return undefined;
}

/** Whether a large body may name a method parameter (mayNameMethod), read a chunk at a time, each with the end of the one before. */
async function namesMethod(body: Buffer | FileBody): Promise<boolean> {
  let tail: string | undefined;
  for await (const chunk of chunksOf(body)) {
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
