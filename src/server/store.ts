import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { JsonNumber, numberText, parseJson, stringifyJson } from '../shared/json.js';

/**
 * A plant as the local store keeps it. Ids are integers when the store makes
 * them; a data file may use a string or any number, kept exactly as written
 * (a JsonNumber when a JavaScript number would change it, as above 2^53).
 */
export interface StoredPlant {
  id: string | number | JsonNumber;
  name: string;
  tag?: string;
  [field: string]: unknown;
}

const SAMPLE_NAMES = [
  'Monstera deliciosa',
  'Ficus lyrata',
  'Sansevieria trifasciata',
  'Pothos',
  'Calathea orbifolia',
  'Aloe vera',
  'Echeveria elegans',
  'Zamioculcas zamiifolia',
  'Peperomia obtusifolia',
  'Pilea peperomioides',
  'Strelitzia nicolai',
  'Spathiphyllum wallisii',
  'Chlorophytum comosum',
  'Hoya carnosa',
  'Haworthia fasciata',
];
const SAMPLE_TAGS = ['tropical', 'succulent', 'fern', 'seedling', undefined];

/**
 * The plants, in insertion order, keyed by the text form of their id (the
 * form a DELETE path carries). Lookups and deletes cost the same whatever the
 * store's size. Each plant's JSON is made once, when it is added, and the
 * list's bytes once after each change: a list request only slices them.
 */
export class PlantStore {
  readonly #plants = new Map<string, { plant: StoredPlant; json: string }>();
  /** The whole list as JSON bytes, and where each plant's JSON ends in it; made again after a change. */
  #body: { bytes: Buffer; ends: number[] } | undefined;
  #nextId = 1;

  constructor(plants: Iterable<StoredPlant> = []) {
    for (const plant of plants) this.add(plant);
  }

  get size(): number {
    return this.#plants.size;
  }

  add(plant: Omit<StoredPlant, 'id'> & { id?: StoredPlant['id'] }): StoredPlant {
    const { id: given, ...fields } = plant;
    const id = given ?? this.#nextId;
    // id first, as services usually order it.
    // Frozen: the JSON made here must stay what the plant is.
    const stored = Object.freeze({ id, ...fields }) as StoredPlant;
    // A JsonNumber's key is its text: 9007199254740993 is not 9007199254740992.
    this.#plants.set(id instanceof JsonNumber ? numberText(id) : String(id), {
      plant: stored,
      json: stringifyJson(stored),
    });
    this.#body = undefined;
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
    return this.#first(limit).map((entry) => entry.plant);
  }

  /** list(limit) as JSON: the bytes of what stringifyJson would make of it. */
  listJson(limit?: number): Buffer {
    const { bytes, ends } = (this.#body ??= this.#makeBody());
    const count = limit === undefined ? ends.length : Math.min(limit, ends.length);
    if (count === ends.length) return bytes;
    if (count === 0) return Buffer.from('[]');
    return Buffer.concat([bytes.subarray(0, ends[count - 1]), Buffer.from(']')]);
  }

  #makeBody(): { bytes: Buffer; ends: number[] } {
    const jsons: string[] = [];
    const ends: number[] = [];
    let end = 1; // after `[`
    for (const { json } of this.#plants.values()) {
      jsons.push(json);
      end += Buffer.byteLength(json);
      ends.push(end);
      end += 1; // the comma
    }
    return { bytes: Buffer.from(`[${jsons.join(',')}]`), ends };
  }

  #first(limit?: number): { plant: StoredPlant; json: string }[] {
    const out: { plant: StoredPlant; json: string }[] = [];
    for (const entry of this.#plants.values()) {
      if (limit !== undefined && out.length >= limit) break;
      out.push(entry);
    }
    return out;
  }

  /** One plant's JSON by the id's text form; undefined when there is no such plant. */
  get(id: string): string | undefined {
    return this.#plants.get(id)?.json;
  }

  /**
   * Rename or retag a plant, by the id's text form, keeping its id and place
   * in the list: `tag: null` takes its tag away. The plant as it is now, or
   * undefined when there is no such plant.
   */
  update(id: string, changes: { name?: string; tag?: string | null }): StoredPlant | undefined {
    const entry = this.#plants.get(id);
    if (entry === undefined) return undefined;
    const { tag: _old, ...rest } = entry.plant;
    const tag = changes.tag === undefined ? entry.plant.tag : changes.tag;
    const fields = { ...rest, ...(changes.name === undefined ? {} : { name: changes.name }) };
    const plant = Object.freeze(tag === undefined || tag === null ? fields : { ...fields, tag }) as StoredPlant;
    // Map.set on a key it holds keeps the key's place: the list's order does not change.
    this.#plants.set(id, { plant, json: stringifyJson(plant) });
    this.#body = undefined;
    return plant;
  }

  /** Delete by the id's text form; false when there is no such plant. */
  delete(id: string): boolean {
    if (!this.#plants.delete(id)) return false;
    this.#body = undefined;
    return true;
  }

  toJSON(): StoredPlant[] {
    return this.list();
  }

  /** Numbers come back as written (see parseJson), so saving after a change does not round them. */
  static load(file: string): PlantStore {
    const parsed: unknown = parseJson(readFileSync(file, 'utf8'));
    if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array of plants`);
    parsed.forEach((item: unknown, index) => {
      const plant = item as Partial<StoredPlant> | null;
      if (
        typeof plant !== 'object' ||
        plant === null ||
        typeof plant.name !== 'string' ||
        (typeof plant.id !== 'string' && typeof plant.id !== 'number' && !(plant.id instanceof JsonNumber))
      ) {
        throw new Error(`${file}: item ${index + 1} needs a string "name" and a string or number "id"`);
      }
    });
    return new PlantStore(parsed as StoredPlant[]);
  }

  /** Write atomically: a crash mid-write never leaves half a file. */
  save(file: string): void {
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${stringifyJson(this.list(), 2)}\n`);
    renameSync(temp, file);
  }
}
