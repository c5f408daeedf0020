/** The input was larger than the caller allows. */
export class TooLargeError extends Error {}

/** The whole input did not arrive within the time allowed. */
export class ReadTimeoutError extends Error {}

/** Read a stream of bytes as UTF-8 text, as readBytes reads it. */
export async function readText(
  stream: Parameters<typeof readBytes>[0],
  limit: number,
  options: { truncate?: boolean } = {},
): Promise<string> {
  return (await readBytes(stream, limit, options)).toString('utf8');
}

/**
 * Read a stream of bytes, at most `limit` bytes. With `truncate`, stop
 * quietly at the limit; otherwise throw TooLargeError. Reading stops as
 * soon as the limit is passed, so memory stays bounded.
 */
export async function readBytes(
  stream: AsyncIterable<Buffer | string> & {
    destroy(err?: Error): unknown;
    on(event: 'error', listener: () => void): unknown;
  },
  limit: number,
  options: { truncate?: boolean } = {},
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const piece of stream) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    size += chunk.length;
    if (size > limit) {
      // Stop reading; the error the destroyed stream may emit is no news.
      stream.on('error', () => {});
      stream.destroy();
      if (!options.truncate) throw new TooLargeError(`larger than ${limit} bytes`);
      chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
