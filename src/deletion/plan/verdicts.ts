import type { Plant } from '../../api/responses.js';
import { plantMatcher } from '../../api/filters.js';
import type { Protections } from '../../config/profile-settings.js';
import { maskSecrets } from '../../secrets/registry.js';
import { PlanDriftError } from '../../shared/errors.js';
import { printable, quoted } from '../../shared/text.js';
import type { DeletionTarget, PlantsById } from '../guard.js';
import { plantId } from '../id-input.js';
import { idKey, idReadings, protectionMatcher } from '../protections.js';
import type { DeleteOutcome } from '../results.js';
import type { PlanDocument, PlannedPlant, PlanSelection } from './document.js';

// What an apply makes of each planned plant, from the list read now: delete it, or why not.

/**
 * - `delete`: still listed, with the plan's name and tag;
 * - `not_found`: no longer listed (not sent);
 * - `changed`: listed with another name or tag (not sent);
 * - `protected`: a protection in force now covers it (the whole apply is refused).
 */
export type PlanAction = 'delete' | 'not_found' | 'changed' | 'protected';

export interface PlanVerdict {
  planned: PlannedPlant;
  action: PlanAction;
  /** The plant as listed now, when it is. */
  listed?: Plant;
  /** Why it is not deleted: what changed, or the rule that protects it. */
  why?: string;
  /** Whether the plan's own selection chose it: false for a plant a reviewer added by hand. */
  chosen: boolean;
}

/**
 * Each planned plant, in the plan's order, against the list read now
 * (`byId`: the plants listed under each planned id's readings, as lookUp
 * gathers them) and the protections in force (none with --include-protected).
 */
export function planVerdicts(plan: PlanDocument, byId: PlantsById, rules: Protections | undefined): PlanVerdict[] {
  const chosen = selectionTest(plan.selection);
  const protectedBy = rules && protectionMatcher(rules);
  return plan.plants.map((planned) => {
    const verdict = { planned, chosen: chosen(planned) };
    // Listed under exactly the planned id, as a plan is made: `05` or `7.0` is not the plant listed as 5 or 7.
    const all = byId.get(idKey(planned.id))?.filter((plant) => plantId(plant) === planned.id) ?? [];
    const listed = all[0];
    if (listed === undefined) return { ...verdict, action: 'not_found', why: 'no longer listed' };
    // Listed more than once under that id: a DELETE of it may take any of them, so each must be as planned.
    const other = all.find((plant) => changeOf(planned, plant) !== undefined);
    if (other !== undefined) {
      const twice = all.length > 1 ? ` (the service lists id ${printable(planned.id)} ${all.length} times)` : '';
      return { ...verdict, action: 'changed', listed: other, why: `${changeOf(planned, other)!}${twice}` };
    }
    const known = [...new Set(idReadings(planned.id).flatMap((key) => byId.get(key) ?? []))];
    const protection = protectedBy?.(planned.id, known);
    if (protection !== undefined) return { ...verdict, action: 'protected', listed, why: protection.rule };
    return { ...verdict, action: 'delete', listed };
  });
}

/**
 * What differs between the plant planned and the plant listed: `name
 * "Fern" is now "Ivy"`; undefined when nothing does. Compared as the plan
 * keeps them, the run's secrets masked; a tag that is absent, null or not
 * text is no tag.
 */
function changeOf(planned: PlannedPlant, listed: Plant): string | undefined {
  const now = {
    name: typeof listed.name === 'string' ? maskSecrets(listed.name) : null,
    tag: typeof listed.tag === 'string' ? maskSecrets(listed.tag) : null,
  };
  const changes = (['name', 'tag'] as const)
    .filter((field) => planned[field] !== now[field])
    .map((field) => `${field} ${shown(planned[field])} is now ${shown(now[field])}`);
  return changes.length === 0 ? undefined : changes.join(', ');
}

function shown(text: string | null): string {
  return text === null ? 'none' : quoted(text);
}

/** Whether the plan's own selection picks a planned plant: its filters (prune) or its ids (delete). */
function selectionTest(selection: PlanSelection): (plant: PlannedPlant) => boolean {
  if (selection.command === 'delete') {
    const ids = new Set(selection.ids);
    return (plant) => ids.has(plant.id);
  }
  const matches = plantMatcher({ tags: selection.tags, name: selection.name ?? undefined });
  return (plant) => matches({ name: plant.name ?? '', tag: plant.tag });
}

/** The plants an apply sends for: those it would delete, with the plant listed now. */
export function targetsToSend(verdicts: readonly PlanVerdict[]): DeletionTarget[] {
  return verdicts
    .filter((verdict) => verdict.action === 'delete' || verdict.action === 'protected')
    .map(({ planned, listed }) => ({ id: planned.id, plant: listed }));
}

/** The outcome of a plant an apply does not send: not_found or changed, with what the list showed. */
export function driftOutcome(verdict: PlanVerdict): DeleteOutcome {
  const { id } = verdict.planned;
  const kind = verdict.action === 'changed' ? 'changed' : 'not_found';
  const message =
    kind === 'changed'
      ? `plant ${printable(id)} changed since the plan (${verdict.why!}); it was not deleted`
      : `plant ${printable(id)} is no longer listed; it was not deleted`;
  const error = new PlanDriftError(kind, message);
  return { result: { id, result: kind, status: null, request_id: null, error: { error: null, message } }, error };
}
