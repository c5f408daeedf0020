import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Plant } from '../../src/api/responses.js';
import type { Protections } from '../../src/config/profile-settings.js';
import {
  guardDeletion,
  profileGuard,
  type DeletionTarget,
  type GuardRequest,
  type ProfileGuard,
  type ProfileSettings,
} from '../../src/deletion/guard.js';
import { ConfigError, RefusedError } from '../../src/shared/errors.js';

// The guard on data: targets, the profile's cap and rules, and a list it reads only when it must.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const NO_RULES: Protections = { ids: [], tags: [], names: [] };

/** A list read in one batch; `reads` counts how often it was read. */
function listOf(plants: object[]) {
  const list = { reads: 0 };
  async function* listPlants() {
    list.reads += 1;
    yield await Promise.resolve(plants as Plant[]);
  }
  return Object.assign(list, { listPlants });
}

function request(
  targets: DeletionTarget[],
  over: Partial<Omit<GuardRequest, 'guard'>> & { guard?: Partial<ProfileGuard> } = {},
): GuardRequest {
  const list = listOf([]);
  const warn = vi.fn();
  return {
    targets,
    options: { includeProtected: false },
    listPlants: list.listPlants,
    warn,
    ...over,
    guard: { profile: 'prod', rules: NO_RULES, ...over.guard },
  };
}

const ids = (...values: string[]) => values.map((id) => ({ id }));

describe('profileGuard', () => {
  it('without a config file: no cap, no rules, and the file is not opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plants-guard-'));
    dirs.push(dir);
    const load = vi.fn();
    expect(await profileGuard({ PLANTS_CONFIG_DIR: dir }, load)).toEqual({ profile: '', rules: NO_RULES });
    expect(load).not.toHaveBeenCalled();
  });

  function withConfig(maxDeletes: string | undefined, rules: Protections = NO_RULES) {
    const dir = mkdtempSync(join(tmpdir(), 'plants-guard-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'config.json'), '{}');
    const store: ProfileSettings = {
      path: join(dir, 'config.json'),
      get: (profile, key) => (profile === 'prod' && key === 'max-deletes' ? maxDeletes : undefined),
      protections: (profile) => (profile === 'prod' ? rules : NO_RULES),
    };
    return profileGuard({ PLANTS_CONFIG_DIR: dir }, () => Promise.resolve({ store, profile: 'prod' }));
  }

  it("reads the selected profile's cap and rules", async () => {
    const rules = { ids: ['7'], tags: ['keep'], names: [] };
    expect(await withConfig('10%', rules)).toEqual({ profile: 'prod', cap: { percent: 10 }, rules });
    expect(await withConfig('5')).toEqual({ profile: 'prod', cap: 5, rules: NO_RULES });
    expect(await withConfig(undefined)).toEqual({ profile: 'prod', cap: undefined, rules: NO_RULES });
  });

  it('refuses a cap it cannot read, naming the file and the fix', async () => {
    const refused = await withConfig('lots').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toMatch(
      /max-deletes of profile prod.* \(config file .*config\.json\); fix it with 'plants config set max-deletes <n>'$/,
    );
  });
});

describe('guardDeletion: the cap', () => {
  it('passes a run at its cap, without reading the list for a number', async () => {
    const list = listOf([]);
    const checked = await guardDeletion(
      request(ids('1', '2'), { listPlants: list.listPlants, options: { includeProtected: false, maxDeletes: 2 } }),
    );
    expect(checked).toEqual(ids('1', '2'));
    expect(list.reads).toBe(0);
  });

  it('refuses one over --max-deletes, counting every id sent (7 and 07 are two requests)', async () => {
    await expect(
      guardDeletion(request(ids('7', '07'), { options: { includeProtected: false, maxDeletes: 1 } })),
    ).rejects.toThrow(new RefusedError('2 plants would be deleted, more than --max-deletes 1; nothing was deleted'));
    await expect(
      guardDeletion(request(ids('7'), { options: { includeProtected: false, maxDeletes: 0 } })),
    ).rejects.toThrow(new RefusedError('1 plant would be deleted, more than --max-deletes 0; nothing was deleted'));
  });

  it("refuses one over the profile's cap, with the way past for delete and for plants api", async () => {
    await expect(guardDeletion(request(ids('1', '2'), { guard: { cap: 1 } }))).rejects.toThrow(
      new RefusedError(
        '2 plants would be deleted, more than the max-deletes 1 of profile prod; nothing was deleted; pass --max-deletes <n> to allow more for this run',
      ),
    );
    await expect(
      guardDeletion(
        request(ids('1', '2'), { guard: { cap: 1 }, options: { includeProtected: false, noMaxDeletesFlag: true } }),
      ),
    ).rejects.toThrow(
      'nothing was deleted; raise it (plants --profile prod config set max-deletes <n>) or remove it (config unset max-deletes), or delete with plants delete --max-deletes <n>',
    );
  });

  it('--max-deletes outranks the profile cap, either way', async () => {
    const raised = request(ids('1', '2'), { guard: { cap: 1 }, options: { includeProtected: false, maxDeletes: 2 } });
    await expect(guardDeletion(raised)).resolves.toEqual(ids('1', '2'));
  });

  it('works a percentage out of the distinct plants listed, reading the list only to count it', async () => {
    const list = listOf([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    const half = { percent: 50 };
    const pass = request(ids('1', '2'), {
      listPlants: list.listPlants,
      options: { includeProtected: false, maxDeletes: half },
    });
    await expect(guardDeletion(pass)).resolves.toEqual(ids('1', '2'));
    expect(list.reads).toBe(1);
    const over = request(ids('1', '2', '3'), {
      listPlants: list.listPlants,
      options: { includeProtected: false, maxDeletes: half },
    });
    await expect(guardDeletion(over)).rejects.toThrow(
      new RefusedError(
        '3 plants would be deleted, more than --max-deletes 50% (2 of the 4 plants listed); nothing was deleted',
      ),
    );
  });

  it('counts a percentage run by distinct plants, and says so when the list holds duplicates', async () => {
    const listed = [{ id: 7 }, { id: '07' }, { id: 8 }] as Plant[];
    const warn = vi.fn();
    const run = request(ids('7', '07', '8'), {
      listed,
      warn,
      options: { includeProtected: false, maxDeletes: { percent: 50 } },
    });
    await expect(guardDeletion(run)).rejects.toThrow(
      new RefusedError(
        '2 distinct plants would be deleted (3 ids), more than --max-deletes 50% (1 of the 2 distinct plants listed); nothing was deleted',
      ),
    );
    expect(warn).toHaveBeenCalledWith(
      'the service listed 1 duplicate id (2 distinct plants in 3 items); a percentage cap counts the distinct plants',
    );
    const one = request(ids('7', '07'), {
      listed,
      warn,
      options: { includeProtected: false, maxDeletes: { percent: 50 } },
    });
    await expect(guardDeletion(one)).resolves.toEqual(ids('7', '07'));
  });

  it('says nothing of a list without duplicates', async () => {
    const warn = vi.fn();
    await guardDeletion(request(ids('1'), { listed: [{ id: 1 }, { id: 2 }] as Plant[], warn }));
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('guardDeletion: the protections', () => {
  it('refuses a protected id without reading the list; --include-protected sets every rule aside', async () => {
    const list = listOf([]);
    const guard = { rules: { ...NO_RULES, ids: ['7'] } };
    await expect(guardDeletion(request(ids('07'), { guard, listPlants: list.listPlants }))).rejects.toThrow(
      /^1 plant is protected in profile prod: plant 07 \(id "7"\); nothing was deleted; leave it out, or pass --include-protected/,
    );
    expect(list.reads).toBe(0);
    const included = request(ids('07'), { guard, listPlants: list.listPlants, options: { includeProtected: true } });
    await expect(guardDeletion(included)).resolves.toEqual(ids('07'));
  });

  it('looks the plants up for a tag rule, and returns the targets with them', async () => {
    const list = listOf([
      { id: 1, name: 'Fern', tag: 'keep' },
      { id: 2, name: 'Moss', tag: 'weed' },
    ]);
    const guard = { rules: { ...NO_RULES, tags: ['keep'] } };
    await expect(guardDeletion(request(ids('1', '2'), { guard, listPlants: list.listPlants }))).rejects.toThrow(
      /^1 plant is protected in profile prod: plant 1 "Fern" \(tag "keep"\); nothing was deleted; leave it out/,
    );
    const checked = await guardDeletion(request(ids('2'), { guard, listPlants: list.listPlants }));
    expect(checked).toEqual([{ id: '2', plant: { id: 2, name: 'Moss', tag: 'weed' } }]);
  });

  it('refuses a plant the list does not hold when a rule needs to see it', async () => {
    const guard = { rules: { ...NO_RULES, names: ['Keep*'] } };
    await expect(guardDeletion(request(ids('9'), { guard, listed: [] }))).rejects.toThrow(
      /^plant 9 is not in the service's list, so cannot be checked against the protections of profile prod \(name "Keep\*"\); nothing was deleted; leave it out/,
    );
  });
});
