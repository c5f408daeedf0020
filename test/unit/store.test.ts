import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlantStore, type StoredPlant } from '../../src/server/store.js';
import { parseJson } from '../../src/shared/json.js';

describe('PlantStore.listJson', () => {
  const store = new PlantStore([
    { id: 'a-1', name: 'Fern "Boston"', tag: 'fern' },
    { id: 7, name: 'Cactus\n', extra: { height: 1.5, pots: [1, 2] } },
  ]);
  store.add({ name: 'Ivy \u2028 \u{1F33F}', tag: undefined });

  it.each([undefined, 0, 1, 2, 3, 10])('is JSON.stringify(list(%s))', (limit) => {
    expect(store.listJson(limit).toString()).toBe(JSON.stringify(store.list(limit)));
  });

  it('follows deletes and additions', () => {
    const changing = new PlantStore();
    changing.seed(20);
    expect(changing.listJson(2).toString()).toBe(JSON.stringify(changing.list(2)));
    changing.delete('3');
    changing.add({ name: 'New' });
    expect(changing.listJson().toString()).toBe(JSON.stringify(changing.list()));
    expect(changing.listJson(19).toString()).toBe(JSON.stringify(changing.list(19)));
    expect((JSON.parse(changing.listJson(5).toString()) as { id: number }[]).map((p) => p.id)).toEqual([1, 2, 4, 5, 6]);
  });
});

describe('PlantStore.load and save', () => {
  it('keep numbers as written, and tell ids apart above 2^53', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plants-store-'));
    try {
      const file = join(dir, 'plants.json');
      writeFileSync(
        file,
        '[{"id":9007199254740992,"name":"Below"},{"id":9007199254740993,"name":"Above","height":1.50}]',
      );
      const store = PlantStore.load(file);
      expect(store.size).toBe(2);
      expect(store.listJson().toString()).toBe(
        '[{"id":9007199254740992,"name":"Below"},{"id":9007199254740993,"name":"Above","height":1.50}]',
      );
      expect(store.delete('9007199254740993')).toBe(true);
      expect(store.delete('9007199254740993')).toBe(false);
      store.save(file);
      expect(readFileSync(file, 'utf8')).toBe('[\n  {\n    "id": 9007199254740992,\n    "name": "Below"\n  }\n]\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('name a bad item by its position, counted from 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plants-store-'));
    try {
      const file = join(dir, 'plants.json');
      writeFileSync(file, '[{"id":1,"name":"Fern"},{"id":2}]');
      expect(() => PlantStore.load(file)).toThrow(`${file}: item 2 needs a string "name"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PlantStore.update', () => {
  it('renames and retags in place, and the list follows', () => {
    const store = new PlantStore([
      { id: 1, name: 'Fern', tag: 'fern' },
      { id: 2, name: 'Ivy' },
    ]);
    expect(store.update('1', { name: 'Boston fern' })).toEqual({ id: 1, name: 'Boston fern', tag: 'fern' });
    expect(store.update('2', { tag: 'vine' })).toEqual({ id: 2, name: 'Ivy', tag: 'vine' });
    expect(store.update('1', { tag: null })).toEqual({ id: 1, name: 'Boston fern' });
    expect(store.update('3', { name: 'x' })).toBeUndefined();
    expect(store.listJson().toString()).toBe('[{"id":1,"name":"Boston fern"},{"id":2,"name":"Ivy","tag":"vine"}]');
  });

  it('finds an id above 2^53 by its exact text', () => {
    const plants = parseJson('[{"id": 9007199254740993, "name": "Big"}, {"id": 9007199254740992, "name": "Near"}]');
    const store = new PlantStore(plants as StoredPlant[]);
    expect(store.update('9007199254740993', { tag: 'big' })).toBeDefined();
    expect(store.listJson().toString()).toBe(
      '[{"id":9007199254740993,"name":"Big","tag":"big"},{"id":9007199254740992,"name":"Near"}]',
    );
  });
});
