import type { RowView } from '../output/row-encoder.js';
import { RECORDED_RESULTS, type PlantOutcome, type RunSummary } from '../deletion/journal/runs.js';

// How plants history shows what it read: a row per run, or per plant of one run.

export const RUN_VIEW: RowView<RunSummary> = {
  table: {
    values: (run) => [run.run.slice(0, 8), when(run.time), run.profile, host(run.base_url), command(run), results(run)],
    layout: () => ({
      headers: ['RUN', 'WHEN (UTC)', 'PROFILE', 'HOST', 'COMMAND', 'RESULTS'],
      shown: [0, 1, 2, 3, 4, 5],
      whole: [0],
    }),
  },
  data: {
    // Fixed columns, which scripts read by position: the plan an apply applied is in the JSON and the table.
    columns: ['run', 'time', 'profile', 'base_url', 'command', 'plants', ...RECORDED_RESULTS],
    values: (run) => {
      const counts = run.counts;
      return [
        run.run,
        run.time,
        run.profile,
        run.base_url,
        run.command,
        run.planned,
        ...RECORDED_RESULTS.map((r) => counts[r]),
      ];
    },
  },
  json: (run) => ({
    run: run.run,
    time: run.time,
    profile: run.profile,
    base_url: run.base_url,
    command: run.command,
    plants: run.planned,
    results: run.counts,
    ...(run.plan === undefined ? {} : { plan: run.plan }),
  }),
};

/** A plant's outcome as text cells, in the order of PLANT_VIEW's data columns; the table shows the first six. */
const plantValues = (plant: PlantOutcome): unknown[] => [
  plant.id,
  plant.name ?? '',
  plant.tag ?? '',
  plant.result,
  plant.status ?? '',
  plant.request_id ?? '',
  plant.attempts ?? '',
  plant.time,
];

export const PLANT_VIEW: RowView<PlantOutcome> = {
  table: {
    values: (plant) => plantValues(plant).slice(0, 6),
    layout: () => ({
      headers: ['ID', 'NAME', 'TAG', 'RESULT', 'STATUS', 'REQUEST ID'],
      shown: [0, 1, 2, 3, 4, 5],
      whole: [0],
    }),
  },
  data: {
    columns: ['id', 'name', 'tag', 'result', 'status', 'request_id', 'attempts', 'time'],
    values: plantValues,
  },
  json: (plant) => plant,
};

/** The command, and the plan an apply applied: `apply (plan 1f0c9a2e)`. */
function command(run: RunSummary): string {
  return run.plan === undefined ? run.command : `${run.command} (plan ${run.plan.slice(0, 8)})`;
}

/** `2026-11-25 15:37:52`: a table's time, to the second, in UTC as the journal keeps it. */
function when(time: string): string {
  return time.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
}

/** The host (and path prefix) of a base URL, as the confirmation names the target. */
function host(baseUrl: string): string {
  return baseUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
}

/** `2 deleted, 1 not_found`: the results a run had, in the usual order. */
function results(run: RunSummary): string {
  const counts = run.counts;
  const parts = RECORDED_RESULTS.filter((result) => counts[result] > 0).map((result) => `${counts[result]} ${result}`);
  return parts.length > 0 ? parts.join(', ') : 'nothing sent';
}
