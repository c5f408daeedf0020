import { writeSync } from 'node:fs';
import { errorCode } from '../../shared/fs-reason.js';

/**
 * The most a write to a pipe (a --journal-file may be one) may take and
 * still never interleave with another writer's (PIPE_BUF: POSIX's least,
 * Linux's size).
 */
export const PIPE_BUF = 4096;
/**
 * How long a write waits for a pipe's reader to make room before the run
 * stops as for any journal it cannot write. A journal pipe is opened
 * non-blocking (a blocked write would hold the process where no Ctrl-C or
 * SIGTERM reaches it) and waited on a few milliseconds at a time with the
 * event loop running, so a signal ends the wait at once: the limit is only
 * for a reader that has stopped with nobody there to stop the run, and is
 * long, so that a slow reader on a busy machine (gzip, a CI log collector)
 * never fails a run.
 */
export const STALL_MS = 60_000;
/** The longest pause between tries: short, so that a reader that makes room is not kept waiting. */
const MOST_PAUSE_MS = 20;

/** How a write may wait for a pipe's reader. */
export interface PipeWait {
  /** Aborted (Ctrl-C, SIGTERM): a write waiting for room is woken to look at `stopsAt`. */
  signal?: AbortSignal;
  /** Set once the run is stopping: a write still waiting then gives up (PipeWaitStopped). */
  stopsAt?: number;
  /** How long a reader may take nothing: STALL_MS unless a test says otherwise. */
  stallMs: number;
}

/**
 * Write whole lines to `fd`: resolves to how many bytes it took. On a
 * pipe, a write of more than PIPE_BUF bytes could be torn by another run's
 * records and is refused; a full pipe (or socket, or terminal: anything
 * but a regular file) is tried again, a little later each time, until it
 * takes them, the reader has taken nothing for `wait.stallMs` (PipeStalled),
 * or the run, stopping, waits no more (`wait.stopsAt`: PipeWaitStopped).
 */
export async function writeLines(
  fd: number,
  lines: string,
  bytes: number,
  kind: { pipe: boolean; regular: boolean },
  wait: PipeWait,
): Promise<number> {
  refuseTornWrite(bytes, kind);
  const giveUp = Date.now() + wait.stallMs;
  let pause = 1;
  for (;;) {
    try {
      return writeSync(fd, lines);
    } catch (err) {
      if (kind.regular || errorCode(err) !== 'EAGAIN') throw err;
      const now = Date.now();
      // Stryker disable next-line ConditionalExpression,EqualityOperator: `now >= undefined` is false anyway; `>` for `>=` only moves the give-up by one try within the same millisecond
      if (wait.stopsAt !== undefined && now >= wait.stopsAt) throw new PipeWaitStopped();
      // Stryker disable next-line EqualityOperator: `>` for `>=` only moves the give-up by one try within the same millisecond
      if (now >= giveUp) throw new PipeStalled(wait.stallMs);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: which pause an abort wakes early changes only how soon (at most 20 ms) the next try comes
      await sleep(pause, wait.stopsAt === undefined ? wait.signal : undefined);
      pause = Math.min(pause * 2, MOST_PAUSE_MS);
    }
  }
}

/**
 * writeLines for a run that is quitting now (a second Ctrl-C: synchronous,
 * before the process exits): one try, a full pipe fails at once.
 */
export function writeLinesNow(fd: number, lines: string, bytes: number, kind: { pipe: boolean; regular: boolean }) {
  refuseTornWrite(bytes, kind);
  try {
    return writeSync(fd, lines);
  } catch (err) {
    if (kind.regular || errorCode(err) !== 'EAGAIN') throw err;
    throw new PipeWaitStopped();
  }
}

function refuseTornWrite(bytes: number, kind: { pipe: boolean }): void {
  if (kind.pipe && bytes > PIPE_BUF) {
    throw new Error(
      `a record of ${bytes} bytes is more than a pipe takes whole (${PIPE_BUF}): another run's records could tear it`,
    );
  }
}

/** `ms` milliseconds, or less when `signal` is aborted meanwhile. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      // Stryker disable next-line CallExpression: a timer left to fire resolves a settled promise (a no-op) at most 20 ms later
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A pipe whose reader took nothing for the stall limit: later writes fail at once rather than wait again. */
export class PipeStalled extends Error {
  constructor(ms: number) {
    super(`the process reading this pipe took nothing for ${ms / 1000} seconds (has it stopped?)`);
  }
}

/** A full pipe when the run was stopping: it is not waited on. */
export class PipeWaitStopped extends Error {
  constructor() {
    super('the process reading this pipe was not taking records when the run was stopped');
  }
}
