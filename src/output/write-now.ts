/** How long a last write waits for a reader that has stopped reading. */
const WRITE_NOW_PATIENCE_MS = 10_000;

/**
 * Write all of `text` to a file descriptor synchronously. Node makes pipes
 * non-blocking, and process.stdout queues what a full pipe cannot take; a
 * process that exits right after would lose the queue. Here a full pipe is
 * waited for (up to 10 s); a reader that has gone ends the write.
 */
export function writeToFd(fd: number, text: string): void {
  const { writeSync } = process.getBuiltinModule('node:fs');
  let rest = Buffer.from(text);
  const giveUp = Date.now() + WRITE_NOW_PATIENCE_MS;
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > giveUp) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}
