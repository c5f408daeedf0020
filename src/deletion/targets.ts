import type { Plant } from '../api/responses.js';
import { UsageError } from '../shared/errors.js';
import { printable } from '../shared/text.js';
import { encodePathSegment } from '../shared/url.js';
import type { DeletionTarget } from './guard.js';
import { plantId } from './id-input.js';
import type { DeleteOutcome } from './results.js';

// A run's targets as data: each id once, each sendable, and what a dry run or a confirmation says of them.

/** First occurrence of each id wins. */
export function uniqueTargets(targets: readonly DeletionTarget[]): DeletionTarget[] {
  const seen = new Set<string>();
  return targets.filter((target) => !seen.has(target.id) && seen.add(target.id));
}

/**
 * Every id must be sendable before anything is sent: a UsageError naming
 * the first that is not, and `wayPast` (how to leave it out).
 */
export function requireSendable(ids: readonly string[], wayPast: string): void {
  for (const id of ids) {
    try {
      encodePathSegment(id);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      throw new UsageError(
        `${err.message}; nothing was deleted: ${wayPast}, and delete that plant with the service's own tools`,
      );
    }
  }
}

/** A dry run's outcomes: each id would be deleted, nothing sent. */
export function wouldDelete(ids: readonly string[]): DeleteOutcome[] {
  return ids.map((id) => ({ result: { id, result: 'would_delete', status: null, request_id: null } }));
}

/**
 * The question a person answers before a run: `Delete plant 7 from <where>?`,
 * `Delete these 3 plants from <where>?`; `whose` names what they belong to
 * (`of plan 1f0c9a2e`).
 */
export function confirmQuestion(targets: readonly DeletionTarget[], where: string, whose?: string): string {
  const what = targets.length === 1 ? `plant ${printable(targets[0]!.id)}` : `these ${targets.length} plants`;
  return `Delete ${what}${whose === undefined ? '' : ` ${whose}`} from ${where}?`;
}

/**
 * The targets with the plants the person saw named (the journal's intents
 * record those names): those shown under the id as given. One found by
 * another spelling of its number (09 for 9) may be another plant to the
 * service, and its name would be a guess.
 */
export function withPlantsSeen(
  targets: readonly DeletionTarget[],
  seen: readonly { plant?: Plant | null }[],
): DeletionTarget[] {
  return targets.map((target, index) => {
    const plant = seen[index]?.plant;
    return target.plant === undefined && plant && plantId(plant) === target.id ? { ...target, plant } : target;
  });
}
