import { closeSync, fchmodSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DeleteResult } from '../api/delete-many.js';
import { JournalError } from '../errors.js';
import { errorCode, fsReason } from '../shared/fs-reason.js';
import { makeDirectory } from '../shared/make-directory.js';
import type { Redact } from '../shared/text.js';
import { JOURNAL_FILE } from './location.js';

/** The journal rolls over when a run starts and finds it this large... */
export const ROLL_OVER_BYTES = 16 * 1024 * 1024;
/** ...keeping this many old files beside it (the oldest go first). */
export const KEEP_OLD_FILES = 4;
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
}

const WAY_ON = 'run with --no-journal (or PLANTS_JOURNAL=off) to delete without a record';
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
  readonly #redact: Redact;
  /** Intents written whose outcome is not (yet) on record, by request id. */
  readonly #open = new Set<string>();

  private constructor(files: JournalFile[], run: JournalRun, redact: Redact) {
    this.#files = files;
    const { command, profile, baseUrl } = run;
    this.#runId = run.run;
    this.#shared = {
      run: JSON.stringify(run.run),
      rest: JSON.stringify({ command, profile: redact(profile), base_url: redact(baseUrl) }).slice(1, -1),
    };
    this.#redact = redact;
  }

  /**
   * Open the journal in `dir` (made 0700 if missing; rolled over if large)
   * and `extraFile` if given, and record the run's start: a JournalError,
   * naming the file, the reason and the way on, if any of it fails.
   */
  static open(options: {
    dir?: string;
    extraFile?: string;
    run: JournalRun;
    redact: Redact;
    plants: number;
    /** More fields for the start record (e.g. `include_protected`). */
    start?: Record<string, unknown>;
  }): DeletionJournal {
    const files: JournalFile[] = [];
    const opened = (path: string, wayOn: string, own: boolean) => {
      try {
        const fd = openSync(path, 'a', 0o600);
        files.push({ path, fd, wayOn });
        if (!own) return;
        try {
          // The state directory's journal is kept private, an older one too; a --journal-file is the user's to set.
          fchmodSync(fd, 0o600);
        } catch {
          // Not ours to change: left as it is.
        }
      } catch (err) {
        throw new JournalError(
          `cannot write the deletion journal ${path}: ${fsReason(err)}; nothing was deleted; ${wayOn}`,
        );
      }
    };
    try {
      if (options.dir !== undefined) {
        try {
          makeDirectory(options.dir);
        } catch (err) {
          throw new JournalError(
            `cannot make the directory of the deletion journal ${options.dir}: ${fsReason(err)}; nothing was deleted; ${WAY_ON}`,
          );
        }
        rollOver(options.dir);
        opened(join(options.dir, JOURNAL_FILE), WAY_ON, true);
      }
      if (options.extraFile !== undefined) opened(options.extraFile, OTHER_FILE, false);
      const journal = new DeletionJournal(files, options.run, options.redact);
      journal.#write(
        { event: 'start', plants: options.plants, ...options.start },
        (wayOn) => `nothing was deleted; ${wayOn}`,
      );
      return journal;
    } catch (err) {
      for (const { fd } of files) closeSync(fd);
      throw err;
    }
  }

  /** Before the DELETE of `plant` leaves. Throws a JournalError when it cannot be recorded: then it must not be sent. */
  intent(plant: JournalPlant, requestId: string): void {
    const fields = { ...this.#plant(plant), request_id: requestId };
    const took: JournalFile[] = [];
    try {
      this.#write({ event: 'intent', ...fields }, () => 'it was not sent', took);
    } catch (err) {
      // The files that took the intent learn that the DELETE was not sent after all (best effort).
      try {
        this.#write(
          { event: 'outcome', ...fields, result: 'skipped', status: null, attempts: null },
          () => '',
          [],
          took,
        );
      } catch {
        // Then it reads as unknown there: on the safe side.
      }
      throw err;
    }
    this.#open.add(requestId);
  }

  /** When the outcome of a DELETE is known. */
  outcome(plant: JournalPlant, result: DeleteResult, attempts: number | null): void {
    this.#write(
      {
        event: 'outcome',
        ...this.#plant(plant),
        request_id: result.request_id,
        result: result.result,
        status: result.status,
        attempts,
      },
      () => 'its intent is on record, so it reads as unknown',
    );
    if (result.request_id !== null) this.#open.delete(result.request_id);
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

  close(): void {
    for (const { fd } of this.#files.splice(0)) {
      try {
        closeSync(fd);
      } catch {
        // Closing cannot lose what was written already.
      }
    }
  }

  #plant(plant: JournalPlant): Record<string, string> {
    const fields: Record<string, string> = { id: this.#redact(plant.id) };
    for (const key of ['name', 'tag'] as const) {
      const value = plant[key];
      // Masked before it is cut: a cut could leave a piece of the token that no mask would find.
      if (typeof value === 'string') fields[key] = cut(this.#redact(value));
    }
    return fields;
  }

  /** One record, one line, one write per file: whole, or a JournalError saying `then` of the DELETE it was for. */
  #write(
    fields: Record<string, unknown>,
    then: (wayOn: string) => string,
    took: JournalFile[] = [],
    files: readonly JournalFile[] = this.#files,
  ): void {
    // {"v":1,"event":…,"run":…,"time":…,"command":…,"profile":…,"base_url":…, then the record's own fields}
    const { event, ...own } = fields;
    const head = `{"v":1,"event":${JSON.stringify(event)},"run":${this.#shared.run},"time":"${new Date().toISOString()}",${this.#shared.rest}`;
    const tail = JSON.stringify(own);
    const line = Buffer.from(`${head}${tail === '{}' ? '}' : `,${tail.slice(1)}`}\n`);
    for (const file of files) {
      try {
        const written = writeSync(file.fd, line);
        // A regular file takes a whole line at once; anything less means it is full.
        if (written !== line.length) {
          // End the piece (best effort), so the next run's line is not glued to it.
          if (written > 0) tryWrite(file.fd, '\n');
          throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
        }
      } catch (err) {
        throw new JournalError(`cannot write the deletion journal ${file.path}: ${fsReason(err)}; ${then(file.wayOn)}`);
      }
      took.push(file);
    }
  }
}

function tryWrite(fd: number, text: string): void {
  try {
    writeSync(fd, text);
  } catch {
    // Still full: the piece stays a damaged line, which history skips with a warning.
  }
}

function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

/** Old journals are named by when they were rolled over, so names sort by age. */
export const OLD_JOURNAL = /^deletions\.\d{8}T\d{6}Z\.\d+\.jsonl$/;

/**
 * Keep the journal bounded: when it has reached ROLL_OVER_BYTES, rename it
 * (an atomic step another run cannot half-see) and remove all but the
 * KEEP_OLD_FILES newest old ones. Runs racing to do it lose nothing.
 */
function rollOver(dir: string): void {
  const path = join(dir, JOURNAL_FILE);
  try {
    if (statSync(path).size < ROLL_OVER_BYTES) return;
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    renameSync(path, join(dir, `deletions.${stamp}.${process.pid}.jsonl`));
  } catch (err) {
    // Missing: nothing to roll over (or another run just did).
    if (errorCode(err) === 'ENOENT') return;
    throw new JournalError(
      `cannot roll over the deletion journal ${path}: ${fsReason(err)}; nothing was deleted; ${WAY_ON}`,
    );
  }
  const old = readdirSync(dir)
    .filter((name) => OLD_JOURNAL.test(name))
    .sort();
  for (const name of old.slice(0, Math.max(0, old.length - KEEP_OLD_FILES))) {
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Another run removed it first.
    }
  }
}
