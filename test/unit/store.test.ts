import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlantStore } from '../../src/server/store.js';

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
