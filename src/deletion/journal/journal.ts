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
import type { DeleteResult } from '../results.js';
import { JournalError } from '../../shared/errors.js';
import { errorCode, fsReason } from '../../shared/fs-reason.js';
import { makeDirectory } from '../../shared/make-directory.js';
import { maskSecrets } from '../../secrets/registry.js';
import { printable } from '../../shared/text.js';
import { JOURNAL_FILE } from './location.js';
import {
  PIPE_BUF,
  PipeStalled,
  PipeWaitStopped,
  STALL_MS,
  writeLines,
  writeLinesNow,
  type PipeWait,
} from './pipe-write.js';
import { checkJournalFile, openJournalFile } from './open-file.js';
import { ROLL_OVER_BYTES, rollOver, writerMayKeep, type Pause } from './roll-over.js';
import { markWriter, type WriterMark } from './writers.js';

export { KEEP_OLD_FILES, oldJournalsInOrder, ROLL_OVER_BYTES } from './roll-over.js';
/** Names and tags are cut to this many characters in a record: a service's text is not bounded. */
const MAX_TEXT = 200;

/** What every record of a run carries besides its own fields. */
export interface JournalRun {
  /** A UUID shared by the run's records. */
  run: string;
  command: string;
  profile: string;
  /** The base URL, credentials masked. */
  baseUrl: string;
}

/** A plant as the run knows it: always its id; its name and tag when it listed or looked it up. */
export interface JournalPlant {
  id: string;
  name?: unknown;
  tag?: unknown;
}

/** A file the journal writes, and what to do when it cannot. */
interface JournalFile {
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

/** How many times a run opens the journal again when rollovers keep removing the file it opened. */
const MAX_OPENS = 100;

/** How long, once the run is stopping (Ctrl-C, SIGTERM), a write still waits for a pipe's reader to make room. */
const STOP_GRACE_MS = 1000;

/** A write that failed, with how many of its lines are on record whole in the file it failed on. */
class WriteFailed extends JournalError {
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

const WAY_ON = 'run with --no-journal (or PLANTS_JOURNAL=off) to delete without a record';
/** What a failed write says of the DELETE it was for: `whole`, how many of its lines are on record all the same. */
type Then = (wayOn: string, whole: number) => string;
/** Said of an intent a file took all but its line break of, which it was given after. */
const INTENT_WHOLE = 'its intent is on record there in full, so it reads as unknown';
/** What a failed intent means for its DELETE. */
const notSent: Then = (_, whole) => (whole > 0 ? `it was not sent, though ${INTENT_WHOLE}` : 'it was not sent');
/** What a failed outcome record means for its DELETE. */
const OUTCOME_NOT_RECORDED = 'its intent is on record, so it reads as unknown';
/** The way on for a --journal-file, which was asked for by name. */
const OTHER_FILE = 'name a writable --journal-file, or leave it out';

/**
 * The deletion journal: an append-only JSON Lines file in the state
 * directory (and, with --journal-file, a second one) where every DELETE is
 * recorded before its request leaves (`intent`) and again when its outcome is
 * known (`outcome`). Each record is one write of one whole line to files
 * opened for appending, so concurrent runs never interleave within a line,
 * and a run killed at any point (SIGKILL included) leaves every DELETE it
 * sent on record: an intent without an outcome reads as unknown.
 */
export class DeletionJournal {
  readonly #files: JournalFile[];
  /** The fields every record of the run shares, as JSON text without braces: made once. */
  readonly #shared: { run: string; rest: string };
  readonly #runId: string;
  /** Intents written whose outcome is not (yet) on record, by request id. */
  readonly #open = new Set<string>();
  /** The files a write failed on: they take no more records (the run stops sending). */
  readonly #failed = new Set<JournalFile>();
  /** Ids whose intent failed part-way: the files that took it have their `skipped` outcome already. */
  readonly #skippedAlready = new Set<string>();
  /** How writes wait for a pipe's reader. */
  readonly #wait: PipeWait;

  private constructor(files: JournalFile[], run: JournalRun, wait: { signal?: AbortSignal; stallMs?: number }) {
    this.#files = files;
    this.#wait = { signal: wait.signal, stallMs: wait.stallMs ?? STALL_MS };
    // Once the run is stopping, a pipe's reader gets a moment more, no longer: the run must end within seconds.
    const stopping = () => (this.#wait.stopsAt ??= Date.now() + STOP_GRACE_MS);
    if (wait.signal?.aborted) stopping();
    else wait.signal?.addEventListener('abort', stopping, { once: true });
    const { command, profile, baseUrl } = run;
    this.#runId = run.run;
    this.#shared = {
      run: JSON.stringify(run.run),
      rest: JSON.stringify({ command, profile: maskSecrets(profile), base_url: maskSecrets(baseUrl) }).slice(1, -1),
    };
  }

  /**
   * Open the journal in `dir` (made 0700 if missing; rolled over if large)
   * and `extraFile` if given, and record the run's start: a JournalError,
   * naming the file, the reason and the way on, if any of it fails.
   */
  static async open(options: {
    dir?: string;
    extraFile?: string;
    run: JournalRun;
    plants: number;
    /** More fields for the start record (e.g. `include_protected`). */
    start?: Record<string, unknown>;
    /** Where the state directory's journal rolls over (tests make it small); default ROLL_OVER_BYTES. */
    rollOverBytes?: number;
    /** The plants the run will send for, when known: on a pipe, each one's records must fit in one whole write. */
    targets?: readonly JournalPlant[];
    /** A test's hold at a point of the rollover (docs/testing.md). */
    pause?: Pause;
    /** The run's stop (Ctrl-C, SIGTERM), which ends a wait for a pipe's reader; how long a reader may take nothing. */
    wait?: { signal?: AbortSignal; stallMs?: number };
  }): Promise<DeletionJournal> {
    const files: JournalFile[] = [];
    const opened = (path: string, wayOn: string, own: boolean) => {
      try {
        const fd = openJournalFile(path, own);
        const stats = fstatSync(fd);
        files.push({ path, fd, wayOn, pipe: stats.isFIFO(), regular: stats.isFile() });
        endPieceLeft(fd, path);
      } catch (err) {
        if (err instanceof JournalError) throw err;
        throw cannotWrite(path, err, wayOn);
      }
    };
    // A --journal-file that is not a journal is refused before the state directory's is touched.
    if (options.extraFile !== undefined) checkJournalFile(options.extraFile, false);
    try {
      if (options.dir !== undefined) {
        try {
          makeDirectory(options.dir);
        } catch (err) {
          throw cannotMake(options.dir, err);
        }
        rollOver(options.dir, options.rollOverBytes ?? ROLL_OVER_BYTES, WAY_ON, options.pause);
        const dir = options.dir;
        // Opened and marked, then kept only if no rollover is removing it (roll-over.ts, removeOld, says why
        // that order loses nothing); else opened again: a rollover only removes old files, so this ends.
        for (let tries = 1; ; tries += 1) {
          opened(join(dir, JOURNAL_FILE), WAY_ON, true);
          const file = files.at(-1)!;
          if (tries === 1) options.pause?.('writer-opened');
          try {
            file.mark = markWriter(dir, file.fd);
            if (writerMayKeep(dir, file.fd)) break;
          } catch (err) {
            throw cannotMark(dir, err);
          }
          files.pop();
          file.mark.remove();
          closeSync(file.fd);
          if (tries === MAX_OPENS) throw cannotMark(dir, new Error('other runs kept rolling the journal over'));
        }
      }
      if (options.extraFile !== undefined) opened(options.extraFile, OTHER_FILE, false);
      const journal = new DeletionJournal(files, options.run, options.wait ?? {});
      const pipe = files.find((file) => file.pipe);
      if (pipe && options.targets) journal.#fitPipe(pipe.path, options.targets);
      await journal.#write(
        journal.#line('start', JSON.stringify({ plants: options.plants, ...options.start }).slice(1, -1)),
        (wayOn) => `nothing was deleted; ${wayOn}`,
      );
      return journal;
    } catch (err) {
      for (const { fd, mark } of files) {
        mark?.remove();
        closeSync(fd);
      }
      throw err;
    }
  }

  /**
   * What open() would refuse, found without writing or making anything (a
   * dry run's prediction of the real run): a JournalError in open()'s words
   * when the state directory could not be made, or a file could not be
   * opened for appending.
   */
  static check(options: { dir?: string; extraFile?: string }): void {
    const files: [path: string, wayOn: string][] = [];
    if (options.dir !== undefined) {
      try {
        couldMakeDirectory(options.dir);
      } catch (err) {
        throw cannotMake(options.dir, err);
      }
      // A directory the run would make holds no journal yet: nothing more to check there.
      if (existsSync(options.dir)) files.push([join(options.dir, JOURNAL_FILE), WAY_ON]);
    }
    if (options.extraFile !== undefined) files.push([options.extraFile, OTHER_FILE]);
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
        accessSync(options.dir!, constants.W_OK | constants.X_OK);
      } catch (err) {
        throw cannotMark(options.dir!, err);
      }
    }
  }

  /** Before the DELETE of `plant` leaves. Throws a JournalError when it cannot be recorded: then it must not be sent. */
  async intent(plant: JournalPlant, requestId: string): Promise<void> {
    await this.#intent('', plant, requestId, notSent);
  }

  /** When the outcome of a DELETE is known. */
  async outcome(plant: JournalPlant, result: DeleteResult, attempts: number | null): Promise<void> {
    try {
      await this.#write(this.#outcomeLine(plant, result, attempts), (_, whole) =>
        whole > 0 ? 'its outcome is on record all the same' : OUTCOME_NOT_RECORDED,
      );
    } catch (err) {
      // Cut short of its line break alone: on record whole.
      if (err instanceof WriteFailed && err.whole > 0 && result.request_id !== null) {
        this.#open.delete(result.request_id);
      }
      throw err;
    }
    if (result.request_id !== null) this.#open.delete(result.request_id);
  }

  /**
   * outcome(), then intent() of the DELETE a bulk delete goes on to: both
   * lines in one write to each file, so a run makes half the writes. Throws
   * a JournalError when they cannot be recorded: then the next DELETE must
   * not be sent, and the outcome reads as unknown where it is missing.
   */
  async outcomeThenIntent(
    plant: JournalPlant,
    result: DeleteResult,
    attempts: number | null,
    next: JournalPlant,
    requestId: string,
  ): Promise<void> {
    await this.#intent(
      this.#outcomeLine(plant, result, attempts),
      next,
      requestId,
      (_, whole) =>
        whole === 0
          ? OUTCOME_NOT_RECORDED
          : `its outcome is on record; the next DELETE was not sent${whole > 1 ? `, though ${INTENT_WHOLE}` : ''}`,
      () => {
        if (result.request_id !== null) this.#open.delete(result.request_id);
      },
    );
  }

  /**
   * `before` (whole lines, or nothing), then the intent of the DELETE of
   * `plant`, in one write to each file; `recorded` once `before` is on record.
   */
  async #intent(
    before: string,
    plant: JournalPlant,
    requestId: string,
    then: Then,
    recorded: () => void = () => {},
  ): Promise<void> {
    const fields = `${this.#plant(plant)},"request_id":${JSON.stringify(requestId)}`;
    const intent = this.#line('intent', fields);
    // Long lines (long ids, names full of escapes) go in one write each, so that a pipe takes each whole.
    const both = before + intent;
    const together = before !== '' && Buffer.byteLength(both) <= PIPE_BUF;
    if (before !== '' && !together) {
      await this.#write(before, then);
      recorded();
    }
    const took: JournalFile[] = [];
    try {
      await this.#write(together ? both : intent, together ? then : notSent, took);
    } catch (err) {
      // The outcome before it made it whole (only the intent was cut): it is on record.
      if (together && err instanceof WriteFailed && err.whole > 0) recorded();
      // The files that took the intent learn that the DELETE was not sent after all (best effort).
      try {
        await this.#write(
          this.#line('outcome', `${fields},"result":"skipped","status":null,"attempts":null`),
          () => '',
          [],
          took,
        );
      } catch {
        // Then it reads as unknown there: on the safe side.
      }
      this.#skippedAlready.add(plant.id);
      throw err;
    }
    if (together) recorded();
    this.#open.add(requestId);
  }

  /**
   * Refuse, before anything is sent, a run one of whose records would be
   * more than a pipe takes whole (a 3.8 KB id): concurrent runs writing the
   * same pipe could tear it. An outcome is a record's longest form.
   */
  #fitPipe(path: string, targets: readonly JournalPlant[]): void {
    const longest = { request_id: '00000000-0000-4000-8000-000000000000', status: 404 } as const;
    for (const plant of targets) {
      const line = this.#outcomeLine(plant, { id: plant.id, result: 'not_found', ...longest }, 999);
      const bytes = Buffer.byteLength(line);
      if (bytes <= PIPE_BUF) continue;
      const id = plant.id.length > 40 ? `${plant.id.slice(0, 39)}…` : plant.id;
      throw new JournalError(
        `cannot write the deletion journal ${path}: the records of plant ${printable(maskSecrets(id))} would be ${bytes} bytes, more than a pipe takes whole (${PIPE_BUF}), so another run's records could tear them; nothing was deleted; name a regular --journal-file, or leave that plant out`,
      );
    }
  }

  #outcomeLine(plant: JournalPlant, result: DeleteResult, attempts: number | null): string {
    return this.#line(
      'outcome',
      `${this.#plant(plant)},"request_id":${JSON.stringify(result.request_id ?? null)},"result":${JSON.stringify(result.result)},"status":${JSON.stringify(result.status ?? null)},"attempts":${JSON.stringify(attempts)}`,
    );
  }

  /**
   * The plants the run meant to delete but never sent (a stop, a refused
   * token, a service asking for fewer requests): an `outcome` of `skipped`
   * each, so that `plants history <run> --result skipped` lists what is left.
   * Whole lines, a pipe's worth per write. Throws a JournalError saying how
   * many are on record when a write fails.
   */
  async skipped(plants: readonly JournalPlant[]): Promise<void> {
    const [files, batches, then] = this.#skippedWrites(plants);
    for (const { lines, count } of batches) {
      await this.#write(lines, then, [], files);
      then.recorded += count;
    }
  }

  /** skipped(), for a run quitting now (a second Ctrl-C): synchronous, and a full pipe is not waited on. */
  skippedNow(plants: readonly JournalPlant[]): void {
    const [files, batches, then] = this.#skippedWrites(plants);
    for (const { lines, count } of batches) {
      this.#writeNow(lines, then, [], files);
      then.recorded += count;
    }
  }

  /** The files skipped() writes, its writes (whole lines, a pipe's worth each), and what a failed one says. */
  #skippedWrites(
    plants: readonly JournalPlant[],
  ): [JournalFile[], { lines: string; count: number }[], Then & { recorded: number }] {
    // The files a write failed on are left as they are: what is on record there is what the failure said.
    const files = this.#files.filter((file) => !this.#failed.has(file));
    const batches: { lines: string; count: number }[] = [];
    let batch = { lines: '', count: 0, bytes: 0 };
    for (const plant of plants) {
      if (this.#skippedAlready.has(plant.id)) continue;
      const line = this.#line(
        'outcome',
        `${this.#plant(plant)},"request_id":null,"result":"skipped","status":null,"attempts":null`,
      );
      const size = Buffer.byteLength(line);
      if (batch.count > 0 && batch.bytes + size > PIPE_BUF) {
        batches.push(batch);
        batch = { lines: '', count: 0, bytes: 0 };
      }
      batch.lines += line;
      batch.bytes += size;
      batch.count += 1;
    }
    if (batch.count > 0) batches.push(batch);
    const then = Object.assign(
      (_: string, whole: number) =>
        `${then.recorded + whole} of the ${plants.length} never sent are on record as skipped there`,
      { recorded: 0 },
    );
    return [files, batches, then];
  }

  /** The run's id, which its records share: `plants history <run>` lists them. */
  get run(): string {
    return this.#runId;
  }

  /** How many DELETEs were sent whose outcome is not on record. */
  get unrecordedOutcomes(): number {
    return this.#open.size;
  }

  /** Where the records go, for messages. */
  get paths(): string[] {
    return this.#files.map((file) => file.path);
  }

  /** The files no write has failed on: where records still go. */
  get healthyPaths(): string[] {
    return this.#files.filter((file) => !this.#failed.has(file)).map((file) => file.path);
  }

  /** Set once closed: the files stay listed, for the messages that follow. */
  #closed = false;

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const { fd, mark } of this.#files) {
      mark?.remove();
      try {
        closeSync(fd);
      } catch {
        // Closing cannot lose what was written already.
      }
    }
  }

  /** The plant's fields of a record, as JSON text without braces: its id, and its name and tag when known. */
  #plant(plant: JournalPlant): string {
    let fields = `"id":${JSON.stringify(maskSecrets(plant.id))}`;
    for (const key of ['name', 'tag'] as const) {
      const value = plant[key];
      // Masked before it is cut: a cut could leave a piece of the token that no mask would find.
      if (typeof value === 'string') fields += `,"${key}":${JSON.stringify(cut(maskSecrets(value)))}`;
    }
    return fields;
  }

  /**
   * A record's line. `fields` are its own, as JSON text without braces (made
   * as text: a record is written for every request, and spreading objects
   * into one cost more than the write).
   */
  #line(event: string, fields: string): string {
    // {"v":1,"event":…,"run":…,"time":…,"command":…,"profile":…,"base_url":…, then the record's own fields}
    return `{"v":1,"event":"${event}","run":${this.#shared.run},"time":"${isoNow()}",${this.#shared.rest}${fields === '' ? '' : `,${fields}`}}\n`;
  }

  /** Whole lines, in one write per file: all of them, or a JournalError saying `then` of the DELETE they were for. */
  async #write(
    lines: string,
    then: Then,
    took: JournalFile[] = [],
    files: readonly JournalFile[] = this.#files,
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

  /** #write for a run quitting now: synchronous, a full pipe not waited on. */
  #writeNow(lines: string, then: Then, took: JournalFile[] = [], files: readonly JournalFile[] = this.#files): void {
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

/** The last record's time, in milliseconds and as written: a run records several DELETEs a millisecond. */
let lastTime = Number.NaN;
let lastIso = '';

/** Now, as an ISO 8601 UTC time with milliseconds (`toISOString`, which takes a microsecond, once a millisecond). */
function isoNow(): string {
  const now = Date.now();
  if (now !== lastTime) {
    lastIso = new Date(now).toISOString();
    lastTime = now;
  }
  return lastIso;
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
function wholeLines(text: string, written: number, ended: boolean): number {
  let whole = 0;
  let offset = 0;
  for (const line of text.split('\n').slice(0, -1)) {
    const end = offset + Buffer.byteLength(line);
    if (end + 1 <= written || (ended && end === written)) whole += 1;
    if (end + 1 > written) break;
    offset = end + 1;
  }
  return whole;
}

function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
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
