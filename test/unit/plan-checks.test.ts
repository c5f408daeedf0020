import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Plant } from '../../src/api/responses.js';
import { markdown } from '../../src/commands/apply-show.js';
import type { PlantsById } from '../../src/deletion/guard.js';
import { ageText, checkPlanAge, checkPlanCap, checkPlanPlace, placeOf } from '../../src/deletion/plan/checks.js';
import type { PlanDocument, PlannedPlant } from '../../src/deletion/plan/document.js';
import { deletedByPlan, settleDoneBefore } from '../../src/deletion/plan/done-before.js';
import { driftOutcome, planVerdicts, targetsToSend } from '../../src/deletion/plan/verdicts.js';
import { idKey } from '../../src/deletion/protections.js';
import type { DeleteOutcome } from '../../src/deletion/results.js';
import { forgetSecrets, maskSecrets, registerSecret } from '../../src/secrets/registry.js';
import { ExitCode, RefusedError } from '../../src/shared/errors.js';
import { parseMaxAge } from '../../src/shared/values.js';

afterEach(() => forgetSecrets());

const HOUR = 3_600_000;
const MADE = Date.parse('2026-11-29T10:00:00.000Z');
const planned = (id: string, name: string | null = `Plant ${id}`, tag: string | null = 'seedling'): PlannedPlant => ({
  id,
  id_type: 'number',
  name,
  tag,
});
const plan = (plants: PlannedPlant[], more: Partial<PlanDocument> = {}): PlanDocument => ({
  kind: 'plants.deletion-plan',
  version: 1,
  plan_id: 'abcdef12-3456-4789-8abc-def012345678',
  created_at: new Date(MADE).toISOString(),
  origin: 'https://plants.example.com',
  path_prefix: '/api',
  profile: 'prod',
  selection: { command: 'prune', tags: ['seedling'], name: null, all: false, limit: null },
  include_protected: false,
  protections: { ids: [], tags: [], names: [] },
  max_deletes: null,
  plants,
  ...more,
});
const refusal = (check: () => void): string => {
  try {
    check();
  } catch (err) {
    expect(err).toBeInstanceOf(RefusedError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('checkPlanPlace', () => {
  const here = placeOf(new URL('https://plants.example.com/api/'), 'prod', (text) => text);

  it('takes the origin and the path without its trailing slash', () => {
    expect(here).toEqual({ origin: 'https://plants.example.com', pathPrefix: '/api', profile: 'prod' });
    expect(placeOf(new URL('http://h:8080'), 'p', (t) => t)).toEqual({
      origin: 'http://h:8080',
      pathPrefix: '',
      profile: 'p',
    });
    expect(() => checkPlanPlace(plan([]), here)).not.toThrow();
  });

  it('names every difference', () => {
    expect(
      refusal(() =>
        checkPlanPlace(plan([]), { origin: 'http://plants.example.com', pathPrefix: '', profile: 'staging' }),
      ),
    ).toBe(
      'plan abcdef12 was made for another service: origin "https://plants.example.com", not "http://plants.example.com"; path prefix "/api", not "/"; profile "prod", not "staging"; nothing was deleted; apply it with the base URL and profile it was made for (--profile, PLANTS_BASE_URL), or make a new plan',
    );
    expect(refusal(() => checkPlanPlace(plan([], { path_prefix: '' }), here))).toContain(
      'path prefix "/", not "/api";',
    );
  });

  it('compares a path holding the token as the plan keeps it: masked', () => {
    registerSecret('s3cr3t-token-value');
    const place = placeOf(new URL('https://h/t/s3cr3t-token-value'), 'p', maskSecrets);
    expect(place.pathPrefix).not.toContain('s3cr3t');
    expect(() =>
      checkPlanPlace(plan([], { origin: 'https://h', path_prefix: place.pathPrefix, profile: 'p' }), place),
    ).not.toThrow();
  });
});

describe('checkPlanAge', () => {
  const age = (ms: number, max: number) => () => checkPlanAge(plan([]), max, MADE + ms);

  it('takes a plan exactly as old as --max-age, refuses one a moment older', () => {
    expect(age(24 * HOUR, 24 * HOUR)).not.toThrow();
    expect(refusal(age(24 * HOUR + 1, 24 * HOUR))).toBe(
      'plan abcdef12 was made at 2026-11-29T10:00:00.000Z, 24h ago, more than --max-age 24h; nothing was deleted; make a new plan and have it reviewed, or pass --max-age (0 for no limit)',
    );
    expect(age(365 * 24 * HOUR, 0)).not.toThrow();
  });

  it('allows a clock five minutes behind, not more', () => {
    expect(age(-5 * 60_000, HOUR)).not.toThrow();
    expect(refusal(age(-5 * 60_000 - 1, 0))).toContain(
      'later than now (2026-11-29T09:54:59.999Z); nothing was deleted; check this machine',
    );
  });

  it('says durations the way --max-age takes them', () => {
    expect(
      [0, 59_999, 60_000, 59 * 60_000 + 59_999, HOUR, HOUR + 60_000, 47 * HOUR, 48 * HOUR, 50 * HOUR].map(ageText),
    ).toEqual(['0s', '59s', '1m', '59m', '1h', '1h 1m', '47h', '2d', '2d 2h']);
  });
});

describe('parseMaxAge', () => {
  it.each([
    ['0', 0],
    ['000', 0],
    ['1s', 1000],
    ['30m', 30 * 60_000],
    ['24h', 24 * HOUR],
    [' 7d ', 7 * 24 * HOUR],
    ['2W', 14 * 24 * HOUR],
  ])('%j is %d ms', (raw, ms) => expect(parseMaxAge(raw)).toBe(ms));

  it.each(['', 'h', '1', '-1h', '1.5h', '24 hours', '0h', '99999999999999999d'])('refuses %j', (raw) => {
    expect(() => parseMaxAge(raw)).toThrow(
      `invalid --max-age ${JSON.stringify(raw)}: expected a duration such as 30m, 24h or 7d, or 0 for no limit`,
    );
  });
});

describe('checkPlanCap', () => {
  const two = plan([planned('1'), planned('2')]);
  const flag = { flag: true, profile: 'prod' };

  it('takes a plan as large as the cap, refuses one larger', () => {
    expect(() => checkPlanCap(two, undefined, 0, flag)).not.toThrow();
    expect(() => checkPlanCap(two, 2, 0, flag)).not.toThrow();
    expect(refusal(() => checkPlanCap(two, 1, 0, flag))).toBe(
      'plan abcdef12 holds 2 plants, more than --max-deletes 1; nothing was deleted; pass a larger --max-deletes',
    );
    expect(refusal(() => checkPlanCap(plan([planned('1')]), 0, 0, { flag: false, profile: 'prod' }))).toBe(
      'plan abcdef12 holds 1 plant, more than the max-deletes 0 of profile prod; nothing was deleted; pass --max-deletes <n> to allow more for this run',
    );
  });

  it('takes a percentage of the plants listed now, rounded down', () => {
    expect(() => checkPlanCap(two, { percent: 10 }, 20, flag)).not.toThrow();
    expect(refusal(() => checkPlanCap(two, { percent: 10 }, 19, flag))).toContain(
      'more than --max-deletes 10% (1 of the 19 plants listed)',
    );
  });
});

describe('planVerdicts', () => {
  const byId = (plants: Plant[]): PlantsById => {
    const map: PlantsById = new Map();
    for (const plant of plants) {
      const key = idKey(String(plant.id));
      map.set(key, [...(map.get(key) ?? []), plant]);
    }
    return map;
  };
  const listed = (id: number, name: string, tag?: string | null): Plant => ({
    id,
    name,
    ...(tag === undefined ? {} : { tag }),
  });
  const none = { ids: [], tags: [], names: [] };

  it('deletes a plant listed as planned; one gone is not_found, one renamed or retagged changed', () => {
    const doc = plan([
      planned('1'),
      planned('2'),
      planned('3'),
      planned('4'),
      planned('5', 'Plant 5', null),
      planned('6', 'Plant 6', null),
    ]);
    const list = byId([
      listed(1, 'Plant 1', 'seedling'),
      listed(3, 'Plant three', 'seedling'),
      listed(4, 'Plant 4', 'Seedling'),
      listed(5, 'Plant 5', null),
      listed(6, 'Plant 6'),
    ]);
    expect(planVerdicts(doc, list, none).map((v) => [v.planned.id, v.action, v.why])).toEqual([
      ['1', 'delete', undefined],
      ['2', 'not_found', 'no longer listed'],
      ['3', 'changed', 'name "Plant 3" is now "Plant three"'],
      ['4', 'changed', 'tag "seedling" is now "Seedling"'],
      ['5', 'delete', undefined],
      ['6', 'delete', undefined],
    ]);
    const both = planVerdicts(plan([planned('1')]), byId([listed(1, 'x', 'y')]), none)[0]!;
    expect(both.why).toBe('name "Plant 1" is now "x", tag "seedling" is now "y"');
    const untagged = planVerdicts(plan([planned('1')]), byId([listed(1, 'Plant 1')]), none)[0]!;
    expect(untagged.why).toBe('tag "seedling" is now none');
  });

  it('compares names as the plan keeps them: the token masked', () => {
    registerSecret('s3cr3t-token-value');
    const doc = plan([planned('1', maskSecrets('a s3cr3t-token-value'))]);
    expect(planVerdicts(doc, byId([listed(1, 'a s3cr3t-token-value', 'seedling')]), none)[0]!.action).toBe('delete');
  });

  it('marks a plant protected by a rule in force now; none without rules', () => {
    const doc = plan([planned('1'), planned('2'), planned('3')]);
    const list = byId([
      listed(1, 'Plant 1', 'seedling'),
      listed(2, 'Plant 2', 'seedling'),
      listed(3, 'Plant 3', 'seedling'),
    ]);
    const rules = { ids: ['03'], tags: [], names: ['plant 2'] };
    expect(planVerdicts(doc, list, rules).map((v) => [v.action, v.why])).toEqual([
      ['delete', undefined],
      ['protected', 'name "plant 2"'],
      ['protected', 'id "03"'],
    ]);
    expect(planVerdicts(doc, list, undefined).map((v) => v.action)).toEqual(['delete', 'delete', 'delete']);
    expect(targetsToSend(planVerdicts(doc, list, rules)).map((t) => t.id)).toEqual(['1', '2', '3']);
    expect(targetsToSend(planVerdicts(plan([planned('1'), planned('9')]), list, none))).toEqual([
      { id: '1', plant: listed(1, 'Plant 1', 'seedling') },
    ]);
  });

  it("says which plants the plan's own selection chose: prune's filters, delete's ids", () => {
    const list = byId([listed(1, 'Old fern', 'seedling'), listed(2, 'Oak', 'tree'), listed(3, 'Old oak', null)]);
    const plants = [planned('1', 'Old fern'), planned('2', 'Oak', 'tree'), planned('3', 'Old oak', null)];
    const chosen = (selection: PlanDocument['selection']) =>
      planVerdicts(plan(plants, { selection }), list, none).map((v) => v.chosen);
    expect(chosen({ command: 'prune', tags: ['seedling'], name: null, all: false, limit: null })).toEqual([
      true,
      false,
      false,
    ]);
    expect(chosen({ command: 'prune', tags: [], name: 'Old *', all: false, limit: null })).toEqual([true, false, true]);
    expect(chosen({ command: 'prune', tags: ['tree', 'seedling'], name: 'O*', all: false, limit: 1 })).toEqual([
      true,
      true,
      false,
    ]);
    expect(chosen({ command: 'prune', tags: [], name: null, all: true, limit: null })).toEqual([true, true, true]);
    expect(chosen({ command: 'delete', ids: ['3', '1'] })).toEqual([true, false, true]);
  });
});

describe('driftOutcome', () => {
  it('is not sent: changed exits 5, not_found 3, each saying why', () => {
    const changed = driftOutcome({
      planned: planned('7'),
      action: 'changed',
      why: 'name "a" is now "b"',
      chosen: true,
    });
    expect(changed.result).toEqual({
      id: '7',
      result: 'changed',
      status: null,
      request_id: null,
      error: { error: null, message: 'plant 7 changed since the plan (name "a" is now "b"); it was not deleted' },
    });
    expect([changed.error!.exitCode, changed.error!.code]).toEqual([ExitCode.changed, 'changed']);
    const gone = driftOutcome({ planned: planned('8'), action: 'not_found', why: 'no longer listed', chosen: true });
    expect(gone.result.error!.message).toBe('plant 8 is no longer listed; it was not deleted');
    expect([gone.error!.exitCode, gone.error!.code, gone.result.result]).toEqual([3, 'not_found', 'not_found']);
  });
});

describe('a plant an earlier apply of the plan deleted', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
  const record = (fields: Record<string, unknown>) =>
    JSON.stringify({
      v: 1,
      run: 'run-1',
      time: '2026-11-29T10:00:00.000Z',
      command: 'apply',
      profile: 'p',
      base_url: 'u',
      plan: 'P',
      ...fields,
    });

  it('counts what a run of that plan sent and did not see fail', () => {
    dir = mkdtempSync(join(tmpdir(), 'plants-plan-'));
    const lines = [
      record({ event: 'start', plants: 6 }),
      ...['1', '2', '3', '4', '5'].map((id) => record({ event: 'intent', id, request_id: `r${id}` })),
      record({ event: 'outcome', id: '1', request_id: 'r1', result: 'deleted', status: 204 }),
      record({ event: 'outcome', id: '2', request_id: 'r2', result: 'unknown', status: null }),
      record({ event: 'outcome', id: '3', request_id: 'r3', result: 'not_found', status: 404 }),
      record({ event: 'outcome', id: '4', request_id: 'r4', result: 'failed', status: 500 }),
      record({ event: 'outcome', id: '6', request_id: null, result: 'skipped', status: null }),
      record({ event: 'intent', id: '7', request_id: 'r7', plan: 'Q', run: 'run-2' }),
      record({ event: 'outcome', id: '8', request_id: 'r8', result: 'gone', status: 404, run: 'run-3' }),
      record({ event: 'intent', id: '8', request_id: 'r8b', run: 'run-3' }),
      record({ event: 'outcome', id: '8', request_id: 'r8b', result: 'gone', status: 404, run: 'run-3' }),
      'not a record',
    ];
    writeFileSync(join(dir, 'deletions.jsonl'), `${lines.join('\n')}\n`);
    expect([...deletedByPlan(dir, 'P')].sort()).toEqual([
      ['1', 'run-1'],
      ['2', 'run-1'],
      ['5', 'run-1'],
      ['8', 'run-3'],
    ]);
    expect([...deletedByPlan(dir, 'Q')]).toEqual([['7', 'run-2']]);
    expect(deletedByPlan(join(dir, 'none'), 'P').size).toBe(0);
  });

  it('makes those not found done: no error, so no failure', () => {
    const outcome = (id: string, result: 'not_found' | 'deleted' | 'changed'): DeleteOutcome =>
      result === 'deleted'
        ? { result: { id, result, status: 204, request_id: 'x' }, attempts: 1 }
        : driftOutcome({ planned: planned(id), action: result, why: 'w', chosen: true });
    const settled = settleDoneBefore(
      [outcome('1', 'not_found'), outcome('2', 'not_found'), outcome('3', 'deleted'), outcome('4', 'changed')],
      new Map([
        ['1', 'run-a'],
        ['3', 'run-b'],
        ['4', 'run-b'],
      ]),
    );
    expect(settled.done).toBe(1);
    expect(settled.runs).toEqual(['run-a']);
    expect(settled.outcomes.map((o) => [o.result.result, o.error?.code, o.result.error?.message])).toEqual([
      ['not_found', undefined, undefined],
      ['not_found', 'not_found', 'plant 2 is no longer listed; it was not deleted'],
      ['deleted', undefined, undefined],
      ['changed', 'changed', 'plant 4 changed since the plan (w); it was not deleted'],
    ]);
  });
});

describe('the Markdown of a dry run', () => {
  it('keeps the service text in its cell, shown as written', () => {
    const doc = plan([planned('1', 'a|b <img src=x> *c* _d_ `e` [f](g) ~h~ \\i', 'x&y')], {
      selection: { command: 'prune', tags: ['t|1'], name: 'O*', all: true, limit: 5 },
    });
    const text = markdown(doc, [
      { planned: doc.plants[0]!, action: 'changed', why: 'name "x" is now "y"', chosen: false },
    ]);
    expect(text).toBe(
      [
        '### Deletion plan abcdef12',
        '',
        'Made 2026-11-29T10:00:00.000Z by prune --tag t\\|1 --name O\\* --all --limit 5, for https://plants.example.com/api (profile prod). 0 of 1 planned plant would be deleted.',
        '',
        '| ID | Name | Tag | Action | Reason |',
        '| --- | --- | --- | --- | --- |',
        '| 1 | a\\|b &lt;img src=x&gt; \\*c\\* \\_d\\_ \\`e\\` \\[f\\](g) \\~h\\~ \\\\i | x&amp;y | **changed** | name "x" is now "y"; added by hand: not chosen by the plan\'s selection |',
        '',
      ].join('\n'),
    );
    expect(markdown(plan([], { selection: { command: 'delete', ids: ['1'] } }), [])).toContain(
      'by delete of 1 id, for',
    );
  });
});
