import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { JournalError } from '../../shared/errors.js';
import { errorCode, fsReason } from '../../shared/fs-reason.js';
import { JOURNAL_FILE } from './location.js';
import { oldJournalsInOrder } from './roll-over.js';
import { journalFirstLine } from './open-file.js';
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
 * Where a journal's lines go as they are read: a journal is streamed, in
 * memory that does not grow with its size (a CI artifact can hold hundreds
 * of millions of lines).
 */
export interface JournalSink {
  record(record: JournalRecord): void;
  damaged(line: DamagedLine): void;
  /** A file of LARGE_FILE_BYTES or more, said before it is read. */
  large?(file: string, bytes: number): void;
}

/** A file this large is read with a warning (it takes a while), never refused. */
export const LARGE_FILE_BYTES = 1024 * 1024 * 1024;
/** A line longer than this is no record plants wrote (an id is at most what a URL takes): damaged, not buffered. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** How much of a file is read at a time. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Every record in the state directory's journals into `sink`, oldest file
 * first (the rolled-over ones by name, then the current one), in the order
 * written. A missing directory or journal is an empty one; one that cannot
 * be read is a JournalError naming it. Every file is opened before any is
 * read, so a rollover meanwhile changes nothing that is read.
 */
export function streamJournal(dir: string, sink: JournalSink): void {
  const files = openJournalFiles(dir);
  try {
    for (const { file, fd } of files) {
      const size = fstatSync(fd).size;
      if (size >= LARGE_FILE_BYTES) sink.large?.(file, size);
      readFileLines(file, fd, sink, (err) => unreadable(`the deletion journal ${file}`, err));
    }
  } finally {
    for (const { fd } of files) closeSync(fd);
  }
}

/** Every record in the state directory's journals, collected (small journals: tests). */
export function readJournal(dir: string): JournalContents {
  const contents: JournalContents = { records: [], damaged: [] };
  streamJournal(dir, { record: (record) => contents.records.push(record), damaged: (d) => contents.damaged.push(d) });
  return contents;
}

/**
 * The records of journal files named by the user (what `--journal-file`
 * wrote: a CI job's artifact) into `sink`, in the order given. Each must be
 * there and readable: a JournalError names the first that is not.
 */
export async function streamJournalFiles(files: readonly string[], sink: JournalSink): Promise<void> {
  for (const file of files) {
    const unreadableFile = (reason: string) =>
      new JournalError(`cannot read the journal file ${file}: ${reason}; give a file that --journal-file wrote`);
    try {
      // A file, or a pipe or socket (`<(…)`, /dev/stdin), which ends; a device such as /dev/zero would be read without end.
      const stat = statSync(file);
      if (stat.isCharacterDevice() || stat.isBlockDevice()) throw unreadableFile('a device, not a file or a pipe');
      if (stat.isFIFO()) {
        await readPipeLines(file, sink);
        continue;
      }
      if (stat.size >= LARGE_FILE_BYTES) sink.large?.(file, stat.size);
      const fd = openSync(file, 'r');
      try {
        readFileLines(file, fd, sink, (err) => unreadableFile(fsReason(err)), true);
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if (err instanceof JournalError) throw err;
      throw unreadableFile(fsReason(err));
    }
  }
}

/** A file's lines, a chunk at a time; a read error is `failed`'s JournalError. */
function readFileLines(
  file: string,
  fd: number,
  sink: JournalSink,
  failed: (err: unknown) => JournalError,
  named = false,
): void {
  const lines = new LineReader(file, sink, named);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, buffer, 0, buffer.length, null);
    } catch (err) {
      throw failed(err);
    }
    if (read === 0) break;
    lines.push(buffer.subarray(0, read));
  }
  lines.end();
}

/**
 * A pipe's lines, to its end (`<(zcat run.jsonl.gz)`, a FIFO, waiting for a
 * writer). Not with a blocking read: one in libuv's thread pool holds the
 * process past Ctrl-C or SIGTERM while the command behind the pipe takes its
 * time, so the pipe is read as the event loop's, without blocking.
 */
async function readPipeLines(file: string, sink: JournalSink): Promise<void> {
  const lines = new LineReader(file, sink, true);
  const { O_RDONLY, O_NONBLOCK } = constants;
  const fd = openSync(file, O_RDONLY | (O_NONBLOCK ?? 0));
  // A built-in, as the bundles load them; loaded only for a pipe.
  const { Socket } = process.getBuiltinModule('node:net');
  for await (const chunk of new Socket({ fd, readable: true, writable: false })) lines.push(chunk as Buffer);
  lines.end();
}

/**
 * Splits bytes into lines (a line break is one byte in UTF-8, never part
 * of another character), each parsed as a record as it ends; a line over
 * MAX_LINE_BYTES is damaged, its bytes dropped as they come.
 */
class LineReader {
  readonly #file: string;
  readonly #sink: JournalSink;
  /** The start of a line a chunk cut, copied (the chunk's buffer is read into again). */
  #pieces: Buffer[] = [];
  #size = 0;
  #tooLong = false;
  #line = 0;
  /** A file the user named: refused (JournalError) when its first line is not a journal's. */
  readonly #named: boolean;

  constructor(file: string, sink: JournalSink, named = false) {
    this.#file = file;
    this.#sink = sink;
    this.#named = named;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) break;
      if (this.#size === 0 && !this.#tooLong) this.#emit(chunk.toString('utf8', start, end));
      else {
        this.#keep(chunk.subarray(start, end));
        this.#emitKept();
      }
      start = end + 1;
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
  }

  end(): void {
    if (this.#size > 0 || this.#tooLong) this.#emitKept();
  }

  #keep(piece: Buffer): void {
    if (this.#tooLong) return;
    if (this.#size + piece.length > MAX_LINE_BYTES) {
      this.#tooLong = true;
      this.#pieces = [];
      this.#size = 0;
      return;
    }
    this.#pieces.push(Buffer.from(piece));
    this.#size += piece.length;
  }

  #emitKept(): void {
    const tooLong = this.#tooLong;
    const text = tooLong ? undefined : Buffer.concat(this.#pieces, this.#size).toString('utf8');
    this.#pieces = [];
    this.#size = 0;
    this.#tooLong = false;
    this.#emit(text);
  }

  /** The next line: `undefined` for one too long to be a record. */
  #emit(text: string | undefined): void {
    this.#line += 1;
    if (this.#named && this.#line === 1 && (text === undefined || !journalFirstLine(text))) {
      // As writing refuses it: not a journal (/etc/passwd), whose every line would be a damaged one.
      throw new JournalError(
        `cannot read the journal file ${this.#file}: its first line is not a journal record; give a file that --journal-file wrote`,
      );
    }
    if (text === '') return;
    const record = text === undefined ? undefined : parseRecord(text);
    if (record) this.#sink.record(record);
    else this.#sink.damaged({ file: this.#file, line: this.#line });
  }
}

/** The state directory's journal files, opened, oldest first. */
function openJournalFiles(dir: string): { file: string; fd: number }[] {
  for (let tries = 1; ; tries += 1) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return [];
      throw unreadable(`the directory of the deletion journal ${dir}`, err);
    }
    const files = [...oldJournalsInOrder(names), ...names.filter((name) => name === JOURNAL_FILE)];
    const opened: { file: string; fd: number }[] = [];
    try {
      for (const name of files) {
        const file = join(dir, name);
        try {
          // A device or a pipe put in its place would be read without end.
          if (!statSync(file).isFile()) throw unreadable(`the deletion journal ${file}`, 'not a regular file');
          opened.push({ file, fd: openSync(file, 'r') });
        } catch (err) {
          if (err instanceof JournalError) throw err;
          // Rolled over or removed by a run meanwhile: read the directory again. A link to nothing stays.
          if (errorCode(err) === 'ENOENT' && !linkLeft(file)) {
            throw new Vanished(`the journal in ${dir} kept changing while it was read; try again`);
          }
          throw unreadable(`the deletion journal ${file}`, err);
        }
      }
      return opened;
    } catch (err) {
      for (const { fd } of opened) closeSync(fd);
      if (!(err instanceof Vanished) || tries === 3) throw err;
    }
  }
}

/** A file listed a moment ago is gone: a run rolled the journal over meanwhile. */
class Vanished extends JournalError {}

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
