import { parseJson } from '../shared/json.js';
import { mayHaveEscapedKey, repeatedMembers } from '../shared/json-members.js';
import { maskSecrets } from '../secrets/registry.js';
import type { Plant } from './responses.js';

/**
 * Plants the service listed with `id`, `name` or `tag` written twice with
 * different values (`{"id":"2","id":"3"}`): parsing keeps the last, so
 * the plant is 3 to plants, while the service (or whatever else reads its
 * list) may take it for 2. Noted here, by the plant object, so that a
 * protection can refuse to delete a plant the list is ambiguous about.
 */
const repeated = new WeakMap<Plant, ReadonlyMap<string, unknown[]>>();

/** The fields a protection or a delete reads. */
const FIELDS = ['id', 'name', 'tag'] as const;
export const WATCHED_FIELDS: ReadonlySet<string> = new Set(FIELDS);
const membersOf = repeatedMembers(FIELDS);

/** An item built as it arrived (a LargeItem: too large to keep as text), which kept the values itself. */
export interface BuiltItem {
  repeatedValues(): Map<string, unknown[]> | undefined;
}

/**
 * Note the repeated fields of `plants`, parsed from `items` (one a plant,
 * in order: its text, or the item built as it arrived). Each value as
 * parsed, a string but the id's with the secrets masked: it may be shown.
 */
export function noteRepeatedFields(
  items: readonly (string | BuiltItem)[],
  plants: readonly Plant[],
  joined?: string,
): void {
  if (joined !== undefined && !mayHaveEscapedKey(joined)) {
    // The batch's text (its items joined): each plant that has a field holds its key at least once, so
    // when the keys in the text are as many as the fields the plants have, no plant holds one twice.
    let fields = 0;
    for (const plant of plants) for (const field of FIELDS) if (Object.hasOwn(plant, field)) fields += 1;
    if (keyCount(joined) === fields) return;
  }
  items.forEach((item, i) => {
    const members = typeof item === 'string' ? parsedMembers(membersOf(item)) : item.repeatedValues();
    if (members === undefined) return;
    const differing = new Map<string, unknown[]>();
    for (const [key, values] of members) {
      // The same value written twice names one plant: only different ones are ambiguous.
      if (values.every((value) => sameValue(value, values[0]))) continue;
      // The id as the service wrote it, as a DELETE would send it; the rest masked, as the plant is.
      differing.set(
        key,
        key === 'id' ? values : values.map((value) => (typeof value === 'string' ? maskSecrets(value) : value)),
      );
    }
    if (differing.size > 0) repeated.set(plants[i]!, differing);
  });
}

function parsedMembers(members: Map<string, string[]> | undefined): Map<string, unknown[]> | undefined {
  return members && new Map([...members].map(([key, texts]) => [key, texts.map((text) => parseJson(text))]));
}

/** Two values as JSON writes them, a string compared as it is (it may be large). */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  return typeof a === 'string' ? a === b : JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields' keys as JSON writes them, each matched with what follows to
 * six characters (`"id":1`, `"name"`, `"tag":`), so that taking them all
 * out counts them: a global replace with nothing makes no match objects.
 * What follows `"id"` or `"tag"` is its colon and value, never another key,
 * so no key is missed; a value `"name"` or a nested key counts too, and
 * then each plant is looked at.
 */
const KEYS = /"(?:id"[^]{2}|name"|tag"[^])/g;

function keyCount(text: string): number {
  return (text.length - text.replace(KEYS, '').length) / 6;
}

/** The values of each field the service wrote more than once, differently, for this plant; undefined for none. */
export function repeatedFields(plant: Plant): ReadonlyMap<string, unknown[]> | undefined {
  return repeated.get(plant);
}
