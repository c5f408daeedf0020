import { fstatSync, lstatSync, readdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { JournalError } from '../../shared/errors.js';
import { errorCode, fsReason } from '../../shared/fs-reason.js';
import { processHasEnded } from '../../shared/process-ended.js';
import { JOURNAL_FILE } from './location.js';
import { fileKey, filesBeingWritten } from './writers.js';

/** The journal rolls over when a run starts and finds it this large... */
export const ROLL_OVER_BYTES = 16 * 1024 * 1024;
/** ...keeping this many old files beside it (the oldest go first). */
export const KEEP_OLD_FILES = 4;

/**
 * Old journals are named by when they were rolled over, to the millisecond,
 * and by the process that did it: `deletions.20261129T061100.123Z.12345.jsonl`
 * (before, to the second: `deletions.20261129T061100Z.12345.jsonl`, still read).
 */
const OLD_JOURNAL = /^deletions\.(\d{8}T\d{6})(?:\.(\d{3}))?Z\.(\d+)\.jsonl$/;

/**
 * An old journal a rollover is removing: `deletions.removing.<pid>.<old name>`
 * (see removeOld). Still read by `plants history`: a remover killed before it
 * finished leaves one, which the next rollover takes up.
 */
const REMOVING = /^deletions\.removing\.(\d+)\.(deletions\..+\.jsonl)$/;

/** Test hooks: a point of the rollover where a test holds it (docs/testing.md). */
export type Pause = (point: 'marks-read' | 'writer-opened') => void;

/**
 * Old journals' names, oldest first: by time, then by pid as a number
 * (as text, pid 10000 would sort before 9999 and a newer file be taken for
 * an older one); names that are not old journals are left out. A file being
 * removed sorts as the old journal it was.
 */
export function oldJournalsInOrder(names: readonly string[]): string[] {
  const keyed = names.flatMap((name) => {
    const old = REMOVING.exec(name)?.[2] ?? name;
    // Stryker disable next-line ArrayDeclaration: any one-element fallback leaves `seconds` (index 1) undefined all the same
    const [, seconds, ms = '000', pid] = OLD_JOURNAL.exec(old) ?? [];
    return seconds === undefined ? [] : [{ name, time: `${seconds}.${ms}`, pid: Number(pid) }];
  });
  keyed.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.pid - b.pid || (a.name < b.name ? -1 : 1)));
  return keyed.map(({ name }) => name);
}

/**
 * Keep the journal bounded: when it has reached `atBytes`, rename it
 * (an atomic step another run cannot half-see) and remove all but the
 * KEEP_OLD_FILES newest old ones, save those a running run still writes.
 * Runs racing to do it lose nothing (removeOld).
 */
export function rollOver(dir: string, atBytes: number, wayOn: string, pause?: Pause): void {
  const path = join(dir, JOURNAL_FILE);
  try {
    // A link or anything but a regular file is not rolled over: the open that follows refuses a link.
    const stats = lstatSync(path);
    if (!stats.isFile() || stats.size < atBytes) return;
    // 2026-11-29T06:11:00.123Z as 20261129T061100.123Z.
    const stamp = new Date().toISOString().replace(/[-:]/g, '');
    renameSync(path, join(dir, `deletions.${stamp}.${process.pid}.jsonl`));
  } catch (err) {
    // Missing: nothing to roll over (or another run just did).
    if (errorCode(err) === 'ENOENT') return;
    throw new JournalError(
      `cannot roll over the deletion journal ${path}: ${fsReason(err)}; nothing was deleted; ${wayOn}`,
    );
  }
  const old = oldJournalsInOrder(readdirSync(dir));
  removeOld(dir, old.slice(0, Math.max(0, old.length - KEEP_OLD_FILES)), pause);
}

/**
 * Remove the old journals `names`, save those a running run writes: one
 * removed while a run still held it would take every record that run wrote
 * after with it, with nothing to say so. Reading the writers' marks and then
 * removing the file is no answer alone: a run could open the file (while it
 * was still the journal) and mark it between the two. So each goes in steps
 * that a writer's own steps (writerMayKeep) answer:
 *
 * 1. it is renamed to `deletions.removing.<this pid>.<name>` (one taken from
 *    a remover that has ended is renamed to this run's name: only one taker
 *    wins a rename, and a run only ever removes a file under its own name);
 * 2. the marks are read;
 * 3. it is removed when none names it, else renamed back.
 *
 * A writer marks its file, then looks whether it is under a `removing` name
 * or removed, and if so opens the journal again (writerMayKeep). Every one of
 * these steps is one atomic file-system operation in one directory, so they
 * happen in some order. If the writer's mark came before step 2, the remover
 * sees it and keeps the file. If not, step 1 came before step 2, before the
 * mark, before the writer's look: from step 1 to its removal the file is
 * under this run's `removing` name, so the look finds it there, or (past
 * step 3) finds it removed; either way the writer writes nothing to it.
 * (A listing of the directory is not one step: a mark made while step 2
 * lists was made after step 1 all the same, and a writer's look lists the
 * `removing` names before it looks at the links, so a removal during its
 * listing is seen by the second.)
 */
function removeOld(dir: string, names: readonly string[], pause?: Pause): void {
  const mine: [removing: string, old: string][] = [];
  for (const name of names) {
    const taken = REMOVING.exec(name);
    // Another remover's, still at work: its to finish.
    if (taken && !processHasEnded(Number(taken[1]))) continue;
    const old = taken ? taken[2]! : name;
    const removing = `deletions.removing.${process.pid}.${old}`;
    try {
      renameSync(join(dir, name), join(dir, removing));
      mine.push([removing, old]);
    } catch {
      // Another run removed it (or took it) first.
    }
  }
  if (mine.length === 0) return;
  const beingWritten = filesBeingWritten(dir, readdirSync(dir));
  pause?.('marks-read');
  for (const [removing, old] of mine) {
    const path = join(dir, removing);
    try {
      if (beingWritten.has(fileKey(statSync(path)))) renameSync(path, join(dir, old));
      else unlinkSync(path);
    } catch {
      // Left as it is: read by history, and taken up by the next rollover.
    }
  }
}

/**
 * After a run has marked the file `fd` holds as its own (writers.ts):
 * whether it may write there, false when a rollover is removing it or has
 * (then the run opens the journal again). The `removing` names are looked
 * at before the file's links: see removeOld.
 */
export function writerMayKeep(dir: string, fd: number): boolean {
  const mine = fileKey(fstatSync(fd));
  for (const name of readdirSync(dir)) {
    if (!REMOVING.test(name)) continue;
    try {
      if (fileKey(statSync(join(dir, name))) === mine) return false;
    } catch {
      // Removed or renamed back meanwhile: the links say which.
    }
  }
  return fstatSync(fd).nlink > 0;
}
