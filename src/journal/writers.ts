import { closeSync, fstatSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode } from '../shared/fs-reason.js';
import { randomUUID } from '../shared/random.js';

/**
 * The runs writing the state directory's journal: a small file each beside
 * it (`deletions.writer.<pid>.<uuid>`, holding the `dev:ino` of the file the
 * run holds open). A rollover removes an old journal only when no running
 * run writes it: a file removed while a run still held it would take every
 * record that run wrote after with it, with nothing to say so.
 */
const WRITER = /^deletions\.writer\.(\d+)\.[\w-]+$/;

/** A run's registration: removed when it closes its journal (a run killed leaves it, and a later rollover clears it). */
export interface WriterMark {
  remove(): void;
}

/** `dev:ino`: which file a descriptor or a path is, whatever its name now. */
function fileKey(stats: { dev: number; ino: number }): string {
  return `${stats.dev}:${stats.ino}`;
}

/** Where this run would mark itself as a writer of `dir`'s journal: for messages. */
export function writerMarkPath(dir: string): string {
  return join(dir, `deletions.writer.${process.pid}.<id>`);
}

/**
 * Mark this run as writing the file `fd` holds, in `dir`. Throws what the
 * file system says when it cannot: a run that cannot say it writes the
 * journal could lose its records to a rollover, so it does not send.
 */
export function markWriter(dir: string, fd: number): WriterMark {
  const path = join(dir, `deletions.writer.${process.pid}.${randomUUID()}`);
  const mark = openSync(path, 'wx', 0o600);
  try {
    writeSync(mark, `${fileKey(fstatSync(fd))}\n`);
  } finally {
    closeSync(mark);
  }
  return {
    remove: () => {
      try {
        unlinkSync(path);
      } catch {
        // Gone already: nothing is left to say this run writes.
      }
    },
  };
}

/**
 * The files (`dev:ino`) that running runs write, read from the marks in
 * `dir` (`names`, its entries); the marks of runs that have ended (killed
 * before they could remove theirs) are removed. A mark whose process cannot
 * be told ended counts as running: a file kept a while longer loses nothing.
 */
export function filesBeingWritten(dir: string, names: readonly string[]): Set<string> {
  const files = new Set<string>();
  for (const name of names) {
    const pid = WRITER.exec(name)?.[1];
    if (pid === undefined) continue;
    const path = join(dir, name);
    if (hasEnded(Number(pid))) {
      try {
        unlinkSync(path);
      } catch {
        // Another run cleared it first.
      }
      continue;
    }
    try {
      files.add(readFileSync(path, 'utf8').trim());
    } catch {
      // Removed as its run ended: it writes nothing now.
    }
  }
  return files;
}

/** The key of the file at a path, for comparing with filesBeingWritten(). */
export { fileKey };

/** Whether process `pid` is known to have ended (signal 0 sends nothing; EPERM: it runs as another user). */
function hasEnded(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return errorCode(err) === 'ESRCH';
  }
}
