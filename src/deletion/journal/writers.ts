import { closeSync, fstatSync, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from '../../shared/random.js';
import { processHasEnded } from '../../shared/process-ended.js';

/**
 * The runs writing the state directory's journal: an empty file each beside
 * it, `deletions.writer.<pid>.<dev>-<ino>.<uuid>`, naming the file the run
 * holds open (empty: a disk too full for a byte more still takes it, and
 * the run's own records say what it could not write). A rollover removes
 * an old journal only when no running run writes it: a file removed while
 * a run still held it would take every record that run wrote after with
 * it, with nothing to say so.
 */
const WRITER = /^deletions\.writer\.(\d+)\.(\d+)-(\d+)\.[\w-]+$/;

/** A run's registration: removed when it closes its journal (a run killed leaves it, and a later rollover clears it). */
export interface WriterMark {
  remove(): void;
}

/** `dev:ino`: which file a descriptor or a path is, whatever its name now (compared with filesBeingWritten()). */
export function fileKey(stats: { dev: number; ino: number }): string {
  return `${stats.dev}:${stats.ino}`;
}

/**
 * Mark this run as writing the file `fd` holds, in `dir`. Throws what the
 * file system says when it cannot: a run that cannot say it writes the
 * journal could lose its records to a rollover, so it does not send.
 */
export function markWriter(dir: string, fd: number): WriterMark {
  const { dev, ino } = fstatSync(fd);
  const path = join(dir, `deletions.writer.${process.pid}.${dev}-${ino}.${randomUUID()}`);
  closeSync(openSync(path, 'wx', 0o600));
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
    // Stryker disable next-line ArrayDeclaration: any one-element fallback leaves `pid` (index 1) undefined all the same
    const [, pid, dev, ino] = WRITER.exec(name) ?? [];
    if (pid === undefined) continue;
    if (!processHasEnded(Number(pid))) {
      files.add(`${dev}:${ino}`);
      continue;
    }
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Another run cleared it first.
    }
  }
  return files;
}
