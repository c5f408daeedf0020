/** How long a last write waits for a reader that has stopped reading. */
const WRITE_NOW_PATIENCE_MS = 10_000;

/**
 * Write all of `text` to a file descriptor synchronously. Node makes pipes
 * non-blocking, and process.stdout queues what a full pipe cannot take; a
 * process that exits right after would lose the queue. Here a full pipe is
 * waited for (up to 10 s); a reader that has gone ends the write.
 * Returns the error a write failed with (a full disk: ENOSPC), for the
 * caller to report; undefined when all was written, when the reader has
 * gone (EPIPE, not an error: `plants --help | head -1`) and when a full
 * pipe's reader did not come back in time.
 */
export function writeToFd(fd: number, text: string): NodeJS.ErrnoException | undefined {
  const { writeSync } = process.getBuiltinModule('node:fs');
  let rest = Buffer.from(text);
  const giveUp = Date.now() + WRITE_NOW_PATIENCE_MS;
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (err) {
      const { code } = err as NodeJS.ErrnoException;
      if (code === 'EPIPE') return undefined;
      if (code !== 'EAGAIN') return err as NodeJS.ErrnoException;
      if (Date.now() > giveUp) return undefined;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
  return undefined;
}
