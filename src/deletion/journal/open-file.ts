import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  statSync,
  type Stats,
} from 'node:fs';
import { JournalError } from '../../shared/errors.js';
import { errorCode } from '../../shared/fs-reason.js';
import { parseRecord } from './record.js';

/** How much of an existing --journal-file is read to find its first line: a start record is far shorter. */
const FIRST_LINE_BYTES = 64 * 1024;

/** How every record plants writes begins. */
const RECORD_START = '{"v":1,"event":"';

/** The ways on from a state journal plants will not write: a symbolic link in its place. */
const LINK_WAY_ON =
  'run with --no-journal (or PLANTS_JOURNAL=off) to delete without a record, or --no-journal --journal-file <path> to keep the journal elsewhere';

/**
 * Open a journal file for appending (created 0600). `own`: the state
 * directory's journal, which is opened without following a symbolic link
 * (one there could point anywhere, /dev/null or another user's file) and
 * set to 0600 only when it is a regular file this user owns. A
 * --journal-file is the user's: followed, and its mode left as it is, but
 * refused when it is not a journal (`-`, or a file whose first line is not a record).
 * Throws a JournalError for what plants refuses; the system's error otherwise.
 */
export function openJournalFile(path: string, own: boolean): number {
  if (!own) refuseDash(path);
  refuseOutput(path, own);
  const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = constants;
  // Non-blocking: a pipe whose reader stops must not hold the run where no signal reaches it (pipe-write.ts).
  const flags = O_WRONLY | O_APPEND | O_CREAT | (O_NONBLOCK ?? 0) | (own ? (O_NOFOLLOW ?? 0) : 0);
  let fd: number;
  try {
    fd = openSync(path, flags, 0o600);
  } catch (err) {
    if (own && errorCode(err) === 'ELOOP' && isLink(path)) throw linkRefused(path);
    throw err;
  }
  try {
    const stats = fstatSync(fd);
    // Again for what was opened: the path may have been replaced since it was looked at.
    refuseOutput(path, own, stats, fd);
    if (own && stats.isFile() && (process.getuid === undefined || stats.uid === process.getuid())) {
      // Kept private, an older one too.
      fchmodSync(fd, 0o600);
    }
    if (!own && stats.isFile() && stats.size > 0) refuseUnlessJournal(path);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

/** What openJournalFile would refuse, found without opening or making anything (a dry run). */
export function checkJournalFile(path: string, own: boolean): void {
  if (own) {
    if (isLink(path)) throw linkRefused(path);
    refuseOutput(path, own);
    return;
  }
  refuseDash(path);
  refuseOutput(path, own);
  try {
    const stats = statSync(path);
    if (stats.isFile() && stats.size > 0) refuseUnlessJournal(path);
  } catch (err) {
    if (err instanceof JournalError) throw err;
    // Missing or unreadable: what opening it would say is found by the caller.
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function linkRefused(path: string): JournalError {
  return new JournalError(
    `the deletion journal ${path} is a symbolic link, which plants does not follow there; nothing was deleted; ${LINK_WAY_ON}`,
  );
}

/** `--journal-file -`: plants writes its results to stdout, never the journal. */
export function refuseDash(path: string): void {
  if (path === '-') {
    throw new JournalError(
      "--journal-file - is not supported: stdout has the run's results, not its journal; nothing was deleted; give a file's path (--journal-file run.jsonl), or a pipe: --journal-file >(gzip > run.jsonl.gz)",
    );
  }
}

/** The way on from a --journal-file that is stdout or stderr under another name. */
const OUTPUT_WAY_ON = "give a file's path (--journal-file run.jsonl), or a pipe: --journal-file >(gzip > run.jsonl.gz)";

/**
 * A journal file that is this run's stdout or stderr under another name
 * (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/2`, or the file stdout was
 * redirected to): its records would be mixed into the results (`--json`)
 * or the messages. And `/dev/null` (any node of that device) as a
 * --journal-file: nothing written there is kept, nor by any other device that
 * is not a terminal (keepsOrFails). `stats`: the file as
 * opened (`fd`); else the path is looked at (a missing one is neither).
 */
function refuseOutput(path: string, own: boolean, stats?: Stats, fd?: number): void {
  if (process.platform === 'win32') return;
  let file = stats;
  try {
    file ??= statSync(path);
  } catch {
    return;
  }
  const name = own ? `the deletion journal ${path}` : `--journal-file ${path}`;
  const wayOn = own ? LINK_WAY_ON : OUTPUT_WAY_ON;
  for (const [fd, stream, holds] of [
    [1, 'stdout', "the run's results"],
    [2, 'stderr', "the run's messages"],
  ] as const) {
    if (file.ino !== 0 && sameFile(file, fd)) {
      throw new JournalError(
        `${name} is this run's ${stream}, which has ${holds}: its records would be mixed into them; nothing was deleted; ${wayOn}`,
      );
    }
  }
  if (!own && file.isCharacterDevice() && file.rdev === deviceOf('/dev/null')) {
    throw new JournalError(
      `--journal-file ${path} is /dev/null, which keeps nothing; nothing was deleted; to delete without a record, leave --journal-file out and run with --no-journal (or PLANTS_JOURNAL=off)`,
    );
  }
  if (!own && file.isCharacterDevice() && !keepsOrFails(path, file, fd)) {
    throw new JournalError(
      `--journal-file ${path} is a device that is not a terminal (as /dev/zero or /dev/urandom), which may keep nothing written to it; nothing was deleted; ${OUTPUT_WAY_ON}`,
    );
  }
}

/**
 * Whether a character device shows what is written to it, or fails the
 * write for all to see: a terminal, or /dev/full (every write fails with
 * ENOSPC, which the run reports). Any other (/dev/zero, /dev/random) may
 * throw records away without a word, so it is refused.
 */
function keepsOrFails(path: string, file: Stats, opened?: number): boolean {
  if (file.rdev === deviceOf('/dev/full')) return true;
  const { isatty } = process.getBuiltinModule('node:tty');
  if (opened !== undefined) return isatty(opened);
  const { O_WRONLY, O_NONBLOCK, O_NOCTTY } = constants;
  try {
    // Opened to ask (never to make it this run's controlling terminal): a device's node says nothing of it.
    const fd = openSync(path, O_WRONLY | (O_NONBLOCK ?? 0) | (O_NOCTTY ?? 0));
    try {
      return isatty(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not to be opened: opening it for the journal fails the same way, and says why.
    return true;
  }
}

/** Whether descriptor `fd` (1, 2) is open on the file `stats` describes. */
function sameFile(stats: Stats, fd: number): boolean {
  try {
    const open = fstatSync(fd);
    return open.dev === stats.dev && open.ino === stats.ino;
  } catch {
    // Closed: nothing goes there.
    return false;
  }
}

/** The device number of a device such as /dev/null (undefined where there is none). */
function deviceOf(path: string): number | undefined {
  try {
    return statSync(path).rdev;
  } catch {
    return undefined;
  }
}

/**
 * An existing, non-empty --journal-file must be a journal: its first line a
 * record. Appending to anything else (plants' own config.json) would break
 * what reads it. A file that cannot be read (write-only) is taken as it is.
 */
function refuseUnlessJournal(path: string): void {
  let text: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(FIRST_LINE_BYTES);
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      text = buffer.subarray(0, read).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return;
  }
  const end = text.indexOf('\n');
  const first = end === -1 ? text : text.slice(0, end);
  if (!journalFirstLine(first)) {
    throw new JournalError(
      `--journal-file ${path} is not a deletion journal: its first line is not a journal record; nothing was deleted; name a new file, or one that --journal-file wrote`,
    );
  }
}

/**
 * Whether `line` may be a journal's first line: a record, or a record's
 * beginning (a first write that a full disk cut short). Writing to and
 * reading a --journal-file go by it.
 */
export function journalFirstLine(line: string): boolean {
  return parseRecord(line) !== undefined || line.startsWith(RECORD_START);
}

/**
 * What is wrong with the state directory as a home for the journal, as a
 * one-line warning (the config file's directory gets the same): one that
 * others may write to, or that another user owns, lets them replace the
 * journal. Undefined when it is the user's alone, missing, or on Windows.
 */
export function stateDirProblem(dir: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  let stats;
  try {
    stats = statSync(dir);
  } catch {
    return undefined;
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    return `the directory of the deletion journal ${dir} is owned by another user (uid ${stats.uid}), who can replace the journal; set PLANTS_STATE_DIR to a directory of your own`;
  }
  const mode = stats.mode & 0o777;
  if ((mode & 0o022) !== 0) {
    return `the directory of the deletion journal ${dir} has mode ${mode.toString(8).padStart(4, '0')}: others can replace the journal; run chmod 700 ${dir}`;
  }
  return undefined;
}
