import { streamJournal } from '../journal/read.js';
import type { DeleteOutcome } from '../results.js';

// A plant an earlier apply of the same plan deleted is done: its not_found is no failure of a re-apply.

/**
 * The ids that a run applying `planId` recorded as deleted (or gone) in the
 * state directory's journal `dir`, each with that run's id.
 */
export function deletedByPlan(dir: string, planId: string): Map<string, string> {
  const deleted = new Map<string, string>();
  streamJournal(dir, {
    record(record) {
      if (record.plan !== planId || record.event !== 'outcome' || record.id === undefined) return;
      if (record.result === 'deleted' || record.result === 'gone') deleted.set(record.id, record.run);
    },
    damaged() {
      // A damaged line records nothing that could count as done.
    },
  });
  return deleted;
}

/**
 * The outcomes with each not_found that `deleted` names (deletedByPlan)
 * made done: no error, so no failure; and the runs that deleted them.
 */
export function settleDoneBefore(
  outcomes: readonly DeleteOutcome[],
  deleted: ReadonlyMap<string, string>,
): { outcomes: DeleteOutcome[]; done: number; runs: string[] } {
  const runs = new Set<string>();
  let done = 0;
  const settled = outcomes.map((outcome) => {
    const { result } = outcome;
    const run = result.result === 'not_found' ? deleted.get(result.id) : undefined;
    if (run === undefined) return outcome;
    runs.add(run);
    done += 1;
    const { error: _said, ...kept } = result;
    return { result: kept, attempts: outcome.attempts };
  });
  return { outcomes: settled, done, runs: [...runs] };
}
