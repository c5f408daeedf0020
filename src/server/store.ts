import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/** A plant as the local store keeps it. Ids are integers when the store makes them; a data file may use any JSON scalar. */
export interface StoredPlant {
  id: string | number;
  name: string;
  tag?: string;
  [field: string]: unknown;
}

const SAMPLE_NAMES = [
  'Monstera deliciosa', 'Ficus lyrata', 'Sansevieria trifasciata', 'Pothos', 'Calathea orbifolia',
  'Aloe vera', 'Echeveria elegans', 'Zamioculcas zamiifolia', 'Peperomia obtusifolia', 'Pilea peperomioides',
  'Strelitzia nicolai', 'Spathiphyllum wallisii', 'Chlorophytum comosum', 'Hoya carnosa', 'Haworthia fasciata',
];
const SAMPLE_TAGS = ['tropical', 'succulent', 'fern', 'seedling', undefined];

/**
 * The plants, in insertion order, keyed by the text form of their id (the
 * form a DELETE path carries). Lookups and deletes cost the same whatever the
 * store's size.
 */
export class PlantStore {
  readonly #plants = new Map<string, StoredPlant>();
  #nextId = 1;

  constructor(plants: Iterable<StoredPlant> = []) {
    for (const plant of plants) this.add(plant);
  }

  get size(): number {
    return this.#plants.size;
  }

  add(plant: Omit<StoredPlant, 'id'> & { id?: string | number }): StoredPlant {
    const { id: given, ...fields } = plant;
    const id = given ?? this.#nextId;
    // id first, as services usually order it.
    const stored = { id, ...fields } as StoredPlant;
    this.#plants.set(String(id), stored);
    if (typeof id === 'number' && id >= this.#nextId) this.#nextId = id + 1;
    return stored;
  }

  /** Add `count` sample plants with generated ids. */
  seed(count: number): void {
    for (let i = 0; i < count; i += 1) {
      // Past the first round of names, number them so every plant is distinguishable.
      const round = Math.floor(i / SAMPLE_NAMES.length);
      const base = SAMPLE_NAMES[i % SAMPLE_NAMES.length]!;
      const name = round === 0 ? base : `${base} ${round + 1}`;
      const tag = SAMPLE_TAGS[i % SAMPLE_TAGS.length];
      this.add(tag === undefined ? { name } : { name, tag });
    }
  }

  /** The first `limit` plants (all when undefined). */
  list(limit?: number): StoredPlant[] {
    const out: StoredPlant[] = [];
    for (const plant of this.#plants.values()) {
      if (limit !== undefined && out.length >= limit) break;
      out.push(plant);
    }
    return out;
  }

  /** Delete by the id's text form; false when there is no such plant. */
  delete(id: string): boolean {
    return this.#plants.delete(id);
  }

  toJSON(): StoredPlant[] {
    return [...this.#plants.values()];
  }

  static load(file: string): PlantStore {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array of plants`);
    parsed.forEach((item: unknown, index) => {
      const plant = item as Partial<StoredPlant> | null;
      if (
        typeof plant !== 'object' || plant === null ||
        typeof plant.name !== 'string' ||
        (typeof plant.id !== 'string' && typeof plant.id !== 'number')
      ) {
        throw new Error(`${file}: item ${index} needs a string "name" and a string or number "id"`);
      }
    });
    return new PlantStore(parsed as StoredPlant[]);
  }

  /** Write atomically: a crash mid-write never leaves half a file. */
  save(file: string): void {
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(this, null, 2)}\n`);
    renameSync(temp, file);
  }
}
