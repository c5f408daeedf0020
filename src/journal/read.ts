import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { JournalError } from '../errors.js';
import { errorCode, fsReason } from '../shared/fs-reason.js';
import { readPipe } from '../shared/read-pipe.js';
import { JOURNAL_FILE } from './location.js';
import { OLD_JOURNAL } from './journal.js';
import { parseRecord, type JournalRecord } from './record.js';

export type { JournalRecord };

/** A line that is not a record (a run killed mid-write, a hand edit): skipped, and said once. */
export interface DamagedLine {
  file: string;
  line: number;
}

/** What a journal read gives: its records, in the order written, and the lines that are not records. */
export interface JournalContents {
  records: JournalRecord[];
  damaged: DamagedLine[];
}

/**
 * Every record in the state directory's journals, oldest file first (the
 * rolled-over ones by name, then the current one), in the order written.
 * A missing directory or journal is an empty one; one that cannot be read
 * is a JournalError naming it.
 */
export function readJournal(dir: string): JournalContents {
  for (let tries = 1; ; tries += 1) {
    try {
      return readOnce(dir);
    } catch (err) {
      if (!(err instanceof Vanished) || tries === 3) throw err;
    }
  }
}

/**
 * The records of journal files named by the user (what `--journal-file`
 * wrote: a CI job's artifact), in the order given. Each must be there and
 * readable: a JournalError names the first that is not.
 */
export async function readJournalFiles(files: readonly string[]): Promise<JournalContents> {
  const contents: JournalContents = { records: [], damaged: [] };
  for (const file of files) {
    const unreadableFile = (reason: string) =>
      new JournalError(`cannot read the journal file ${file}: ${reason}; give a file that --journal-file wrote`);
    let text: string;
    try {
      // A file, or a pipe or socket (`<(…)`, /dev/stdin), which ends; a device such as /dev/zero would be read without end.
      const stat = statSync(file);
      if (stat.isCharacterDevice() || stat.isBlockDevice()) throw unreadableFile('a device, not a file or a pipe');
      text = stat.isFIFO() ? (await readPipe(file)).toString('utf8') : readFileSync(file, 'utf8');
    } catch (err) {
      if (err instanceof JournalError) throw err;
      throw unreadableFile(fsReason(err));
    }
    readLines(file, text, contents);
  }
  return contents;
}

/** A file listed a moment ago is gone: a run rolled the journal over meanwhile. */
class Vanished extends JournalError {}

function readOnce(dir: string): JournalContents {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return { records: [], damaged: [] };
    throw unreadable(`the directory of the deletion journal ${dir}`, err);
  }
  const files = [
    ...names.filter((name) => OLD_JOURNAL.test(name)).sort(),
    ...names.filter((name) => name === JOURNAL_FILE),
  ];
  const contents: JournalContents = { records: [], damaged: [] };
  for (const name of files) {
    const file = join(dir, name);
    let text: string;
    try {
      // A device or a pipe put in its place would be read without end.
      if (!statSync(file).isFile()) throw unreadable(`the deletion journal ${file}`, 'not a regular file');
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if (err instanceof JournalError) throw err;
      // Rolled over or removed by a run meanwhile: read the directory again. A link to nothing stays.
      if (errorCode(err) === 'ENOENT' && !linkLeft(file)) {
        throw new Vanished(`the journal in ${dir} kept changing while it was read; try again`);
      }
      throw unreadable(`the deletion journal ${file}`, err);
    }
    readLines(file, text, contents);
  }
  return contents;
}

/** A journal file's records into `contents`; a line that is not one is noted as damaged. */
function readLines(file: string, text: string, contents: JournalContents): void {
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line === '') continue;
    const record = parseRecord(line);
    if (record) contents.records.push(record);
    else contents.damaged.push({ file, line: index + 1 });
  }
}

/** A journal (or its directory) that is there but cannot be read: a directory in its place, a link to nothing. */
function unreadable(what: string, err: unknown): JournalError {
  const reason = typeof err === 'string' ? err : fsReason(err);
  return new JournalError(`cannot read ${what}: ${reason}; move it out of the way, or set PLANTS_STATE_DIR`);
}

/** Whether `file` is still there as a link (to nothing), rather than gone. */
function linkLeft(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
