import { printable, quoted } from '../shared/text.js';
import type { DeleteResult, DeleteResultKind } from './results.js';

// How a run's results are counted and named, in the words every report of a run shares.

export type Counts = Record<DeleteResultKind, number>;

export function countResults(results: readonly DeleteResult[]): Counts {
  const counts: Counts = {
    deleted: 0,
    gone: 0,
    not_found: 0,
    changed: 0,
    unknown: 0,
    failed: 0,
    skipped: 0,
    would_delete: 0,
  };
  for (const { result } of results) counts[result] += 1;
  return counts;
}

/** The kinds a summary names when they occurred, in this order, after the deleted count. */
const NAMED: readonly [DeleteResultKind, string][] = [
  ['gone', 'gone'],
  ['not_found', 'not found'],
  ['changed', 'changed'],
  ['unknown', 'unknown'],
  ['failed', 'failed'],
  ['skipped', 'skipped'],
];

/** For a person: "Deleted 2, not found 1, skipped 3". */
export function summary(counts: Counts): string {
  return [
    `Deleted ${counts.deleted}`,
    ...NAMED.filter(([kind]) => counts[kind]).map(([kind, label]) => `${label} ${counts[kind]}`),
  ].join(', ');
}

/** "2 deleted, 1 failed, 3 skipped": every kind that occurred, deleted always. */
function countedKinds(counts: Counts): string {
  return [
    `${counts.deleted} deleted`,
    ...NAMED.filter(([kind]) => counts[kind]).map(([kind, label]) => `${counts[kind]} ${label}`),
  ].join(', ');
}

/** For the final error line: "interrupted: 2 deleted, 1 failed, 3 skipped". */
export function interruptedSummary(counts: Counts): string {
  return `interrupted: ${countedKinds(counts)}`;
}

/** How many ids of each kind a stopped run names; the rest are in `plants history <run>`. */
export const NAMED_AFTER_STOP = 10;

/**
 * After a stop, the plants by id: `Deleted: 1, 2, 3` and `Unknown (may have
 * been deleted): 7`, at most NAMED_AFTER_STOP of each, then how many more
 * and where all of them are.
 */
export function namedAfterStop(
  results: readonly DeleteResult[],
  kinds: readonly DeleteResultKind[],
  runId?: string,
): string[] {
  const lines: string[] = [];
  const groups = [
    { label: 'Deleted', of: ['deleted', 'gone'] },
    { label: 'Unknown (may have been deleted)', of: ['unknown'] },
  ];
  for (const { label, of } of groups) {
    const ids = results.filter((r) => of.includes(r.result) && kinds.includes(r.result)).map((r) => shownId(r.id));
    if (ids.length === 0) continue;
    const rest = ids.length - NAMED_AFTER_STOP;
    const where = runId ? `: plants history ${runId}` : '';
    lines.push(`${label}: ${ids.slice(0, NAMED_AFTER_STOP).join(', ')}${rest > 0 ? `, and ${rest} more${where}` : ''}`);
  }
  return lines;
}

/** An id in a list: as it is when plain, quoted when a space or comma would make the list unclear. */
function shownId(id: string): string {
  return /^[^\s,"]+$/.test(id) ? printable(id) : quoted(id);
}

/** The warning for a `gone` result. */
export function goneWarning(id: string): string {
  return `plant ${printable(id)} is gone: the answer to its DELETE was lost or a server error (500, 502, 504) and the retry found no such plant, so that DELETE most likely deleted it (or it never existed)`;
}

/**
 * For the error line of a run whose results could not be written to stdout
 * (a full disk), which is then all the caller learns: that DELETEs were
 * sent, what came of them, and where the journal has them all.
 * Undefined when none was sent (a dry run, a refused token).
 */
export function deletionsMade(results: readonly DeleteResult[], runId: string | undefined): string | undefined {
  if (!results.some((r) => r.request_id !== null)) return undefined;
  const what = countedKinds(countResults(results));
  const one = results.length === 1;
  const where = runId ? `plants history ${runId} lists ${one ? 'it' : 'them'}` : 'no journal was kept';
  return `the DELETE${one ? ' was' : 's were'} sent (${what}): ${where}`;
}
