import type { Plant } from '../api/responses.js';
import type { Protections } from '../config/store.js';
import type { Context } from '../context.js';
import { ConfigError, RefusedError } from '../errors.js';
import { printable, quoted } from '../shared/text.js';
import { capOf, parseMaxDeletes, type MaxDeletes } from '../shared/values.js';
import { plantId } from './ids.js';
import { describeRules, hasRules, needsPlant, protectionMatcher } from './protections.js';

/**
 * The checks a delete or prune passes before anything is shown or sent:
 * the cap on the run's size (--max-deletes, else the profile's max-deletes)
 * and the profile's protections (unless --include-protected). A refusal is a
 * RefusedError (exit 2, code `refused`): nothing is deleted.
 */

/** A plant to delete: its id, and the plant itself when the run has it (listed by prune, or looked up). */
export interface DeletionTarget {
  id: string;
  plant?: Plant;
}

export interface GuardOptions {
  /** --max-deletes: overrides the profile's max-deletes for this run. */
  maxDeletes?: MaxDeletes;
  /** --include-protected: the profile's protections are not checked. */
  includeProtected: boolean;
}

/** At most this many plants are named in a refusal; the count says how many more. */
const NAMED_IN_REFUSAL = 20;

/** What the selected profile says about deletes. */
export interface ProfileGuard {
  profile: string;
  /** Its max-deletes, the cap when --max-deletes is not given. */
  cap?: MaxDeletes;
  rules: Protections;
}

/** The selected profile's default cap and protections, read (and checked) before anything is listed. */
export async function profileGuard(ctx: Context): Promise<ProfileGuard> {
  const [store, { value: profile }] = await Promise.all([ctx.config(), ctx.profile()]);
  const raw = store.get(profile, 'max-deletes');
  let cap: MaxDeletes | undefined;
  if (raw !== undefined) {
    try {
      cap = parseMaxDeletes(raw, `max-deletes of profile ${profile}`);
    } catch (err) {
      throw new ConfigError(
        `${(err as Error).message} (config file ${store.path}); fix it with 'plants config set max-deletes <n>'`,
      );
    }
  }
  return { profile, cap, rules: store.protections(profile) };
}

/**
 * Check the run's targets; return them with the plants looked up on the
 * way (for the preview and the journal). `listed` is how many plants the
 * service listed when the caller listed them (prune); delete lists here
 * when a percentage cap needs the count or a tag or name rule the plants.
 */
export async function guardDeletion(
  targets: readonly DeletionTarget[],
  listed: number | undefined,
  options: GuardOptions,
  guard: ProfileGuard,
  ctx: Context,
): Promise<DeletionTarget[]> {
  const max = options.maxDeletes ?? guard.cap;
  const rules = options.includeProtected ? undefined : guard.rules;
  const missing =
    rules && needsPlant(rules) ? targets.filter((target) => !target.plant).map((target) => target.id) : [];
  const needCount = max !== undefined && typeof max !== 'number' && listed === undefined;
  let checked = [...targets];
  if (missing.length > 0 || needCount) {
    const lookup = await lookUp(ctx, new Set(missing), needCount);
    listed ??= lookup.listed;
    checked = targets.map(({ id, plant }) => ({ id, plant: plant ?? lookup.found.get(id) }));
  }
  if (rules && hasRules(rules)) checkProtections(checked, rules, guard.profile);
  if (max !== undefined) {
    const cap = capOf(max, listed ?? 0);
    if (checked.length > cap) {
      const shown = typeof max === 'number' ? `${max}` : `${max.percent}% (${cap} of the ${listed} plants listed)`;
      const what = `${checked.length} plant${checked.length === 1 ? '' : 's'} would be deleted`;
      throw new RefusedError(
        options.maxDeletes !== undefined
          ? `${what}, more than --max-deletes ${shown}; nothing was deleted`
          : `${what}, more than the max-deletes ${shown} of profile ${guard.profile}; nothing was deleted; ` +
              'pass --max-deletes <n> to allow more for this run',
      );
    }
  }
  return checked;
}

/** Refuse the run when a target is protected, or cannot be checked: naming each (the first NAMED_IN_REFUSAL). */
function checkProtections(targets: readonly DeletionTarget[], rules: Protections, profile: string): void {
  const protectedBy = protectionMatcher(rules);
  const hits: string[] = [];
  const unchecked: string[] = [];
  for (const { id, plant } of targets) {
    const rule = protectedBy(id, plant);
    const name = plant ? ` ${quoted(plant.name)}` : '';
    if (rule !== undefined) hits.push(`plant ${printable(id)}${name} (${rule})`);
    else if (plant === undefined && needsPlant(rules)) unchecked.push(printable(id));
  }
  const parts: string[] = [];
  if (hits.length > 0) {
    parts.push(
      `${hits.length === 1 ? '1 plant is' : `${hits.length} plants are`} protected in profile ${profile}: ${named(hits)}`,
    );
  }
  if (unchecked.length > 0) {
    const rulesText = describeRules({ ...rules, ids: [] }).join(', ');
    parts.push(
      `${unchecked.length === 1 ? 'plant' : 'plants'} ${named(unchecked)} ${unchecked.length === 1 ? 'is' : 'are'} ` +
        `not in the service's list, so cannot be checked against the protections of profile ${profile} (${rulesText})`,
    );
  }
  if (parts.length === 0) return;
  throw new RefusedError(
    `${parts.join('; ')}; nothing was deleted; leave ${hits.length + unchecked.length === 1 ? 'it' : 'them'} out, ` +
      "or pass --include-protected to delete without this check (rules: 'plants config list')",
  );
}

function named(items: readonly string[]): string {
  const shown = items.slice(0, NAMED_IN_REFUSAL).join(', ');
  return items.length > NAMED_IN_REFUSAL ? `${shown} and ${items.length - NAMED_IN_REFUSAL} more` : shown;
}

/**
 * Read the service's list once: the plants whose ids are wanted (the first
 * of each), and how many there are. Without `count` it stops once all are found.
 */
export async function lookUp(
  ctx: Context,
  wanted: ReadonlySet<string>,
  count: boolean,
): Promise<{ listed: number; found: Map<string, Plant> }> {
  const found = new Map<string, Plant>();
  let listed = 0;
  for await (const batch of (await ctx.client()).streamPlants()) {
    listed += batch.length;
    for (const plant of batch) {
      const id = plantId(plant);
      if (id !== undefined && wanted.has(id) && !found.has(id)) found.set(id, plant);
    }
    if (!count && found.size === wanted.size) break;
  }
  return { listed, found };
}
