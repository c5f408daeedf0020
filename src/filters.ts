import type { Plant } from './api/responses.js';

/** Client-side filters of `list` and `prune`; they apply after the service's `limit`. */
export interface PlantFilter {
  /** Keep plants whose tag is any of these (none: no tag filter). */
  tags: string[];
  /** Keep plants whose whole name matches this glob: `*` any run of characters, `?` one. */
  name?: string;
}

export function hasFilter(filter: PlantFilter): boolean {
  return filter.tags.length > 0 || filter.name !== undefined;
}

/** A glob as an anchored, case-sensitive regular expression. */
export function globToRegExp(glob: string): RegExp {
  const body = [...glob]
    .map((ch) => {
      if (ch === '*') return '.*';
      if (ch === '?') return '.';
      // Only syntax characters: under the u flag, escaping anything else (like -) is an error.
      return ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}$`, 'su');
}

/** A test for one plant: every plant passes when there is no filter. */
export function plantMatcher(filter: PlantFilter): (plant: Plant) => boolean {
  const tags = new Set(filter.tags);
  const name = filter.name === undefined ? undefined : globToRegExp(filter.name);
  return (plant) =>
    (tags.size === 0 || (typeof plant.tag === 'string' && tags.has(plant.tag))) &&
    (name === undefined || name.test(plant.name));
}

/** The plants that pass, batch by batch as they come. */
export async function* filterPlants(batches: AsyncIterable<Plant[]>, filter: PlantFilter): AsyncGenerator<Plant[]> {
  if (!hasFilter(filter)) {
    yield* batches;
    return;
  }
  const matches = plantMatcher(filter);
  for await (const batch of batches) {
    const kept = batch.filter(matches);
    if (kept.length) yield kept;
  }
}
