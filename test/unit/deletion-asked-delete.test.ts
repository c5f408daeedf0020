import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteAskedBy, sentBody } from '../../src/deletion/api-request/asked-delete.js';
import { INSPECTED_BYTES } from '../../src/deletion/api-request/request-body.js';
import { UsageError } from '../../src/shared/errors.js';

// Whether a body of another method asks for a DELETE: read whole, scanned when large, refused when it cannot tell.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fileWith(content: string | Buffer): { path: string; size: number } {
  const dir = mkdtempSync(join(tmpdir(), 'plants-asked-'));
  dirs.push(dir);
  const path = join(dir, 'body');
  writeFileSync(path, content);
  return { path, size: Buffer.byteLength(content) };
}

const MiB = 1024 * 1024;
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const REST =
  'for a _method=DELETE, which a service would honour as a DELETE unchecked; send the DELETE itself with -X DELETE, or a body without such a key';
const refusal = (size: number, reason: string) =>
  `refusing a body of ${size} bytes that may name a method parameter (such as _method): ${reason} ${REST}`;
const LARGE = 'it is too large (over 16 MiB) to read';

/** A body of exactly `size` bytes: `text` at `at`, `a` around it. */
function bodyOf(size: number, text: string, at = size - text.length): Buffer {
  const body = Buffer.alloc(size, 'a');
  body.write(text, at, 'latin1');
  return body;
}

async function refused(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return (err as Error).message;
}

describe('deleteAskedBy: a plain body', () => {
  it('reads a body whole up to 16 MiB', () => {
    expect(INSPECTED_BYTES).toBe(16_777_216);
  });

  it('answers with where the request asks, the headers and query read without a body', async () => {
    expect(await deleteAskedBy({ 'x-http-method-override': 'DELETE' }, '/p', undefined)).toBe(
      'its x-http-method-override header',
    );
    expect(await deleteAskedBy({}, '/p?_method=DELETE', undefined)).toBe('_method=DELETE in its query');
    expect(await deleteAskedBy({}, '/p', undefined)).toBeUndefined();
    expect(await deleteAskedBy({ 'content-encoding': 'gzip' }, '/p', undefined)).toBeUndefined();
  });

  it('reads a body up to the inspected size whole, by what it holds', async () => {
    expect(await deleteAskedBy(form, '/p', Buffer.from('a=1&_method=DELETE'))).toBe('_method=DELETE in its form body');
    expect(await deleteAskedBy({ ...form, 'content-encoding': 'identity' }, '/p', Buffer.from('_method=DELETE'))).toBe(
      '_method=DELETE in its form body',
    );
    expect(await deleteAskedBy(form, '/p', Buffer.from('a=1&_method=PUT'))).toBeUndefined();
    // Exactly the inspected size: parsed, so a _method that is no DELETE passes.
    expect(await deleteAskedBy(form, '/p', bodyOf(INSPECTED_BYTES, '&_method=PUT'))).toBeUndefined();
  });

  it('refuses a larger body that may name a method parameter, and lets one that cannot pass', async () => {
    const size = INSPECTED_BYTES + 1;
    expect(await refused(deleteAskedBy(form, '/p', bodyOf(size, '&_method=PUT')))).toBe(refusal(size, LARGE));
    expect(await deleteAskedBy(form, '/p', bodyOf(size, '&payment_method=card'))).toBeUndefined();
  });

  it('scans a large body at its start, across its chunks, and at its end', async () => {
    const size = INSPECTED_BYTES + 1;
    expect(await refused(deleteAskedBy(form, '/p', bodyOf(size, '_method=x', 0)))).toBe(refusal(size, LARGE));
    // `&_met` ends the first MiB, `hod=x` starts the second.
    expect(await refused(deleteAskedBy(form, '/p', bodyOf(size, '&_method=x', MiB - 5)))).toBe(refusal(size, LARGE));
    expect(await refused(deleteAskedBy(form, '/p', bodyOf(size, '&_method')))).toBe(refusal(size, LARGE));
    expect(await deleteAskedBy(form, '/p', bodyOf(size, '&_methodology'))).toBeUndefined();
  });

  it('scans a body in a file, whatever its size', async () => {
    const asked = fileWith('a=1&_method=DELETE');
    expect(await refused(deleteAskedBy(form, '/p', asked))).toBe(refusal(18, LARGE));
    expect(await refused(deleteAskedBy(form, '/p', { ...asked, size: 99 }))).toBe(refusal(99, LARGE));
    expect(await deleteAskedBy(form, '/p', fileWith('a=1&payment_method=card'))).toBeUndefined();
    expect(await deleteAskedBy({ 'x-http-method-override': 'delete' }, '/p', asked)).toBe(
      'its x-http-method-override header',
    );
  });
});

describe('deleteAskedBy: a body with a Content-Encoding', () => {
  const gzip = { ...form, 'content-encoding': 'gzip' };

  it('reads a decompressed body whole up to the inspected size', async () => {
    expect(await deleteAskedBy(gzip, '/p', gzipSync('a=1&_method=DELETE'))).toBe('_method=DELETE in its form body');
    expect(await deleteAskedBy(gzip, '/p', gzipSync(bodyOf(INSPECTED_BYTES, '&_method=PUT')))).toBeUndefined();
    expect(await deleteAskedBy(gzip, '/p', fileWith(gzipSync('_method=DELETE')))).toBe(
      '_method=DELETE in its form body',
    );
  });

  it('scans one that decompresses to more, and refuses it when it may name a method parameter', async () => {
    const body = gzipSync(bodyOf(INSPECTED_BYTES + 1, '&_method=PUT'));
    expect(await refused(deleteAskedBy(gzip, '/p', body))).toBe(refusal(body.length, LARGE));
    expect(await deleteAskedBy(gzip, '/p', gzipSync(bodyOf(INSPECTED_BYTES + 1, '&x_method=PUT')))).toBeUndefined();
  });

  it('refuses a body in a coding it does not know, or that does not decompress, by what its bytes may name', async () => {
    const text = Buffer.from('a=1&_method=DELETE');
    expect(await refused(deleteAskedBy({ 'content-encoding': 'compress' }, '/p', text))).toBe(
      refusal(18, 'its Content-Encoding is not one plants can decompress (gzip, deflate, br, zstd) to read it'),
    );
    expect(await refused(deleteAskedBy({ 'content-encoding': 'gzip' }, '/p', text))).toBe(
      refusal(18, 'it cannot be decompressed as its Content-Encoding says to read it'),
    );
    expect(await refused(deleteAskedBy({ 'content-encoding': 'deflate' }, '/p', text))).toBe(
      refusal(18, 'it cannot be decompressed as its Content-Encoding says to read it'),
    );
    expect(await deleteAskedBy({ 'content-encoding': 'gzip' }, '/p', Buffer.from('payment_method=x'))).toBeUndefined();
    expect(await deleteAskedBy({ 'content-encoding': 'compress' }, '/p', Buffer.from('x=1'))).toBeUndefined();
  });
});

describe('sentBody', () => {
  it('sends a buffer, or nothing, as it is', () => {
    const headers: Record<string, string> = {};
    const body = Buffer.from('x=1');
    expect(sentBody(body, headers)).toBe(body);
    expect(sentBody(undefined, headers)).toBeUndefined();
    expect(headers).toEqual({});
  });

  it('streams a file anew for each attempt, with its Content-Length', async () => {
    const file = fileWith('a'.repeat(300 * 1024));
    const headers: Record<string, string> = { 'content-type': 'text/plain' };
    const open = sentBody(file, headers) as () => Readable;
    expect(headers).toEqual({ 'content-type': 'text/plain', 'content-length': String(300 * 1024) });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const stream = open();
      expect(stream.readableHighWaterMark).toBe(256 * 1024);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      expect(chunks[0]!.length).toBe(256 * 1024);
      expect(Buffer.concat(chunks).toString()).toBe('a'.repeat(300 * 1024));
    }
  });
});
