import type { Duplex } from 'node:stream';

/**
 * A request body sent with a Content-Encoding (-H 'Content-Encoding: gzip')
 * is decompressed by a service before it reads a _method in it: it is
 * decompressed here too, as a stream, to be inspected. Codings are undone
 * last first (`gzip, br` is brotli of gzip); `deflate` is zlib's format,
 * or raw deflate, which some servers also take.
 */

type Decoder = 'gzip' | 'deflate' | 'br' | 'zstd';

const DECODERS: Record<string, Decoder> = {
  gzip: 'gzip',
  'x-gzip': 'gzip',
  deflate: 'deflate',
  br: 'br',
  zstd: 'zstd',
};

/**
 * The codings of a Content-Encoding to undo, in the order they are undone
 * ([] for none or identity); undefined when one is not known here (the
 * body cannot be read).
 */
export function contentCodings(header: string | undefined): Decoder[] | undefined {
  const codings = (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.some((coding) => DECODERS[coding] === undefined)) return undefined;
  return codings.map((coding) => DECODERS[coding]!).reverse();
}

/** The body decompressed, as it is read; `rawDeflate`: `deflate` as raw deflate. Throws when it cannot be decompressed. */
export async function* decoded(
  chunks: () => AsyncIterable<Buffer>,
  codings: readonly Decoder[],
  rawDeflate = false,
): AsyncGenerator<Buffer> {
  const { pipeline, Readable } = process.getBuiltinModule('node:stream');
  const zlib = process.getBuiltinModule('node:zlib');
  const stage = (coding: Decoder): Duplex => {
    if (coding === 'gzip') return zlib.createGunzip();
    if (coding === 'br') return zlib.createBrotliDecompress();
    if (coding === 'zstd') return zlib.createZstdDecompress();
    return rawDeflate ? zlib.createInflateRaw() : zlib.createInflate();
  };
  // A failing stage destroys every stream with its error, the last one read here too (the callback only keeps it handled).
  const last = pipeline([Readable.from(chunks()), ...codings.map(stage)], () => {}) as unknown as AsyncIterable<Buffer>;
  yield* last;
}
