import { describe, expect, it } from 'vitest';
import type { Plant } from '../../src/api/responses.js';
import { countListed, duplicatesWarning, ListCounter } from '../../src/deletion/list-count.js';
import {
  confirmQuestion,
  requireSendable,
  uniqueTargets,
  withPlantsSeen,
  wouldDelete,
} from '../../src/deletion/targets.js';
import { UsageError } from '../../src/shared/errors.js';

// A run's targets as data, and the count of what the service listed.

describe('uniqueTargets', () => {
  it('keeps the first of each id, in input order; other spellings of a number are other ids', () => {
    const plant = { id: 1, name: 'first' } as Plant;
    expect(uniqueTargets([{ id: '1', plant }, { id: '2' }, { id: '1' }, { id: '01' }, { id: '2' }])).toEqual([
      { id: '1', plant },
      { id: '2' },
      { id: '01' },
    ]);
    expect(uniqueTargets([])).toEqual([]);
  });
});

describe('requireSendable', () => {
  it('passes ids that are one URL path segment each', () => {
    expect(() => requireSendable(['7', 'a b', 'ünïcode', '%2F'], 'leave it out')).not.toThrow();
    expect(() => requireSendable([], 'leave it out')).not.toThrow();
  });

  it.each(['.', '..'])('refuses %s, naming the way past and that nothing was deleted', (id) => {
    let error: unknown;
    try {
      requireSendable(['7', id], 'narrow --tag or --name to leave it out');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(
      /; nothing was deleted: narrow --tag or --name to leave it out, and delete that plant with the service's own tools$/,
    );
  });
});

describe('wouldDelete', () => {
  it('reports each id as would_delete, nothing sent', () => {
    expect(wouldDelete(['1', '2'])).toEqual([
      { result: { id: '1', result: 'would_delete', status: null, request_id: null } },
      { result: { id: '2', result: 'would_delete', status: null, request_id: null } },
    ]);
  });
});

describe('confirmQuestion', () => {
  it('names one plant by its id (escaped), several by their count', () => {
    expect(confirmQuestion([{ id: '7\n' }], 'example.com (profile default)')).toBe(
      'Delete plant 7\\n from example.com (profile default)?',
    );
    expect(confirmQuestion([{ id: '1' }, { id: '2' }], 'here')).toBe('Delete these 2 plants from here?');
  });
});

describe('withPlantsSeen', () => {
  const ficus = { id: 7, name: 'Ficus' } as Plant;
  it('takes the plant a person saw under exactly the id given', () => {
    expect(withPlantsSeen([{ id: '7' }, { id: '8' }], [{ plant: ficus }, { plant: null }])).toEqual([
      { id: '7', plant: ficus },
      { id: '8' },
    ]);
  });

  it('keeps a plant the run had, and takes none found under another spelling of the id', () => {
    const listed = { id: 7, name: 'Listed' } as Plant;
    expect(withPlantsSeen([{ id: '7', plant: listed }, { id: '07' }], [{ plant: ficus }, { plant: ficus }])).toEqual([
      { id: '7', plant: listed },
      { id: '07' },
    ]);
  });

  it('takes nothing past the rows shown', () => {
    expect(withPlantsSeen([{ id: '7' }, { id: '8' }], [{}])).toEqual([{ id: '7' }, { id: '8' }]);
  });
});

describe('list counts', () => {
  it('counts items, distinct plants (by idKey) and plants without an id', () => {
    const listed = [{ id: 7 }, { id: '07' }, { id: '7.0' }, { id: 8 }, { name: 'no id' }, { id: '' }] as Plant[];
    expect(countListed(listed)).toEqual({ items: 6, distinct: 2, withoutId: 2 });
    const counter = new ListCounter();
    counter.add(listed.slice(0, 2));
    counter.add(listed.slice(2));
    expect(counter.counted).toEqual({ items: 6, distinct: 2, withoutId: 2 });
    expect(countListed([])).toEqual({ items: 0, distinct: 0, withoutId: 0 });
  });

  it('warns of duplicate ids and plants without ids, each counted, singular or plural', () => {
    expect(duplicatesWarning({ items: 3, distinct: 3, withoutId: 0 })).toBeUndefined();
    expect(duplicatesWarning({ items: 2, distinct: 1, withoutId: 0 })).toBe(
      'the service listed 1 duplicate id (1 distinct plant in 2 items); a percentage cap counts the distinct plants',
    );
    expect(duplicatesWarning({ items: 6, distinct: 2, withoutId: 2 })).toBe(
      'the service listed 2 duplicate ids and 2 plants without an id (2 distinct plants in 6 items); a percentage cap counts the distinct plants',
    );
    expect(duplicatesWarning({ items: 1, distinct: 0, withoutId: 1 })).toBe(
      'the service listed 1 plant without an id (0 distinct plants in 1 item); a percentage cap counts the distinct plants',
    );
  });
});
