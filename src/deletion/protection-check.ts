import type { Plant } from '../api/responses.js';
import type { Protections } from '../config/profile-settings.js';
import { RefusedError } from '../shared/errors.js';
import { excerpt, printable, quoted, wordList } from '../shared/text.js';
import { ambiguity } from './ambiguous.js';
import type { DeletionTarget, PlantsById } from './guard.js';
import { plantId } from './id-input.js';
import { unseenShown } from './loose-text.js';
import { describeRules, idKey, idReadings, needsPlant, protectionMatcher, type Protection } from './protections.js';

// The guard's check of a run's targets against a profile's protections, and the refusal that names them.

/** At most this many plants are named in a refusal; the count says how many more. */
const NAMED_IN_REFUSAL = 20;

/** How a plant is named in a refusal: its name cut short, the service's text escaped. */
const NAME_IN_REFUSAL = 60;

/**
 * Refuse the run when a target is protected, or cannot be checked, naming
 * each (the first NAMED_IN_REFUSAL). `byId` holds every listed plant under
 * a target's id when tag or name rules need them.
 */
export function checkProtections(
  targets: readonly DeletionTarget[],
  byId: PlantsById | undefined,
  rules: Protections,
  profile: string,
): void {
  const protectedBy = protectionMatcher(rules);
  const hits: string[] = [];
  const unchecked: string[] = [];
  const ambiguous: string[] = [];
  for (const { id, plant } of targets) {
    const known = (byId && knownAs(byId, id)) ?? (plant ? [plant] : []);
    const found = protectedBy(id, known);
    const unclear = found === undefined ? known.find((listed) => ambiguity(listed) !== undefined) : undefined;
    if (unclear !== undefined) {
      ambiguous.push(
        `${printable(id)} ${quoted(excerpt(String(unclear.name), NAME_IN_REFUSAL))} (${ambiguity(unclear)!})`,
      );
    } else if (found !== undefined) {
      // The plant that matched a tag or name rule; for an id rule, the one the run knows, if any.
      const shown = found.plant ?? known[0];
      const name = shown ? ` ${quoted(excerpt(String(shown.name), NAME_IN_REFUSAL))}` : '';
      const shownId = found.plant && plantId(found.plant);
      const readAs = found.readAs ?? (shownId !== undefined && idKey(shownId) !== idKey(id) ? shownId : undefined);
      const as = readAs === undefined ? '' : `, which a service may read as ${printable(readAs)}`;
      hits.push(`plant ${printable(id)}${name} (${found.rule}${as}${looseWhy(found)})`);
    } else if (known.length === 0 && needsPlant(rules)) {
      unchecked.push(printable(id));
    }
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
  if (ambiguous.length > 0) {
    parts.push(
      `${ambiguous.length === 1 ? 'plant' : 'plants'} ${named(ambiguous)} ${ambiguous.length === 1 ? 'is' : 'are'} ` +
        `listed ambiguously by the service (which plant it means is unknown), so cannot be checked against the protections of profile ${profile}`,
    );
  }
  if (parts.length === 0) return;
  const refused = hits.length + unchecked.length + ambiguous.length;
  throw new RefusedError(
    `${parts.join('; ')}; nothing was deleted; leave ${refused === 1 ? 'it' : 'them'} out, ` +
      "or pass --include-protected to delete without checking any rule (rules: 'plants config list')",
  );
}

/** Why a tag or name rule matched text it differs from as written: `, matched with letter case set aside`. */
function looseWhy({ rule, plant, looseSteps }: Protection): string {
  if (looseSteps === undefined) return '';
  const field = rule.startsWith('tag ') ? 'tag' : 'name';
  const text = plant?.[field];
  // Cut short, then what does not show escaped: the difference is what is shown.
  const by =
    typeof text === 'string'
      ? ` by its ${field} "${unseenShown(text.length > NAME_IN_REFUSAL ? `${text.slice(0, NAME_IN_REFUSAL)}…` : text)}"`
      : '';
  return `, matched${by} with ${wordList(looseSteps, 'and')} set aside`;
}

/** Every plant listed under an id a service may read `id` as (idReadings), each once; undefined for none. */
function knownAs(byId: PlantsById, id: string): Plant[] | undefined {
  const plants = new Set(idReadings(id).flatMap((key) => byId.get(key) ?? []));
  return plants.size > 0 ? [...plants] : undefined;
}

function named(items: readonly string[]): string {
  const shown = items.slice(0, NAMED_IN_REFUSAL).join(', ');
  return items.length > NAMED_IN_REFUSAL ? `${shown} and ${items.length - NAMED_IN_REFUSAL} more` : shown;
}
