import { writeFileAtomically } from '../config/atomic-write.js';
import type { Context } from '../context.js';
import { lookUp, plantFor, type DeletionTarget, type ProfileGuard } from '../deletion/guard.js';
import { plantId } from '../deletion/id-input.js';
import { placeOf, shortPlanId } from '../deletion/plan/checks.js';
import {
  planDocument,
  plannedPlant,
  planText,
  type PlanDocument,
  type PlanSelection,
} from '../deletion/plan/document.js';
import { idKey } from '../deletion/protections.js';
import { warning } from '../output/messages.js';
import { maskSecrets } from '../secrets/registry.js';
import { RefusedError, UsageError } from '../shared/errors.js';
import { fsReason } from '../shared/fs-reason.js';
import { randomUUID } from '../shared/random.js';
import { printable } from '../shared/text.js';
import type { DeletionOptions } from './deletion-flags.js';
import { plantListerOf } from './deletion-context.js';

// `delete --plan` and `prune --plan`: the run's targets, as listed, written as a plan instead of deleted.

/** At most this many ids are named in the warning about ids the list does not hold. */
const NAMED_UNLISTED = 10;

/** A plan written: its id and file, and the targets it holds (as listed). */
export interface WrittenPlan {
  id: string;
  file: string;
  targets: DeletionTarget[];
}

/**
 * Write the plan of a run whose targets passed the guard: each target with
 * the plant listed under exactly its id (looked up when the run has not
 * listed it). An id the list does not hold is left out, with a warning: a
 * plan holds plants as listed, and apply deletes only those still listed.
 */
export async function writePlan(
  run: { targets: readonly DeletionTarget[]; selection: PlanSelection; file: string },
  options: Pick<DeletionOptions, 'includeProtected' | 'maxDeletes'>,
  guard: ProfileGuard,
  ctx: Context,
): Promise<WrittenPlan> {
  const listed = await listedTargets(run.targets, ctx);
  const unlisted = run.targets.filter((target) => !listed.some((kept) => kept.id === target.id));
  if (unlisted.length > 0) warning(ctx.io, unlistedWarning(unlisted.map((target) => target.id)));
  const [client, profile] = await Promise.all([ctx.client(), ctx.profile()]);
  const place = placeOf(client.baseUrl, profile.value, maskSecrets);
  const plants = listed.map(({ plant }) => {
    const planned = plannedPlant(plant!);
    if (maskSecrets(planned.id) !== planned.id) {
      throw new RefusedError(
        `the service listed a plant whose id holds the token, which a plan never holds; no plan was written; delete it with plants delete`,
      );
    }
    const mask = (text: string | null) => (text === null ? null : maskSecrets(text));
    return { ...planned, name: mask(planned.name), tag: mask(planned.tag) };
  });
  // What the run was given is kept as given, but for a secret in it (`--name "$TOKEN"`), masked as all output is.
  const masked = (texts: readonly string[]) => texts.map(maskSecrets);
  const selection: PlanSelection =
    run.selection.command === 'delete'
      ? { command: 'delete', ids: masked(run.selection.ids) }
      : {
          ...run.selection,
          tags: masked(run.selection.tags),
          name: run.selection.name && maskSecrets(run.selection.name),
        };
  const { ids, tags, names } = guard.rules;
  const plan: PlanDocument = planDocument(
    {
      origin: place.origin,
      pathPrefix: place.pathPrefix,
      profile: place.profile,
      selection,
      includeProtected: options.includeProtected,
      protections: { ids: masked(ids), tags: masked(tags), names: masked(names) },
      maxDeletes: options.maxDeletes ?? guard.cap,
      plants,
    },
    randomUUID(),
    new Date(),
  );
  try {
    writeFileAtomically(run.file, planText(plan), { mode: 0o600 });
  } catch (err) {
    throw new UsageError(
      `cannot write the plan ${printable(run.file)}: ${fsReason(err)}; nothing was deleted; name a file in a directory you can write`,
    );
  }
  return { id: plan.plan_id, file: run.file, targets: listed };
}

/** The targets listed under exactly their id, each with that plant; the list is read only when needed. */
async function listedTargets(targets: readonly DeletionTarget[], ctx: Context): Promise<DeletionTarget[]> {
  const exact = (target: DeletionTarget) => target.plant !== undefined && plantId(target.plant) === target.id;
  const missing = targets.filter((target) => !exact(target));
  if (missing.length === 0) return [...targets];
  const ids = new Set(missing.map((target) => target.id));
  const { byId } = await lookUp(plantListerOf(ctx), new Set([...ids].map(idKey)), { firstOnly: true, exact: ids });
  return targets.flatMap((target) => {
    if (exact(target)) return [target];
    const plant = plantFor(byId, target.id);
    return plant !== undefined && plantId(plant) === target.id ? [{ id: target.id, plant }] : [];
  });
}

function unlistedWarning(ids: readonly string[]): string {
  const named = ids.slice(0, NAMED_UNLISTED).map(printable).join(', ');
  const more = ids.length > NAMED_UNLISTED ? ` and ${ids.length - NAMED_UNLISTED} more` : '';
  const one = ids.length === 1;
  return `${one ? 'plant' : 'plants'} ${named}${more} ${one ? 'is' : 'are'} not in the service's list under ${one ? 'that id' : 'those ids'}: left out of the plan, which holds plants as listed`;
}

/** The line after a plan is written: where it is, and how to apply it. */
export function planWrittenLine(plan: WrittenPlan, where: string): string {
  const count = plan.targets.length;
  return `Planned ${count} plant${count === 1 ? '' : 's'} for deletion from ${where}: plan ${shortPlanId(plan.id)} in ${printable(plan.file)}; nothing was sent. Review it, then: plants apply ${printable(plan.file)}`;
}
