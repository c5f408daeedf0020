import type { Readable } from 'node:stream';

/**
 * A stream's chunks, one call at a time: the next chunk, or null once the
 * stream has ended; it throws the error the stream failed with, or a
 * premature close (`ERR_STREAM_PREMATURE_CLOSE`) when it was destroyed
 * before its end without one. This is what node's own async iterator of a
 * Readable does (read() on each 'readable', nothing read once destroyed),
 * without its end-of-stream machinery, whose first use in a process takes
 * half a millisecond: a list reads one body, often of one chunk.
 * test/unit/body-chunks.test.ts compares the two on any course of events.
 */
export function bodyChunks(stream: Readable): () => Promise<Buffer | null> {
  /** Undefined while the stream goes on; null once it has ended; else the error it ended with. */
  let outcome: Error | null | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const settle = (value: Error | null) => {
    // The first word stands: an error after the end (or a second error) changes nothing.
    if (outcome === undefined) outcome = value;
    poke();
  };
  // As node's end-of-stream judges a stream's end: 'end' emitted, or the end pushed and nothing left to read
  // (whether it was pushed, `_readableState.ended`, has no public name).
  const finished = () =>
    stream.readableEnded ||
    ((stream as { _readableState?: { ended?: boolean } })._readableState?.ended === true &&
      stream.readableLength === 0);
  if (stream.errored) outcome = stream.errored;
  else if (finished()) outcome = null;
  // Destroyed but not yet closed: its 'error' or 'close' settles it, as node's end-of-stream waits for them.
  else if (stream.closed) outcome = prematureClose();
  stream.on('readable', poke);
  stream.on('end', () => settle(null));
  stream.on('error', (err: Error) => settle(err));
  stream.on('close', () => settle(stream.errored ?? (finished() ? null : prematureClose())));
  return async () => {
    for (;;) {
      const chunk = stream.destroyed ? null : (stream.read() as Buffer | null);
      if (chunk !== null) return chunk;
      if (outcome !== undefined) {
        if (outcome === null) return null;
        throw outcome;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
}

/** As node's streams say that a stream closed before its end. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}
