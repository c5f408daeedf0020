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

export function filterPlants(plants: readonly Plant[], filter: PlantFilter): Plant[] {
  if (!hasFilter(filter)) return [...plants];
  const tags = new Set(filter.tags);
  const name = filter.name === undefined ? undefined : globToRegExp(filter.name);
  return plants.filter(
    (plant) =>
      (tags.size === 0 || (typeof plant.tag === 'string' && tags.has(plant.tag))) &&
      (name === undefined || name.test(plant.name)),
  );
}
