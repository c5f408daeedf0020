import type { DeleteResultKind } from '../api/delete-many.js';
import type { JournalRecord } from './read.js';

/** The results a plant of a run can have, in the order counts are shown. */
export const RECORDED_RESULTS = ['deleted', 'gone', 'not_found', 'unknown', 'failed', 'skipped'] as const;

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
  /** The plants it sent a DELETE for (only those have ids on record). */
  plants: PlantOutcome[];
  /** How many it was about to delete when it started: those never sent count as skipped. */
  planned: number;
}

/** The runs on record, newest first, each with its plants in the order they were sent. */
export function summarizeRuns(records: readonly JournalRecord[]): RunSummary[] {
  const runs = new Map<string, RunSummary & { byRequest: Map<string, PlantOutcome> }>();
  for (const record of records) {
    let run = runs.get(record.run);
    if (!run) {
      run = {
        run: record.run,
        time: record.time,
        command: record.command,
        profile: record.profile,
        base_url: record.base_url,
        plants: [],
        planned: 0,
        byRequest: new Map(),
      };
      runs.set(record.run, run);
    }
    if (record.event === 'start') {
      run.planned = typeof record.plants === 'number' ? record.plants : 0;
      continue;
    }
    const key = record.request_id ?? `${record.id}\u0000${run.plants.length}`;
    let plant = run.byRequest.get(key);
    if (!plant) {
      plant = {
        id: record.id!,
        name: record.name ?? null,
        tag: record.tag ?? null,
        result: 'unknown',
        status: null,
        request_id: record.request_id ?? null,
        attempts: null,
        time: record.time,
      };
      run.byRequest.set(key, plant);
      run.plants.push(plant);
    }
    if (record.event === 'outcome') {
      plant.result = record.result!;
      plant.status = record.status ?? null;
      plant.attempts = record.attempts ?? null;
      plant.time = record.time;
    }
  }
  return [...runs.values()]
    .map(({ byRequest: _byRequest, ...run }) => ({ ...run, planned: Math.max(run.planned, run.plants.length) }))
    .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
}

/** How many plants of a run had each result; `planned` beyond those sent were skipped. */
export function countResults(
  plants: readonly PlantOutcome[],
  planned = plants.length,
): Record<(typeof RECORDED_RESULTS)[number], number> {
  const counts = Object.fromEntries(RECORDED_RESULTS.map((result) => [result, 0])) as Record<
    (typeof RECORDED_RESULTS)[number],
    number
  >;
  for (const plant of plants) if (plant.result in counts) counts[plant.result as keyof typeof counts] += 1;
  counts.skipped += Math.max(0, planned - plants.length);
  return counts;
}
