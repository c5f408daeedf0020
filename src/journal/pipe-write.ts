import { writeSync } from 'node:fs';
import { errorCode } from '../shared/fs-reason.js';

/**
 * The most a write to a pipe (a --journal-file may be one) may take and
 * still never interleave with another writer's (PIPE_BUF: POSIX's least,
 * Linux's size).
 */
export const PIPE_BUF = 4096;
/**
 * How long a write waits for a pipe's reader to make room. A journal pipe
 * is opened non-blocking: a blocked write would hold the process where no
 * Ctrl-C or SIGTERM reaches it, for ever if its reader has stopped. A
 * reader that takes nothing for this long fails the write, and the run
 * stops as for any journal it cannot write (well within the 5 seconds a
 * signal must take to end it).
 */
const STALL_MS = 2000;
/** A word to wait on between tries: Atomics.wait sleeps without spinning. */
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/**
 * Write whole lines to `fd`: returns how many bytes it took. On a pipe, a
 * write of more than PIPE_BUF bytes could be torn by another run's records
 * and is refused; a full pipe (or socket, or terminal: anything but a
 * regular file) is waited on up to STALL_MS.
 */
export function writeLines(
  fd: number,
  lines: string,
  bytes: number,
  kind: { pipe: boolean; regular: boolean },
): number {
  const { pipe, regular } = kind;
  if (pipe && bytes > PIPE_BUF) {
    throw new Error(
      `a record of ${bytes} bytes is more than a pipe takes whole (${PIPE_BUF}): another run's records could tear it`,
    );
  }
  const giveUp = Date.now() + STALL_MS;
  for (;;) {
    try {
      return writeSync(fd, lines);
    } catch (err) {
      if (regular || errorCode(err) !== 'EAGAIN') throw err;
      if (Date.now() >= giveUp) throw new PipeStalled();
      Atomics.wait(SLEEP, 0, 0, 10);
    }
  }
}

/** A pipe whose reader took nothing for STALL_MS: later writes fail at once rather than wait again. */
export class PipeStalled extends Error {
  constructor() {
    super(`the process reading this pipe took nothing for ${STALL_MS / 1000} seconds (has it stopped?)`);
  }
}
