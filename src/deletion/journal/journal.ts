import type { DeleteResult } from '../results.js';
import { JournalError } from '../../shared/errors.js';
import { maskSecrets } from '../../secrets/registry.js';
import { printable } from '../../shared/text.js';
import { closeJournalFile, JournalWriter, WriteFailed, type JournalFile, type Then } from './file-writer.js';
import { PIPE_BUF } from './pipe-write.js';
import { checkJournalPlaces, closeAll, openJournalFiles, type JournalPlaces } from './opening.js';
import type { Pause } from './roll-over.js';
import { RunRecords, type JournalPlant, type JournalRun } from './record-lines.js';

export { failedByStop } from './file-writer.js';
export type { JournalPlant } from './record-lines.js';

/** Said of an intent a file took all but its line break of, which it was given after. */
const INTENT_WHOLE = 'its intent is on record there in full, so it reads as unknown';
/** What a failed intent means for its DELETE. */
const notSent: Then = (_, whole) => (whole > 0 ? `it was not sent, though ${INTENT_WHOLE}` : 'it was not sent');
/** What a failed outcome record means for its DELETE. */
const OUTCOME_NOT_RECORDED = 'its intent is on record, so it reads as unknown';

/**
 * The deletion journal: an append-only JSON Lines file in the state
 * directory (and, with --journal-file, a second one) where every DELETE is
 * recorded before its request leaves (`intent`) and again when its outcome is
 * known (`outcome`). Each record is one write of one whole line to files
 * opened for appending, so concurrent runs never interleave within a line,
 * and a run killed at any point (SIGKILL included) leaves every DELETE it
 * sent on record: an intent without an outcome reads as unknown.
 * (record-lines.ts makes the lines, file-writer.ts writes them, opening.ts opens the files.)
 */
export class DeletionJournal {
  readonly #writer: JournalWriter;
  readonly #records: RunRecords;
  readonly #runId: string;
  /** Intents written whose outcome is not (yet) on record, by request id. */
  readonly #open = new Set<string>();
  /** Ids whose intent failed part-way: the files that took it have their `skipped` outcome already. */
  readonly #skippedAlready = new Set<string>();

  private constructor(files: JournalFile[], run: JournalRun, wait: { signal?: AbortSignal; stallMs?: number }) {
    this.#writer = new JournalWriter(files, wait);
    this.#records = new RunRecords(run);
    this.#runId = run.run;
  }

  /**
   * Open the journal in `dir` (made 0700 if missing; rolled over if large)
   * and `extraFile` if given, and record the run's start: a JournalError,
   * naming the file, the reason and the way on, if any of it fails.
   */
  static async open(
    options: JournalPlaces & {
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
    },
  ): Promise<DeletionJournal> {
    const files = openJournalFiles(options);
    try {
      const journal = new DeletionJournal(files, options.run, options.wait ?? {});
      const pipe = files.find((file) => file.pipe);
      if (pipe && options.targets) journal.#fitPipe(pipe.path, options.targets);
      await journal.#writer.write(
        journal.#records.line('start', JSON.stringify({ plants: options.plants, ...options.start }).slice(1, -1)),
        (wayOn) => `nothing was deleted; ${wayOn}`,
      );
      return journal;
    } catch (err) {
      closeAll(files);
      throw err;
    }
  }

  /**
   * What open() would refuse, found without writing or making anything (a
   * dry run's prediction of the real run): a JournalError in open()'s words
   * when the state directory could not be made, or a file could not be
   * opened for appending.
   */
  static check(options: JournalPlaces): void {
    checkJournalPlaces(options);
  }

  /** Before the DELETE of `plant` leaves. Throws a JournalError when it cannot be recorded: then it must not be sent. */
  async intent(plant: JournalPlant, requestId: string): Promise<void> {
    await this.#intent('', plant, requestId, notSent);
  }

  /** When the outcome of a DELETE is known. */
  async outcome(plant: JournalPlant, result: DeleteResult, attempts: number | null): Promise<void> {
    try {
      await this.#writer.write(this.#records.outcome(plant, result, attempts), (_, whole) =>
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
      this.#records.outcome(plant, result, attempts),
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
    const fields = `${this.#records.plant(plant)},"request_id":${JSON.stringify(requestId)}`;
    const intent = this.#records.line('intent', fields);
    // Long lines (long ids, names full of escapes) go in one write each, so that a pipe takes each whole.
    const both = before + intent;
    const together = before !== '' && Buffer.byteLength(both) <= PIPE_BUF;
    if (before !== '' && !together) {
      await this.#writer.write(before, then);
      recorded();
    }
    const took: JournalFile[] = [];
    try {
      await this.#writer.write(together ? both : intent, together ? then : notSent, took);
    } catch (err) {
      // The outcome before it made it whole (only the intent was cut): it is on record.
      if (together && err instanceof WriteFailed && err.whole > 0) recorded();
      // The files that took the intent learn that the DELETE was not sent after all (best effort).
      try {
        await this.#writer.write(
          this.#records.line('outcome', `${fields},"result":"skipped","status":null,"attempts":null`),
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
      const line = this.#records.outcome(plant, { id: plant.id, result: 'not_found', ...longest }, 999);
      const bytes = Buffer.byteLength(line);
      if (bytes <= PIPE_BUF) continue;
      // Masked before it is cut: a cut could leave a piece of a secret that no mask would find.
      const masked = maskSecrets(plant.id);
      const id = masked.length > 40 ? `${masked.slice(0, 39)}…` : masked;
      throw new JournalError(
        `cannot write the deletion journal ${path}: the records of plant ${printable(id)} would be ${bytes} bytes, more than a pipe takes whole (${PIPE_BUF}), so another run's records could tear them; nothing was deleted; name a regular --journal-file, or leave that plant out`,
      );
    }
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
      await this.#writer.write(lines, then, [], files);
      then.recorded += count;
    }
  }

  /** skipped(), for a run quitting now (a second Ctrl-C): synchronous, and a full pipe is not waited on. */
  skippedNow(plants: readonly JournalPlant[]): void {
    const [files, batches, then] = this.#skippedWrites(plants);
    for (const { lines, count } of batches) {
      this.#writer.writeNow(lines, then, [], files);
      then.recorded += count;
    }
  }

  /** The files skipped() writes, its writes (whole lines, a pipe's worth each), and what a failed one says. */
  #skippedWrites(
    plants: readonly JournalPlant[],
  ): [JournalFile[], { lines: string; count: number }[], Then & { recorded: number }] {
    // The files a write failed on are left as they are: what is on record there is what the failure said.
    const files = this.#writer.healthy;
    const batches: { lines: string; count: number }[] = [];
    let batch = { lines: '', count: 0, bytes: 0 };
    for (const plant of plants) {
      if (this.#skippedAlready.has(plant.id)) continue;
      const line = this.#records.skipped(plant);
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
    return this.#writer.files.map((file) => file.path);
  }

  /** The files no write has failed on: where records still go. */
  get healthyPaths(): string[] {
    return this.#writer.healthy.map((file) => file.path);
  }

  /** Set once closed: the files stay listed, for the messages that follow. */
  #closed = false;

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const file of this.#writer.files) closeJournalFile(file);
  }
}
