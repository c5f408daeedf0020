import { streamJournal } from '../journal/read.js';
import type { DeleteOutcome } from '../results.js';

// A plant an earlier apply of the same plan deleted is done: its not_found is no failure of a re-apply.

/**
 * The ids whose DELETE a run applying `planId` sent, as the state
 * directory's journal `dir` records it, and did not see fail: recorded as
 * deleted (or gone), or sent with no outcome on record or an unknown one
 * (a stopped run's requests in flight). Each with the run's id. One it saw
 * refused or not found is not among them: that DELETE deleted nothing.
 */
export function deletedByPlan(dir: string, planId: string): Map<string, string> {
  const sent = new Map<string, { id: string; run: string; result?: string }>();
  streamJournal(dir, {
    record(record) {
      if (record.plan !== planId || record.id === undefined || typeof record.request_id !== 'string') return;
      if (record.event === 'intent') sent.set(record.request_id, { id: record.id, run: record.run });
      else if (record.event === 'outcome') {
        const request = sent.get(record.request_id);
        if (request) request.result = record.result;
      }
    },
    damaged() {
      // A damaged line records nothing that could count as done.
    },
  });
  const deleted = new Map<string, string>();
  for (const { id, run, result } of sent.values()) {
    if (result === undefined || ['deleted', 'gone', 'unknown'].includes(result)) deleted.set(id, run);
  }
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
