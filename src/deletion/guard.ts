import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Plant } from '../api/responses.js';
import { CONFIG_FILE, configDir } from '../config/config-file.js';
import type { Protections } from '../config/profile-settings.js';
import type { Env } from '../shared/env.js';
import { ConfigError, RefusedError } from '../shared/errors.js';
import { capOf, formatMaxDeletes, parseMaxDeletes, type MaxDeletes } from '../shared/values.js';
import { listedIds } from './ambiguous.js';
import { checkProtections } from './protection-check.js';
import { plantId } from './id-input.js';
import { countListed, duplicatesWarning, ListCounter, type ListedCount } from './list-count.js';
import { hasRules, idKey, idReadings, needsPlant } from './protections.js';

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
  /** The command has no --max-deletes (plants api): the refusal says how to change the profile's cap instead. */
  noMaxDeletesFlag?: boolean;
}

/** What the selected profile says about deletes. */
export interface ProfileGuard {
  profile: string;
  /** Its max-deletes, the cap when --max-deletes is not given. */
  cap?: MaxDeletes;
  rules: Protections;
}

/** What profileGuard reads of the config file: a profile's settings (config/store.ts). */
export interface ProfileSettings {
  readonly path: string;
  get(profile: string, key: 'max-deletes'): string | undefined;
  protections(profile: string): Protections;
}

/**
 * The selected profile's default cap and protections, read (and checked)
 * before anything is listed. `load` opens the config file and names the
 * selected profile; it is not called when there is no config file.
 */
export async function profileGuard(
  env: Env,
  load: () => Promise<{ store: ProfileSettings; profile: string }>,
): Promise<ProfileGuard> {
  // No config file, no rules: not even its directory is made (a run configured by the environment alone).
  if (!existsSync(join(configDir(env), CONFIG_FILE))) {
    return { profile: '', rules: { ids: [], tags: [], names: [] } };
  }
  const { store, profile } = await load();
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

/** The plants the run knows, by idKey: every one of them, for an id the list holds twice. */
export type PlantsById = Map<string, Plant[]>;

/** The plant under its id, and under every other id the service listed it with (ambiguous.ts). */
function addPlant(byId: PlantsById, plant: Plant, ids = listedIds(plant)): void {
  for (const id of ids) {
    const key = idKey(id);
    const same = byId.get(key);
    if (same) same.push(plant);
    else byId.set(key, [plant]);
  }
}

/**
 * The plant an id names, for the preview and the journal: the one listed
 * under exactly that id, else the first listed under another spelling of it
 * (`7.0` for 7). A list may hold both `7` and `07` (a service whose ids are
 * text); `07` is then that plant, not the first with the same idKey.
 */
export function plantFor(byId: PlantsById, id: string): Plant | undefined {
  const same = byId.get(idKey(id));
  return same?.find((plant) => plantId(plant) === id) ?? same?.[0];
}

/** Reads the service's list of plants, batch by batch, for a deletion (lookUp). */
export type ListPlants = () => AsyncIterable<readonly Plant[]>;

/** What guardDeletion checks, and what it may use on the way. */
export interface GuardRequest {
  targets: readonly DeletionTarget[];
  /** What the service listed when the caller listed it (prune): every plant, matching or not. */
  listed?: readonly Plant[];
  options: GuardOptions;
  guard: ProfileGuard;
  /** Lists the plants when a percentage cap needs the count or a tag or name rule the plants. */
  listPlants: ListPlants;
  /** Says a warning about the list (duplicate ids) on the way. */
  warn: (text: string) => void;
}

/**
 * Check the run's targets; return them with the plants looked up on the
 * way (for the preview and the journal). Without `listed`, the guard lists
 * here when a percentage cap needs the count or a tag or name rule the plants.
 */
export async function guardDeletion({
  targets,
  listed,
  options,
  guard,
  listPlants,
  warn,
}: GuardRequest): Promise<DeletionTarget[]> {
  const max = options.maxDeletes ?? guard.cap;
  const rules = options.includeProtected ? undefined : guard.rules;
  const needPlants = rules !== undefined && needsPlant(rules);
  let counted = listed && countListed(listed);
  let byId: PlantsById | undefined;
  if (needPlants && listed) {
    byId = new Map();
    for (const plant of listed) addPlant(byId, plant);
  } else if (needPlants || (max !== undefined && typeof max !== 'number' && counted === undefined)) {
    const found = await lookUp(listPlants, new Set(targets.flatMap((target) => idReadings(target.id))), {
      countOnly: !needPlants,
    });
    counted = found.counted;
    if (needPlants) byId = found.byId;
  }
  const duplicates = counted && duplicatesWarning(counted);
  if (duplicates) warn(duplicates);
  const count = counted?.distinct;
  const checked = byId ? targets.map(({ id, plant }) => ({ id, plant: plant ?? plantFor(byId, id) })) : [...targets];
  if (rules && hasRules(rules)) checkProtections(checked, byId, rules, guard.profile);
  if (max !== undefined) {
    const cap = capOf(max, count ?? 0);
    const size = runSize(checked, max);
    if (size > cap) {
      const shown =
        typeof max === 'number'
          ? `${max}`
          : `${formatMaxDeletes(max)} (${cap} of the ${count}${counted!.items === count ? '' : ' distinct'} plants listed)`;
      const what =
        size === checked.length
          ? `${size} plant${size === 1 ? '' : 's'} would be deleted`
          : `${size} distinct plant${size === 1 ? '' : 's'} would be deleted (${checked.length} ids)`;
      throw new RefusedError(
        options.maxDeletes !== undefined
          ? `${what}, more than --max-deletes ${shown}; nothing was deleted`
          : `${what}, more than the max-deletes ${shown} of profile ${guard.profile}; nothing was deleted; ` +
              (options.noMaxDeletesFlag
                ? `raise it (plants --profile ${guard.profile} config set max-deletes <n>) or remove it (config unset max-deletes), or delete with plants delete --max-deletes <n>`
                : 'pass --max-deletes <n> to allow more for this run'),
      );
    }
  }
  return checked;
}

/**
 * What a cap is compared with. A number caps requests: every DELETE the run
 * would send counts, `7` and `07` two, as a service whose ids are text may
 * delete a plant for each. A percentage is a share of the distinct plants
 * listed (by idKey), so the run is counted the same way: the distinct
 * plants it targets, or a list of 10 plants under 9 spellings each could
 * never be pruned with 100%.
 */
function runSize(targets: readonly DeletionTarget[], max: MaxDeletes): number {
  return typeof max === 'number' ? targets.length : new Set(targets.map(({ id }) => idKey(id))).size;
}

/**
 * Read the service's list once: how many plants it holds (countListed), and every plant
 * whose id (idKey) is wanted. With `countOnly`, no plant is kept; with
 * `firstOnly`, reading stops once each wanted id has a plant (the count is
 * then partial), and each id of `exact` a plant listed under exactly that
 * text (plantFor's choice; an id written otherwise than listed, `7.0`, reads
 * the list to its end).
 */
export async function lookUp(
  listPlants: ListPlants,
  wanted: ReadonlySet<string>,
  {
    countOnly = false,
    firstOnly = false,
    exact,
  }: { countOnly?: boolean; firstOnly?: boolean; exact?: ReadonlySet<string> } = {},
): Promise<{ counted: ListedCount; byId: PlantsById }> {
  const byId: PlantsById = new Map();
  const exactFound = new Set<string>();
  const counter = new ListCounter();
  for await (const batch of listPlants()) {
    counter.add(batch);
    if (countOnly) continue;
    for (const plant of batch) {
      // Only under wanted ids: firstOnly counts them.
      const ids = listedIds(plant).filter((id) => wanted.has(idKey(id)));
      if (ids.length === 0) continue;
      addPlant(byId, plant, ids);
      for (const id of ids) if (exact?.has(id)) exactFound.add(id);
    }
    if (firstOnly && byId.size === wanted.size && exactFound.size === (exact?.size ?? 0)) break;
  }
  return { counted: counter.counted, byId };
}
