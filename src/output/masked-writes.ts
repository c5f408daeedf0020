import type { Writable } from 'node:stream';
import { maskSecrets } from '../secrets/registry.js';

/** Each stream whose writes are masked, and its own write: for data masked where it was read (writeOut). */
const ownWrites = new WeakMap<Writable, Writable['write']>();

/**
 * `stream`, each text written to it first masked (maskSecrets): the last
 * line of defence, whoever writes (a command, readline's prompt, a message).
 * A write is masked on its own: a message is written whole, in one write. A
 * token cut between two writes is not found here, so what is written in
 * pieces is masked before it is cut: plants' fields as they are read
 * (api/plant-stream.ts), plants api's body across chunks (masked-body.ts).
 * Bytes pass as they are: only those two write any (already masked), and
 * decoding them here would cost a large list's output its speed.
 */
export function maskedWrites(stream: Writable): Writable {
  if (ownWrites.has(stream)) return stream;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  ownWrites.set(stream, write as Writable['write']);
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(typeof chunk === 'string' ? maskSecrets(chunk) : chunk, ...rest)) as Writable['write'];
  return stream;
}

/** `stream`'s own write, unmasked: for text whose every secret was masked where it was read (writeOut's `masked`). */
export function unmaskedWrite(stream: Writable): Writable['write'] {
  return ownWrites.get(stream) ?? stream.write.bind(stream);
}
