import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { JournalError } from '../../shared/errors.js';
import { errorCode, fsReason } from '../../shared/fs-reason.js';
import { makeDirectory } from '../../shared/make-directory.js';
import type { JournalFile } from './file-writer.js';
import { JOURNAL_FILE } from './location.js';
import { checkJournalFile, openJournalFile } from './open-file.js';
import { ROLL_OVER_BYTES, rollOver, writerMayKeep, type Pause } from './roll-over.js';
import { markWriter } from './writers.js';

// Opening the journal's files (the state directory's, a --journal-file), and the dry run's check that a run could.

/** The way on for the state directory's journal. */
export const WAY_ON = 'run with --no-journal (or PLANTS_JOURNAL=off) to delete without a record';
/** The way on for a --journal-file, which was asked for by name. */
const OTHER_FILE = 'name a writable --journal-file, or leave it out';

/** How many times a run opens the journal again when rollovers keep removing the file it opened. */
const MAX_OPENS = 100;

/** Where a run's journal goes. */
export interface JournalPlaces {
  /** The state directory (made 0700 if missing; its journal rolled over if large). */
  dir?: string;
  /** --journal-file. */
  extraFile?: string;
}

/**
 * Open the run's files for appending: a JournalError, naming the file, the
 * reason and the way on, if any of it fails (the files opened so far closed).
 */
export function openJournalFiles(
  places: JournalPlaces & {
    /** Where the state directory's journal rolls over (tests make it small); default ROLL_OVER_BYTES. */
    rollOverBytes?: number;
    /** A test's hold at a point of the rollover (docs/testing.md). */
    pause?: Pause;
  },
): JournalFile[] {
  const files: JournalFile[] = [];
  // A --journal-file that is not a journal is refused before the state directory's is touched.
  // Stryker disable next-line ConditionalExpression: checkJournalFile(undefined) finds nothing to refuse (its looks at the path fail and are passed over)
  if (places.extraFile !== undefined) checkJournalFile(places.extraFile, false);
  try {
    if (places.dir !== undefined) {
      try {
        makeDirectory(places.dir);
      } catch (err) {
        throw cannotMake(places.dir, err);
      }
      rollOver(places.dir, places.rollOverBytes ?? ROLL_OVER_BYTES, WAY_ON, places.pause);
      files.push(openStateJournal(places.dir, places.pause));
    }
    if (places.extraFile !== undefined) files.push(opened(places.extraFile, OTHER_FILE, false));
    return files;
  } catch (err) {
    closeAll(files);
    throw err;
  }
}

/** Closes files a run opened but will not write. */
export function closeAll(files: readonly JournalFile[]): void {
  for (const { fd, mark } of files) {
    mark?.remove();
    closeSync(fd);
  }
}

/**
 * The state directory's journal, opened and marked, then kept only if no rollover is removing it
 * (roll-over.ts, removeOld, says why that order loses nothing); else opened again: a rollover only
 * removes old files, so this ends.
 */
function openStateJournal(dir: string, pause: Pause | undefined): JournalFile {
  for (let tries = 1; ; tries += 1) {
    const file = opened(join(dir, JOURNAL_FILE), WAY_ON, true);
    if (tries === 1) pause?.('writer-opened');
    try {
      file.mark = markWriter(dir, file.fd);
      if (writerMayKeep(dir, file.fd)) return file;
    } catch (err) {
      closeAll([file]);
      throw cannotMark(dir, err);
    }
    file.mark.remove();
    closeSync(file.fd);
    if (tries === MAX_OPENS) throw cannotMark(dir, new Error('other runs kept rolling the journal over'));
  }
}

/** A journal file opened for appending, a line a run left unended there ended. */
function opened(path: string, wayOn: string, own: boolean): JournalFile {
  let fd: number | undefined;
  try {
    fd = openJournalFile(path, own);
    const stats = fstatSync(fd);
    const file = { path, fd, wayOn, pipe: stats.isFIFO(), regular: stats.isFile() };
    endPieceLeft(fd, path);
    return file;
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    if (err instanceof JournalError) throw err;
    throw cannotWrite(path, err, wayOn);
  }
}

/**
 * What openJournalFiles would refuse, found without writing or making
 * anything (a dry run's prediction of the real run): a JournalError in its
 * words when the state directory could not be made, or a file could not be
 * opened for appending.
 */
export function checkJournalPlaces(places: JournalPlaces): void {
  const files: [path: string, wayOn: string][] = [];
  if (places.dir !== undefined) {
    try {
      couldMakeDirectory(places.dir);
    } catch (err) {
      throw cannotMake(places.dir, err);
    }
    // A directory the run would make holds no journal yet: nothing more to check there.
    if (existsSync(places.dir)) files.push([join(places.dir, JOURNAL_FILE), WAY_ON]);
  }
  if (places.extraFile !== undefined) files.push([places.extraFile, OTHER_FILE]);
  for (const [path, wayOn] of files) {
    // The state directory's journal is the one with WAY_ON as its way on.
    checkJournalFile(path, wayOn === WAY_ON);
    try {
      couldAppend(path);
    } catch (err) {
      throw cannotWrite(path, err, wayOn);
    }
    if (wayOn !== WAY_ON) continue;
    // The run's writer mark is made beside it (and a rollover renames it there).
    try {
      accessSync(places.dir!, constants.W_OK | constants.X_OK);
    } catch (err) {
      throw cannotMark(places.dir!, err);
    }
  }
}

/**
 * End a line a run left unended (a write the disk took only in part, when
 * even its line break found no room), so that this run's start record is
 * not glued to it and lost with it. A regular file only: a pipe has no end
 * to read. Throws when the line break cannot be written: then nothing can be.
 */
function endPieceLeft(fd: number, path: string): void {
  const stats = fstatSync(fd);
  if (!stats.isFile() || stats.size === 0) return;
  const last = Buffer.alloc(1);
  try {
    // The append descriptor cannot read: the file is opened again to read its last byte.
    const reader = openSync(path, 'r');
    try {
      readSync(reader, last, 0, 1, stats.size - 1);
    } finally {
      closeSync(reader);
    }
  } catch {
    // Unreadable (a write-only --journal-file): left as it is.
    return;
  }
  if (last[0] !== 0x0a) writeSync(fd, '\n');
}

/** The refusal of a run whose journal file cannot be opened (or, in a dry run, could not be). */
function cannotWrite(path: string, err: unknown, wayOn: string): JournalError {
  return new JournalError(`cannot write the deletion journal ${path}: ${fsReason(err)}; nothing was deleted; ${wayOn}`);
}

/** The refusal of a run that cannot mark itself as a writer of the state directory's journal (writers.ts). */
function cannotMark(dir: string, err: unknown): JournalError {
  return new JournalError(
    `cannot mark this run as a writer of the deletion journal in ${dir}: ${fsReason(err)}; nothing was deleted; ${WAY_ON}`,
  );
}

/** The refusal of a run whose state directory cannot be made. */
function cannotMake(dir: string, err: unknown): JournalError {
  return new JournalError(
    `cannot make the directory of the deletion journal ${dir}: ${fsReason(err)}; nothing was deleted; ${WAY_ON}`,
  );
}

/** An error as the system gives it, for a check that finds what a call would fail with. */
function systemError(code: 'EISDIR' | 'ENOTDIR'): NodeJS.ErrnoException {
  const errno = process.getBuiltinModule('node:os').constants.errno[code];
  return Object.assign(new Error(code), { code, errno: -errno });
}

/** Throws what makeDirectory(dir) would, without making it: the nearest directory there must take a new entry. */
function couldMakeDirectory(dir: string): void {
  let missing = false;
  for (let at = dir; ; at = dirname(at)) {
    let stats;
    try {
      stats = statSync(at);
    } catch (err) {
      if (errorCode(err) !== 'ENOENT' || dirname(at) === at) throw err;
      missing = true;
      continue;
    }
    if (!stats.isDirectory()) {
      throw missing ? systemError('ENOTDIR') : new Error('something that is not a directory is in its place');
    }
    if (missing) accessSync(at, constants.W_OK | constants.X_OK);
    return;
  }
}

/** Throws what opening `path` for appending (creating it if missing) would, without opening it. */
function couldAppend(path: string): void {
  let stats;
  try {
    stats = statSync(path);
  } catch (err) {
    if (errorCode(err) !== 'ENOENT') throw err;
    const parent = statSync(dirname(path));
    if (!parent.isDirectory()) throw systemError('ENOTDIR');
    accessSync(dirname(path), constants.W_OK | constants.X_OK);
    return;
  }
  if (stats.isDirectory()) throw systemError('EISDIR');
  accessSync(path, constants.W_OK);
}
