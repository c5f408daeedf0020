import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeletionRecorder } from '../bulk-run.js';
import type { DeleteOutcome } from '../results.js';
import type { Plant } from '../../api/responses.js';
import type { Env } from '../../shared/env.js';
import { switchedOff } from '../../config/variables.js';
import { JournalError } from '../../shared/errors.js';
import { DeletionJournal, type JournalPlant } from './journal.js';
import { JOURNAL_FILE, stateDir } from './location.js';
import type { Pause } from './roll-over.js';
import { stateDirProblem } from './open-file.js';
import { waitForPipeReader } from './pipe-reader.js';
import { formatBaseUrl, maskUrl } from '../../shared/url.js';
import { randomUUID } from '../../shared/random.js';

/** Where a delete or prune records what it sends (docs/scripting.md, "The deletion journal"). */
export interface JournalChoice {
  /** The journal in the state directory: on unless --no-journal or PLANTS_JOURNAL=off. */
  journal: boolean;
  /** --journal-file: the run's records also go to this file. */
  journalFile?: string;
}

/** PLANTS_JOURNAL: `on` (or unset), or `off`; anything else is refused before anything is sent. */
export function journalOnByEnv(env: Env): boolean {
  return !switchedOff(env, 'PLANTS_JOURNAL');
}

/**
 * PLANTS_TEST_JOURNAL_ROLL_OVER_BYTES: a test's small rollover size, so that
 * many rollovers happen in a moment (docs/testing.md); anything but a
 * positive integer leaves the default.
 */
function testRollOverBytes(env: Env): number | undefined {
  const raw = env.PLANTS_TEST_JOURNAL_ROLL_OVER_BYTES;
  const bytes = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : 0;
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

/**
 * PLANTS_TEST_JOURNAL_PIPE_STALL_MS: how long a test lets a journal pipe's
 * reader take nothing before the run stops (docs/testing.md); anything but
 * a positive integer leaves the default (pipe-write.ts).
 */
function testStallMs(env: Env): number | undefined {
  const raw = env.PLANTS_TEST_JOURNAL_PIPE_STALL_MS;
  const ms = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : 0;
  return Number.isSafeInteger(ms) && ms > 0 ? ms : undefined;
}

/**
 * PLANTS_TEST_JOURNAL_PAUSE=<point>:<file>: a test holds the run at that
 * point of opening the journal (roll-over.ts, Pause) the first time it gets
 * there: it makes `<file>.reached`, then waits until `<file>` is there (at
 * most a minute), so that a test can make two runs meet in a given order
 * (docs/testing.md). Not for users.
 */
function testPause(env: Env): Pause | undefined {
  const [, at, file] = /^([\w-]+):(.+)$/.exec(env.PLANTS_TEST_JOURNAL_PAUSE ?? '') ?? [];
  if (at === undefined || file === undefined) return undefined;
  return (point) => {
    if (point !== at || existsSync(file)) return;
    writeFileSync(`${file}.reached`, '');
    const giveUp = Date.now() + 60_000;
    while (!existsSync(file) && Date.now() < giveUp) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  };
}

/** The state directory's journal, when the run keeps one. */
export function journalDir(choice: JournalChoice, env: Env): string | undefined {
  return choice.journal && journalOnByEnv(env) ? stateDir(env) : undefined;
}

/**
 * The check, before anything is read, listed, asked or sent, that the run
 * could open its journal: refused as openDeletionJournal would refuse it
 * (exit 2), with nothing made or written (a dry run goes no further).
 */
export function checkDeletionJournal(choice: JournalChoice, env: Env): void {
  DeletionJournal.check({ dir: journalDir(choice, env), extraFile: choice.journalFile });
}

/** A run about to send, as its journal's start record names it. */
export interface JournalOpening {
  command: string;
  /** The plan the run applies (plants apply): every record names it. */
  plan?: string;
  /** How many plants it will send for. */
  plants: number;
  // --include-protected goes on the start record: a deletion the protections would have refused is attributable.
  choice: JournalChoice & { includeProtected?: boolean };
  env: Env;
  /**
   * The profile and base URL in effect (a token the base URL holds is
   * masked on the way in), asked only when the run keeps a journal.
   */
  where: () => Promise<{ profile: string; baseUrl: URL }>;
  /** The plants it will send for, when known: a pipe refuses a run whose records it cannot take whole. */
  targets?: readonly { id: string; plant?: Plant }[];
  /** The run's stop (Ctrl-C, SIGTERM): a write waiting for a pipe's reader then waits a moment at most. */
  signal?: AbortSignal;
  /** Says a warning (a state directory others may write) or a wait (for a pipe's reader) to the person. */
  warn: (text: string) => void;
  info: (text: string) => void;
}

/**
 * Open the run's journal (the state directory's, the --journal-file, both, or
 * neither) and record its start; a JournalError (exit 2) when it cannot be
 * written, before anything is sent.
 */
export async function openDeletionJournal(opening: JournalOpening): Promise<DeletionJournal | undefined> {
  const { choice, env, targets } = opening;
  const dir = journalDir(choice, env);
  if (dir === undefined && choice.journalFile === undefined) return undefined;
  const { profile, baseUrl } = await opening.where();
  // A journal file that is a pipe is opened only once a process reads it (see waitForPipeReader).
  const files = [dir === undefined ? undefined : join(dir, JOURNAL_FILE), choice.journalFile].filter(
    (file) => file !== undefined,
  );
  if (dir !== undefined) {
    const problem = stateDirProblem(dir);
    if (problem !== undefined) opening.warn(problem);
  }
  const readersFound: (() => void)[] = [];
  try {
    for (const file of files) {
      const waiting = () =>
        opening.info(`waiting for a process to read ${file}, a pipe, to record the deletions in (Ctrl-C to stop)`);
      readersFound.push(await waitForPipeReader(file, waiting));
    }
    return await DeletionJournal.open({
      dir,
      extraFile: choice.journalFile,
      plants: opening.plants,
      start: choice.includeProtected ? { include_protected: true } : undefined,
      rollOverBytes: testRollOverBytes(env),
      pause: testPause(env),
      wait: { signal: opening.signal, stallMs: testStallMs(env) },
      targets: targets?.map(({ id, plant }) => ({ id, name: plant?.name, tag: plant?.tag })),
      run: {
        run: randomUUID(),
        command: opening.command,
        plan: opening.plan,
        profile,
        baseUrl: maskUrl(formatBaseUrl(baseUrl)),
      },
    });
  } finally {
    for (const release of readersFound) release();
  }
}

/** The journal as a bulk delete records into it: each target by its index. */
export function recorderFor(
  journal: DeletionJournal,
  targets: readonly { id: string; plant?: Plant }[],
): DeletionRecorder {
  const plant = (index: number): JournalPlant => {
    const { id, plant } = targets[index]!;
    return { id, name: plant?.name, tag: plant?.tag };
  };
  return {
    intent: (index, requestId) => journal.intent(plant(index), requestId),
    outcome: (index, outcome) => journal.outcome(plant(index), outcome.result, outcome.attempts ?? null),
    outcomeThenIntent: (index, outcome, nextIndex, requestId) =>
      journal.outcomeThenIntent(plant(index), outcome.result, outcome.attempts ?? null, plant(nextIndex), requestId),
  };
}

/**
 * Record the targets a run never sent (stopped, or an answer every later
 * request would get too) as `skipped`, so the journal holds every plant the
 * run meant to delete. Resolves to what to tell the person when that could
 * not be written, naming what is on record; undefined when all of it is.
 */
export async function recordSkipped(
  journal: DeletionJournal,
  targets: readonly { id: string; plant?: Plant }[],
  outcomes: readonly DeleteOutcome[],
): Promise<string | undefined> {
  const skipped = neverSent(targets, outcomes);
  if (skipped.length === 0) return undefined;
  try {
    await journal.skipped(skipped);
    return undefined;
  } catch (err) {
    return skippedUnrecorded(journal, err);
  }
}

/** recordSkipped for a run quitting now (a second Ctrl-C): synchronous, a full pipe not waited on. */
export function recordSkippedNow(
  journal: DeletionJournal,
  targets: readonly { id: string; plant?: Plant }[],
  outcomes: readonly DeleteOutcome[],
): string | undefined {
  const skipped = neverSent(targets, outcomes);
  if (skipped.length === 0) return undefined;
  try {
    journal.skippedNow(skipped);
    return undefined;
  } catch (err) {
    return skippedUnrecorded(journal, err);
  }
}

/** The targets whose outcome is `skipped`, never sent. */
function neverSent(
  targets: readonly { id: string; plant?: Plant }[],
  outcomes: readonly DeleteOutcome[],
): JournalPlant[] {
  const skipped: JournalPlant[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.result.result !== 'skipped' || outcome.result.request_id !== null) return;
    const { id, plant } = targets[index]!;
    skipped.push({ id, name: plant?.name, tag: plant?.tag });
  });
  return skipped;
}

function skippedUnrecorded(journal: DeletionJournal, err: unknown): string {
  if (!(err instanceof JournalError)) throw err;
  return `${err.message}: plants history ${journal.run} --result skipped lists only those`;
}

/** Where the plants a run stopped by its journal never sent are on record as skipped: in the files that did not fail. */
function skippedOnRecord(journal: DeletionJournal, unrecorded: string | undefined): string {
  const healthy = journal.healthyPaths;
  if (healthy.length > 0 && unrecorded === undefined) return `on record as skipped in ${healthy.join(', ')} only`;
  return `not on record as skipped: plants history ${journal.run} lists only those sent`;
}

/** The error a run stopped by a journal that could no longer be written ends with: what was and was not recorded. */
export function journalStopped(
  failure: unknown,
  outcomes: readonly DeleteOutcome[],
  journal: DeletionJournal,
  /** What recordSkipped said went wrong, if it did. */
  skippedUnrecorded: string | undefined,
): unknown {
  if (!(failure instanceof JournalError)) return failure;
  const sent = outcomes.filter((o) => o.result.request_id !== null);
  const deleted = sent.filter((o) => o.result.result === 'deleted' || o.result.result === 'gone').length;
  const notSent = outcomes.length - sent.length;
  const unrecorded = journal.unrecordedOutcomes;
  const others = sent.length - deleted;
  const parts = [
    `${deleted} deleted`,
    ...(others > 0 ? [`${others} not deleted or unknown (see the results)`] : []),
    `${notSent} not sent${notSent > 0 ? ` (${skippedOnRecord(journal, skippedUnrecorded)})` : ''}`,
    ...(unrecorded > 0 ? [`the outcome of ${unrecorded} not recorded (their intent is: they read as unknown)`] : []),
  ];
  return new JournalError(`${failure.message}; no further DELETE was sent: ${parts.join(', ')}`);
}
