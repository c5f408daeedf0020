import type { Plant } from '../api/responses.js';
import { plantId } from './id-input.js';
import { idKey } from './protections.js';

/**
 * What a list holds, as a percentage cap counts it: `distinct` plants, by
 * idKey (a service that lists each plant ten times, or `7` beside `07`,
 * must not make a cap ten times too large); plants without a usable id are
 * not counted, as they cannot be deleted, nor padded in to raise a cap.
 */
export interface ListedCount {
  items: number;
  distinct: number;
  withoutId: number;
}

/** Counts plants as lookUp and prune's list hand them over. */
export class ListCounter {
  readonly #keys = new Set<string>();
  #items = 0;
  #withoutId = 0;

  add(plants: readonly Plant[]): void {
    this.#items += plants.length;
    for (const plant of plants) {
      const id = plantId(plant);
      if (id === undefined) this.#withoutId += 1;
      else this.#keys.add(idKey(id));
    }
  }

  get counted(): ListedCount {
    return { items: this.#items, distinct: this.#keys.size, withoutId: this.#withoutId };
  }
}

export function countListed(plants: readonly Plant[]): ListedCount {
  const counter = new ListCounter();
  counter.add(plants);
  return counter.counted;
}

/** The warning when the list holds an id twice (under any spelling) or plants without ids; undefined when it does not. */
export function duplicatesWarning({ items, distinct, withoutId }: ListedCount): string | undefined {
  const duplicates = items - distinct - withoutId;
  if (duplicates === 0 && withoutId === 0) return undefined;
  const parts: string[] = [];
  if (duplicates > 0) {
    parts.push(`${duplicates} duplicate id${duplicates === 1 ? '' : 's'}`);
  }
  if (withoutId > 0) parts.push(`${withoutId} plant${withoutId === 1 ? '' : 's'} without an id`);
  return `the service listed ${parts.join(' and ')} (${distinct} distinct plant${distinct === 1 ? '' : 's'} in ${items} item${items === 1 ? '' : 's'}); a percentage cap counts the distinct plants`;
}
