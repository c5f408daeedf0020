import type { DeleteResultKind } from '../results.js';
import type { JournalRecord } from './record.js';

/** The results a plant of a run can have, in the order counts are shown. */
export const RECORDED_RESULTS = ['deleted', 'gone', 'not_found', 'unknown', 'failed', 'skipped'] as const;

export type ResultCounts = Record<(typeof RECORDED_RESULTS)[number], number>;

/** One plant of a run: its last word on record. */
export interface PlantOutcome {
  id: string;
  name: string | null;
  tag: string | null;
  /** An intent with no outcome is `unknown`: the run stopped while the request was in flight. */
  result: DeleteResultKind;
  status: number | null;
  request_id: string | null;
  attempts: number | null;
  /** When the outcome was recorded, or the intent when there is none. */
  time: string;
}

export interface RunSummary {
  run: string;
  /** When the run started. */
  time: string;
  command: string;
  profile: string;
  base_url: string;
  /** The plan it applied (plants apply), if it did. */
  plan?: string;
  /** How many it was about to delete when it started (at least as many as are on record). */
  planned: number;
  /** How many of its plants had each result; those planned but not on record by id count as unknown. */
  counts: ResultCounts;
  /** How many plants are on record by id. */
  recorded: number;
  /** Whether one of its records names the plant asked for (RunCollector's `id`). */
  hasId: boolean;
  /** Its plants in the order they were recorded: only for the runs RunCollector was asked to keep them of. */
  plants?: PlantOutcome[];
}

interface RunState {
  summary: RunSummary;
  /** The start record's count. */
  started: number;
  /** Intents whose outcome has not come (yet): request id, and the plant when kept. */
  pending: Map<string, PlantOutcome | undefined>;
}

const noCounts = (): ResultCounts => Object.fromEntries(RECORDED_RESULTS.map((result) => [result, 0])) as ResultCounts;

/**
 * The runs of a journal, gathered record by record as it is read, in memory
 * that grows with the number of runs, not of records: each run keeps its
 * counts and its requests in flight; only the runs `keepPlants` picks keep
 * their plants (`plants history <run>`).
 */
export class RunCollector {
  readonly #runs = new Map<string, RunState>();
  readonly #keepPlants: (run: string) => boolean;
  readonly #id: string | undefined;

  constructor(options: { keepPlants?: (run: string) => boolean; id?: string } = {}) {
    this.#keepPlants = options.keepPlants ?? (() => false);
    this.#id = options.id;
  }

  add(record: JournalRecord): void {
    let state = this.#runs.get(record.run);
    if (!state) {
      state = {
        summary: {
          run: record.run,
          time: record.time,
          command: record.command,
          profile: record.profile,
          base_url: record.base_url,
          ...(record.plan === undefined ? {} : { plan: record.plan }),
          planned: 0,
          counts: noCounts(),
          recorded: 0,
          hasId: false,
          plants: this.#keepPlants(record.run) ? [] : undefined,
        },
        started: 0,
        pending: new Map(),
      };
      this.#runs.set(record.run, state);
    }
    const { summary } = state;
    if (record.event === 'start') {
      state.started = typeof record.plants === 'number' ? record.plants : 0;
      return;
    }
    if (this.#id !== undefined && record.id === this.#id) summary.hasId = true;
    const requestId = record.request_id ?? null;
    if (record.event === 'intent') {
      const plant = summary.plants && outcomeOf(record, 'unknown');
      if (plant) summary.plants!.push(plant);
      summary.recorded += 1;
      // An intent without a request id is matched by no outcome: it stays unknown.
      if (requestId === null) summary.counts.unknown += 1;
      else state.pending.set(requestId, plant);
      return;
    }
    const result = record.result!;
    const waiting = requestId === null ? undefined : state.pending.get(requestId);
    if (requestId !== null && state.pending.has(requestId)) {
      state.pending.delete(requestId);
      if (waiting) {
        // The intent's name and tag stay: the outcome only says what came of it.
        waiting.result = result;
        waiting.status = record.status ?? null;
        waiting.attempts = record.attempts ?? null;
        waiting.time = record.time;
      }
    } else {
      // An outcome with no intent before it: a plant never sent (skipped), or its intent was lost.
      summary.recorded += 1;
      summary.plants?.push(outcomeOf(record, result));
    }
    if (result in summary.counts) summary.counts[result as keyof ResultCounts] += 1;
  }

  /** The runs gathered, newest first. */
  runs(): RunSummary[] {
    return [...this.#runs.values()]
      .map(({ summary, started, pending }) => {
        const counts = { ...summary.counts };
        counts.unknown += pending.size;
        const planned = Math.max(started, summary.recorded);
        // Plants the start counts but no record names (damaged lines, a journal that could not be written):
        // what came of them is not on record, so unknown; `skipped` counts only those on record as skipped.
        counts.unknown += planned - summary.recorded;
        return { ...summary, counts, planned };
      })
      .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
  }
}

function outcomeOf(record: JournalRecord, result: DeleteResultKind): PlantOutcome {
  return {
    id: record.id!,
    name: record.name ?? null,
    tag: record.tag ?? null,
    result,
    status: record.status ?? null,
    request_id: record.request_id ?? null,
    attempts: record.attempts ?? null,
    time: record.time,
  };
}
