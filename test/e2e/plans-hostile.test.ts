import { afterEach, describe, expect, it } from 'vitest';
import { rawServer, type RawServer } from '../helpers/servers.js';
import type { StoredPlant } from '../../src/server/store.js';
import { planRuns } from '../helpers/plan-runs.js';

// A hostile pass over deletion plans (docs/plans.md): hand edits, odd services, odd files.

const setup = planRuns();
const { start, planFile, plants, editPlan, results, deletes, ok } = setup;

describe('a planned id is matched to the list exactly', () => {
  it('a hand-added "05" or "4.0" is not the plant listed as 5 or 4: not_found, and no DELETE is sent for it', async () => {
    await start([
      { id: 4, name: 'Pothos', tag: 'seedling' },
      { id: 5, name: 'Fern', tag: null },
    ] as StoredPlant[]);
    ok(await plants(['delete', '4', '--plan', planFile()]));
    editPlan((plan) => ({
      ...plan,
      plants: [
        { id: '4.0', id_type: 'number', name: 'Pothos', tag: 'seedling' },
        { id: '05', id_type: 'string', name: 'Fern', tag: null },
      ],
    }));
    const dry = ok(await plants(['apply', planFile(), '--dry-run', '--json']));
    expect((JSON.parse(dry.stdout) as { id: string; action: string }[]).map((v) => [v.id, v.action])).toEqual([
      ['4.0', 'not_found'],
      ['05', 'not_found'],
    ]);
    const applied = await plants(['apply', planFile(), '--yes', '--json']);
    expect(applied.code, applied.stderr).toBe(3);
    expect(results(applied)).toEqual([
      ['4.0', 'not_found'],
      ['05', 'not_found'],
    ]);
    expect(deletes()).toEqual([]);
  });
});

describe('a service that lists one id twice', () => {
  let server: RawServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a planned plant listed again under its id as another plant is changed, not sent: which one a DELETE takes is unknown', async () => {
    let listed: unknown[] = [{ id: 1, name: 'Fern', tag: 'seedling' }];
    server = await rawServer((req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
        return;
      }
      res.writeHead(204).end();
    });
    const serverEnv = { PLANTS_BASE_URL: server.url };
    ok(await plants(['delete', '1', '--plan', planFile()], serverEnv));
    listed = [
      { id: 1, name: 'Fern', tag: 'seedling' },
      { id: 1, name: 'Oak', tag: 'tree' },
    ];
    const applied = await plants(['apply', planFile(), '--yes', '--json'], serverEnv);
    expect(applied.code, applied.stderr).toBe(5);
    expect(results(applied)).toEqual([['1', 'changed']]);
    expect(server.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });
});

describe('plan files that are no file of a plan', () => {
  it('an endless file (/dev/zero) is refused once past the bound, not read to the end of memory', async () => {
    await start([]);
    const applied = await plants(['apply', '/dev/zero', '--dry-run']);
    expect([applied.code, applied.stderr]).toEqual([
      2,
      'plants: /dev/zero is larger than any plan; nothing was deleted\n',
    ]);
  }, 30_000);

  it('a directory is refused, naming why', async () => {
    await start([]);
    const applied = await plants(['apply', setup.dir, '--dry-run']);
    expect(applied.code).toBe(2);
    expect(applied.stderr).toContain('cannot read the plan');
  });
});
