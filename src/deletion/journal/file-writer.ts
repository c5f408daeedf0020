import { closeSync, writeSync } from 'node:fs';
import { JournalError } from '../../shared/errors.js';
import { fsReason } from '../../shared/fs-reason.js';
import { PipeStalled, PipeWaitStopped, STALL_MS, writeLines, writeLinesNow, type PipeWait } from './pipe-write.js';
import type { WriterMark } from './writers.js';

// The journal's files, written whole lines at a time: what a write that fails, or is cut short, leaves on record.

/** A file the journal writes, and what to do when it cannot. */
export interface JournalFile {
  path: string;
  fd: number;
  wayOn: string;
  /** The state directory's journal: this run's mark as its writer, which keeps a rollover from removing it. */
  mark?: WriterMark;
  /** A pipe (FIFO): written a whole record at most PIPE_BUF bytes at a time, never blocking. */
  pipe: boolean;
  /** A regular file (not a pipe, socket or terminal, whose writes may have to wait). */
  regular: boolean;
  /** Why a pipe takes no more records: its reader stopped taking them (or did not while the run stopped). */
  stalled?: Error;
}

/** A write that failed, with how many of its lines are on record whole in the file it failed on. */
export class WriteFailed extends JournalError {
  constructor(
    message: string,
    readonly whole: number,
    /** It failed because the run was stopping while a pipe's reader took nothing: the stop ended the run. */
    readonly byStop: boolean,
  ) {
    super(message);
  }
}

/** Whether a journal write failed only because the run was stopped while it waited for a pipe's reader. */
export function failedByStop(err: unknown): boolean {
  return err instanceof WriteFailed && err.byStop;
}

/** What a failed write says of the DELETE it was for: `whole`, how many of its lines are on record all the same. */
export type Then = (wayOn: string, whole: number) => string;

/** How long, once the run is stopping (Ctrl-C, SIGTERM), a write still waits for a pipe's reader to make room. */
const STOP_GRACE_MS = 1000;

/** Closes a journal file and removes its writer mark; closing cannot lose what was written already. */
export function closeJournalFile({ fd, mark }: JournalFile): void {
  mark?.remove();
  try {
    closeSync(fd);
  } catch {
    // Closing cannot lose what was written already.
  }
}

/** The run's journal files: each write goes to every one whole, or fails naming the file and what is on record. */
export class JournalWriter {
  readonly files: readonly JournalFile[];
  /** The files a write failed on: they take no more records (the run stops sending). */
  readonly #failed = new Set<JournalFile>();
  /** How writes wait for a pipe's reader. */
  readonly #wait: PipeWait;

  constructor(files: readonly JournalFile[], wait: { signal?: AbortSignal; stallMs?: number }) {
    this.files = files;
    this.#wait = { signal: wait.signal, stallMs: wait.stallMs ?? STALL_MS };
    // Once the run is stopping, a pipe's reader gets a moment more, no longer: the run must end within seconds.
    const stopping = () => (this.#wait.stopsAt ??= Date.now() + STOP_GRACE_MS);
    if (wait.signal?.aborted) stopping();
    else wait.signal?.addEventListener('abort', stopping, { once: true });
  }

  /** The files no write has failed on: where records still go. */
  get healthy(): JournalFile[] {
    return this.files.filter((file) => !this.#failed.has(file));
  }

  /** Whole lines, in one write per file: all of them, or a JournalError saying `then` of the DELETE they were for. */
  async write(
    lines: string,
    then: Then,
    took: JournalFile[] = [],
    files: readonly JournalFile[] = this.files,
  ): Promise<void> {
    // Written as text: node encodes it on its way to the file, with no Buffer made for it.
    const bytes = Buffer.byteLength(lines);
    for (const file of files) {
      let written: number;
      try {
        if (file.stalled) throw file.stalled;
        written = await writeLines(file.fd, lines, bytes, file, this.#wait);
      } catch (err) {
        throw this.#failure(file, err, lines, 0, false, then);
      }
      this.#tookAll(file, lines, bytes, written, then);
      took.push(file);
    }
  }

  /** write() for a run quitting now: synchronous, a full pipe not waited on. */
  writeNow(lines: string, then: Then, took: JournalFile[] = [], files: readonly JournalFile[] = this.files): void {
    const bytes = Buffer.byteLength(lines);
    for (const file of files) {
      let written: number;
      try {
        if (file.stalled) throw file.stalled;
        written = writeLinesNow(file.fd, lines, bytes, file);
      } catch (err) {
        throw this.#failure(file, err, lines, 0, false, then);
      }
      this.#tookAll(file, lines, bytes, written, then);
      took.push(file);
    }
  }

  /** Throws when a file took only `written` of a write's `bytes`. A regular file takes a whole write at once: less means it is full. */
  #tookAll(file: JournalFile, lines: string, bytes: number, written: number, then: Then): void {
    if (written === bytes) return;
    // End the piece (best effort; else the next run's open ends it), so the next line is not glued to it.
    const ended = written > 0 && tryWrite(file.fd, '\n');
    const err = new Error(`only ${written} of ${bytes} bytes could be written (is the disk full?)`);
    throw this.#failure(file, err, lines, written, ended, then);
  }

  /** The error of a write to `file` that failed with `err` after it took `written` bytes; the file takes no more. */
  #failure(file: JournalFile, err: unknown, lines: string, written: number, ended: boolean, then: Then): WriteFailed {
    this.#failed.add(file);
    if (err instanceof PipeStalled || err instanceof PipeWaitStopped) file.stalled = err;
    const whole = wholeLines(lines, written, ended);
    return new WriteFailed(
      `cannot write the deletion journal ${file.path}: ${fsReason(err)}; ${then(file.wayOn, whole)}`,
      whole,
      err instanceof PipeWaitStopped,
    );
  }
}

/** Whether `text` could be written (whole: a line break). */
function tryWrite(fd: number, text: string): boolean {
  try {
    return writeSync(fd, text) === Buffer.byteLength(text);
  } catch {
    // Still full: the piece stays a damaged line, which history skips with a warning.
    return false;
  }
}

/**
 * How many of a write's lines are on record whole after the file took only
 * `written` bytes of it: those it took with their line break, and the one
 * it took all but the line break of when that was written after (`ended`).
 */
export function wholeLines(text: string, written: number, ended: boolean): number {
  let whole = 0;
  let offset = 0;
  for (const line of text.split('\n').slice(0, -1)) {
    const end = offset + Buffer.byteLength(line);
    if (end + 1 <= written || (ended && end === written)) whole += 1;
    // Stryker disable next-line ConditionalExpression,ArithmeticOperator: a shortcut; once a line is not whole, no later one can be
    if (end + 1 > written) break;
    offset = end + 1;
  }
  return whole;
}
