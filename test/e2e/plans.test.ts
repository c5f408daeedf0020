import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_KEYRING, PLANTS_BIN, ROOT, spawnCli, waitFor, type CliResult, type JsonError } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';
import { ECHO_FORMS, expectNoFormOf } from '../helpers/token-forms.js';
import type { JournalRecord } from '../../src/deletion/journal/read.js';
import type { StoredPlant } from '../../src/server/store.js';
import { parseJson } from '../../src/shared/json.js';
import { startPlantStoreServer } from '../../src/server/server.js';
import { PlantStore } from '../../src/server/store.js';
import { planRuns } from '../helpers/plan-runs.js';

// Deletion plans end to end (docs/plans.md): made by prune or delete --plan, applied by plants apply.

const setup = planRuns();
const { start, planFile, env, plants, readPlan, editPlan, results, deletes, ok, plan } = setup;
const garden = (count: number, tag = 'seedling'): { id: number; name: string; tag: string }[] =>
  Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `Plant ${i + 1}`, tag }));
const errorLine = (r: CliResult) => (JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as JsonError).error;
const journal = (): JournalRecord[] =>
  readFileSync(join(setup.dir, 'state', 'deletions.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JournalRecord);

describe('a plan applied as made', () => {
  it('prune --plan sends nothing but the list, writes a 0600 plan, and apply deletes exactly its plants', async () => {
    await start([...garden(3), { id: 4, name: 'Oak', tag: 'tree' }]);
    const made = await plan(['prune', '--tag', 'seedling']);
    expect(made.stdout).toBe('1\n2\n3\n');
    expect(made.stderr).toMatch(
      /^Planned 3 plants for deletion from 127\.0\.0\.1:\d+ \(profile default\): plan [0-9a-f]{8} in .*plan\.json; nothing was sent\. Review it, then: plants apply .*plan\.json\n$/,
    );
    expect(setup.store.requests.map((r) => r.method)).toEqual(['GET']);
    expect(statSync(planFile()).mode & 0o777).toBe(0o600);
    const doc = readPlan();
    expect(doc).toMatchObject({
      kind: 'plants.deletion-plan',
      version: 1,
      origin: setup.store.url,
      path_prefix: '',
      profile: 'default',
      selection: { command: 'prune', tags: ['seedling'], name: null, all: false, limit: null },
      include_protected: false,
      max_deletes: null,
    });
    expect(doc.plants).toEqual(
      garden(3).map((p) => ({ id: String(p.id), id_type: 'number', name: p.name, tag: p.tag })),
    );
    // One plant a line: a reviewer removes a plant by removing its line.
    expect(readFileSync(planFile(), 'utf8')).toContain(
      '\n    {"id":"2","id_type":"number","name":"Plant 2","tag":"seedling"},\n',
    );

    const applied = ok(await plants(['apply', planFile(), '--yes', '--json']));
    expect(results(applied)).toEqual([
      ['1', 'deleted'],
      ['2', 'deleted'],
      ['3', 'deleted'],
    ]);
    expect(deletes()).toEqual(['/plants/1', '/plants/2', '/plants/3']);
    expect(setup.store.store.list().map((p) => p.id)).toEqual([4]);
    const records = journal();
    expect(records.every((record) => record.plan === doc.plan_id && record.command === 'apply')).toBe(true);
    const history = JSON.parse(ok(await plants(['history', '--json'])).stdout) as { plan?: string; command: string }[];
    expect(history).toEqual([expect.objectContaining({ command: 'apply', plan: doc.plan_id })]);
  });

  it('delete --plan keeps the plants as listed, leaves out an id the list does not hold, and says so', async () => {
    await start(garden(3));
    const made = await plan(['delete', '2', '9', '3']);
    expect(made.stderr).toContain("plant 9 is not in the service's list under that id: left out of the plan");
    const doc = readPlan();
    expect(doc.selection).toEqual({ command: 'delete', ids: ['2', '9', '3'] });
    expect(doc.plants.map((p) => p.id)).toEqual(['2', '3']);
    expect(results(ok(await plants(['apply', planFile(), '--yes', '--json'])))).toEqual([
      ['2', 'deleted'],
      ['3', 'deleted'],
    ]);
  });

  it('an empty selection still writes a plan, and applying it deletes nothing and exits 0', async () => {
    await start(garden(2, 'fern'));
    await plan(['prune', '--tag', 'seedling']);
    expect(readPlan().plants).toEqual([]);
    const applied = ok(await plants(['apply', planFile(), '--yes', '--json']));
    expect(JSON.parse(applied.stdout)).toEqual([]);
    expect(deletes()).toEqual([]);
  });

  it('--plan with --dry-run is refused, and a plan needs no --yes off a terminal', async () => {
    await start(garden(1));
    const both = await plants(['prune', '--all', '--plan', planFile(), '--dry-run']);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('--plan and --dry-run')]);
    await plan(['prune', '--all']);
    const noYes = await plants(['apply', planFile()]);
    expect([noYes.code, noYes.stderr]).toEqual([2, 'plants: --yes is required when not running interactively\n']);
  });
});

describe('drift between plan and apply', () => {
  it('deleted, renamed and retagged plants are not sent: not_found and changed, exit 5', async () => {
    await start(garden(5));
    await plan(['prune', '--tag', 'seedling']);
    setup.store.store.delete('1');
    setup.store.store.update('2', { name: 'Plant two' });
    setup.store.store.update('3', { tag: 'tree' });
    setup.store.store.update('4', { tag: null });
    const dry = ok(await plants(['apply', planFile(), '--dry-run', '--json']));
    expect(
      (JSON.parse(dry.stdout) as { id: string; action: string; reason: string | null }[]).map((v) => [
        v.id,
        v.action,
        v.reason,
      ]),
    ).toEqual([
      ['1', 'not_found', 'no longer listed'],
      ['2', 'changed', 'name "Plant 2" is now "Plant two"'],
      ['3', 'changed', 'tag "seedling" is now "tree"'],
      ['4', 'changed', 'tag "seedling" is now none'],
      ['5', 'delete', null],
    ]);
    expect(deletes()).toEqual([]);
    const applied = await plants(['apply', planFile(), '--yes', '--json']);
    expect(applied.code).toBe(5);
    expect(results(applied)).toEqual([
      ['1', 'not_found'],
      ['2', 'changed'],
      ['3', 'changed'],
      ['4', 'changed'],
      ['5', 'deleted'],
    ]);
    expect(deletes()).toEqual(['/plants/5']);
    expect(errorLine(applied)).toEqual({
      code: 'changed',
      status: null,
      message: '3 of 5 plants changed since the plan, 1 not found; make a new plan to delete them',
      request_id: null,
    });
  });

  it('only plants gone: exit 3; with --ignore-missing, 0', async () => {
    await start(garden(3));
    await plan(['prune', '--all']);
    setup.store.store.delete('2');
    expect((await plants(['apply', planFile(), '--yes'])).code).toBe(3);
    setup.store.store.add({ id: 4, name: 'Plant 4' });
    await plan(['prune', '--all']);
    setup.store.store.delete('4');
    expect((await plants(['apply', planFile(), '--yes', '--ignore-missing'])).code).toBe(0);
  });

  it('a plant protected since the plan refuses the whole apply before anything is sent; --include-protected passes', async () => {
    await start(garden(3));
    await plan(['prune', '--all']);
    ok(await plants(['config', 'protect', '--name', 'plant 2']));
    const refused = await plants(['apply', planFile(), '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('1 plant is protected in profile default: plant 2 "Plant 2" (name "plant 2"');
    const dry = await plants(['apply', planFile(), '--dry-run', '--json']);
    expect(dry.code).toBe(2);
    expect((JSON.parse(dry.stdout) as { action: string }[]).map((v) => v.action)).toEqual([
      'delete',
      'protected',
      'delete',
    ]);
    expect(deletes()).toEqual([]);
    ok(await plants(['apply', planFile(), '--yes', '--include-protected']));
    expect(deletes()).toHaveLength(3);
  });

  it('a cap lowered below the plan refuses it: the profile max-deletes, --max-deletes, a percentage', async () => {
    await start(garden(4));
    await plan(['prune', '--all']);
    ok(await plants(['config', 'set', 'max-deletes', '3']));
    const profile = await plants(['apply', planFile(), '--yes']);
    expect([profile.code, profile.stderr]).toEqual([
      2,
      expect.stringMatching(/holds 4 plants, more than the max-deletes 3 of profile default; nothing was deleted/),
    ]);
    const flag = await plants(['apply', planFile(), '--yes', '--max-deletes', '75%']);
    expect(flag.stderr).toContain('more than --max-deletes 75% (3 of the 4 plants listed)');
    expect(deletes()).toEqual([]);
    ok(await plants(['apply', planFile(), '--yes', '--max-deletes', '4']));
    expect(deletes()).toHaveLength(4);
  });
});

describe('refusals before anything is sent', () => {
  it('another origin, path prefix or profile', async () => {
    await start(garden(2));
    await plan(['prune', '--all']);
    const other = await plants(['apply', planFile(), '--yes', '--json'], {
      PLANTS_BASE_URL: setup.store.url.replace('127.0.0.1', 'localhost'),
    });
    expect([other.code, errorLine(other).code]).toEqual([2, 'refused']);
    expect(other.stderr).toMatch(
      /made for another service: origin "http:\/\/127\.0\.0\.1:\d+", not "http:\/\/localhost:\d+"/,
    );
    const prefix = await plants(['apply', planFile(), '--yes'], { PLANTS_BASE_URL: `${setup.store.url}/api/` });
    expect(prefix.stderr).toContain('path prefix "/", not "/api"');
    ok(await plants(['--profile', 'staging', 'config', 'set', 'base-url', setup.store.url]));
    const profile = await plants(['--profile', 'staging', 'apply', planFile(), '--yes']);
    expect(profile.stderr).toContain('profile "default", not "staging"');
    expect(setup.store.requests.filter((r) => r.method !== 'GET' || r.path !== '/plants')).toEqual([]);
    expect(setup.store.requests).toHaveLength(1);
  });

  it('a plan older than --max-age (24h by default), or made in the future', async () => {
    await start(garden(2));
    await plan(['prune', '--all']);
    const made = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    editPlan((doc) => ({ ...doc, created_at: made(25) }));
    const old = await plants(['apply', planFile(), '--yes', '--json']);
    expect([old.code, errorLine(old).code]).toEqual([2, 'refused']);
    expect(old.stderr).toMatch(/, 25h 0m ago|, 25h ago/);
    expect(old.stderr).toContain('more than --max-age 24h');
    expect((await plants(['apply', planFile(), '--dry-run', '--max-age', '2d'])).code).toBe(0);
    editPlan((doc) => ({ ...doc, created_at: made(-1) }));
    const future = await plants(['apply', planFile(), '--yes', '--max-age', '0']);
    expect(future.stderr).toContain('later than now');
    expect(deletes()).toEqual([]);
    editPlan((doc) => ({ ...doc, created_at: made(24 * 30) }));
    ok(await plants(['apply', planFile(), '--yes', '--max-age', '0']));
    expect(deletes()).toHaveLength(2);
    const bad = await plants(['apply', planFile(), '--max-age', 'soon']);
    expect(bad.stderr).toContain(
      'invalid --max-age "soon": expected a duration such as 30m, 24h or 7d, or 0 for no limit',
    );
  });

  it('a file that is not a valid plan names the field or line; one id twice; an unknown version', async () => {
    await start(garden(2));
    await plan(['prune', '--all']);
    const text = readFileSync(planFile(), 'utf8');
    const cases: [string, RegExp][] = [
      [
        text.replace('"plants": [', '"plants": [,'),
        /is not a valid plan: it is not JSON \(.* at line \d+, column \d+\)/,
      ],
      ['', /it is not JSON \(the file is empty\)/],
      [text.replace('"id_type":"number"', '"id_type":"int"'), /"plants"\[0\]\.id_type must be "number" or "string"/],
      [
        text.replace('"id":"2"', '"id":"1"'),
        /names plant 1 twice \("plants"\[0\] and "plants"\[1\]\); remove one of them/,
      ],
      [
        text.replace('"version": 1', '"version": 2'),
        /is a plan of format version 2, which this plants does not read \(it reads version 1\)/,
      ],
      [text.replace('"kind": "plants.deletion-plan"', '"kind": "other"'), /"kind" must be "plants.deletion-plan"/],
      [text.replace('"id":"2"', '"id":"2x"'), /"plants"\[1\]\.id is "2x", which is not a JSON number/],
    ];
    for (const [bad, message] of cases) {
      writeFileSync(planFile(), bad);
      const r = await plants(['apply', planFile(), '--yes']);
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(message)]);
    }
    const missing = await plants(['apply', join(setup.dir, 'nope.json'), '--yes']);
    expect(missing.stderr).toMatch(/cannot read the plan .*nope\.json: .*no such file/i);
    expect(deletes()).toEqual([]);
  });
});

describe('review by editing', () => {
  it('a plant removed from the plan is not deleted; one added by hand is checked and marked', async () => {
    await start([...garden(3), { id: 10, name: 'Oak', tag: 'tree' }]);
    await plan(['prune', '--tag', 'seedling']);
    editPlan((doc) => ({
      ...doc,
      plants: [...doc.plants.filter((p) => p.id !== '2'), { id: '10', id_type: 'number', name: 'Oak', tag: 'tree' }],
    }));
    const md = ok(await plants(['apply', planFile(), '--dry-run', '-o', 'markdown']));
    expect(md.stdout).toContain("| 10 | Oak | tree | delete | added by hand: not chosen by the plan's selection |");
    expect(md.stdout).toMatch(
      /^### Deletion plan [0-9a-f]{8}\n\nMade .* by prune --tag seedling, for http:\/\/127\.0\.0\.1:\d+ \(profile default\)\. 3 of 3 planned plants would be deleted\.\n/,
    );
    const json = JSON.parse(ok(await plants(['apply', planFile(), '--dry-run', '-o', 'json'])).stdout) as {
      chosen_by_plan: boolean;
    }[];
    expect(json.map((v) => v.chosen_by_plan)).toEqual([true, true, false]);
    expect(results(ok(await plants(['apply', planFile(), '--yes', '--json'])))).toEqual([
      ['1', 'deleted'],
      ['3', 'deleted'],
      ['10', 'deleted'],
    ]);
    expect(setup.store.store.list().map((p) => p.id)).toEqual([2]);
  });
});

describe('exact ids and no token', () => {
  it('ids above 2^53 go through plan and apply exactly', async () => {
    const plantsWithBigIds = parseJson(
      '[{"id": 9007199254740993, "name": "Big"}, {"id": 9007199254740992, "name": "Near"}, {"id": "12345678901234567890123", "name": "Text"}]',
    ) as StoredPlant[];
    await start(plantsWithBigIds);
    await plan(['delete', '9007199254740993', '12345678901234567890123']);
    expect(readPlan().plants.map((p) => [p.id, p.id_type])).toEqual([
      ['9007199254740993', 'number'],
      ['12345678901234567890123', 'string'],
    ]);
    ok(await plants(['apply', planFile(), '--yes']));
    expect(deletes()).toEqual(['/plants/9007199254740993', '/plants/12345678901234567890123']);
    expect(setup.store.store.list().length).toBe(1);
    expect(readFileSync(join(setup.dir, 'state', 'deletions.jsonl'), 'utf8')).toContain('"id":"9007199254740993"');
  });

  it('the plan file holds no form of the token, whatever the service echoes in names and tags', async () => {
    const echoes = ECHO_FORMS.map(([, form], i) => ({ id: i + 1, name: `x ${form(TOKEN)} y`, tag: form(TOKEN) }));
    await start(echoes);
    ok(await plants(['prune', '--all', '--plan', planFile()]));
    expectNoFormOf(TOKEN, readFileSync(planFile(), 'utf8'), 'the plan file');
    expect(readPlan().plants).toHaveLength(ECHO_FORMS.length);
    // A selection given the token (a variable that held it by mistake) is kept masked too.
    ok(await plants(['prune', '--tag', TOKEN, '--name', `*${TOKEN}*`, '--plan', planFile()]));
    expectNoFormOf(TOKEN, readFileSync(planFile(), 'utf8'), 'the plan of --tag <token>');
    const selection = readPlan().selection as { tags: string[]; name: string };
    expect([selection.tags[0] ?? '', selection.name].every((text) => text.includes('***'))).toBe(true);
    // Applied as made: the names are compared as the plan keeps them, masked.
    ok(await plants(['prune', '--all', '--plan', planFile()]));
    const applied = ok(await plants(['apply', planFile(), '--yes', '--json']));
    expect(results(applied).every(([, result]) => result === 'deleted')).toBe(true);
  });
});

describe('the recipe in docs/plans.md', () => {
  it('the plain-shell two steps run as written against the store: plan, Markdown, apply, done', async () => {
    // 3 seedlings among 30 plants, within the recipe's cap (--max-deletes 50).
    const trees = Array.from({ length: 27 }, (_, i) => ({ id: 10 + i, name: `Oak ${i}`, tag: 'tree' }));
    await start([...garden(3), ...trees]);
    const doc = readFileSync(join(ROOT, 'docs', 'plans.md'), 'utf8');
    const recipe = /The same as plain shell[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(recipe).toBeDefined();
    const bin = join(setup.dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'plants'), `#!/bin/sh\nexec "${process.execPath}" "${PLANTS_BIN}" "$@"\n`, { mode: 0o755 });
    // Asynchronously: the store answers from this process.
    const child = spawn('bash', ['-e', '-c', recipe!], {
      cwd: setup.dir,
      env: {
        ...env(),
        PATH: `${bin}:${process.env.PATH}`,
        HOME: setup.dir,
        PLANTS_CONFIG_DIR: setup.dir,
        ...NO_KEYRING,
      },
    });
    const r = { status: null as number | null, stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (r.stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (r.stderr += chunk));
    [r.status] = (await once(child, 'close')) as [number | null];
    // The plan's ids (stdout is no terminal, as after --dry-run), then the recipe's word.
    expect([r.status, r.stdout], r.stderr).toEqual([0, '1\n2\n3\ndone\n']);
    expect(readFileSync(join(setup.dir, 'plan.md'), 'utf8')).toContain('| 1 | Plant 1 | seedling | delete |');
    expect(JSON.parse(readFileSync(join(setup.dir, 'results.json'), 'utf8'))).toHaveLength(3);
    expect(setup.store.store.list().map((p) => p.id)).toEqual(trees.map((p) => p.id));
  });
});

describe('interruptions and concurrent applies', () => {
  let server: RawServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('Ctrl-C during an apply, then the same plan again deletes only what is left, exit 0', async () => {
    const ids = ['1', '2', '3', '4', '5', '6'];
    const gone = new Set<string>();
    let hang = true;
    server = await rawServer((req, res) => {
      if (req.method === 'GET') {
        const listed = ids.filter((id) => !gone.has(id)).map((id) => ({ id: Number(id), name: `Plant ${id}` }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
        return;
      }
      const id = req.url!.split('/').pop()!;
      // 1 and 2 are deleted at once; the rest hang until the test lets them go.
      if (hang && id !== '1' && id !== '2') return;
      const status = gone.has(id) ? 404 : 204;
      gone.add(id);
      if (status === 404)
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":404,"message":"no such plant"}');
      else res.writeHead(204).end();
    });
    const serverEnv = { PLANTS_BASE_URL: server.url };
    ok(await plants(['prune', '--all', '--plan', planFile()], serverEnv));
    const run = spawnCli(['apply', planFile(), '--yes', '--json', '--concurrency', '3', '--debug'], {
      configDir: setup.dir,
      env: { ...env(serverEnv), PLANTS_RETRIES: '0' },
    });
    await waitFor(
      () =>
        (run.out.stderr.match(/← 204/g) ?? []).length === 2 &&
        server!.requests.filter((r) => r.method === 'DELETE').length === 5,
      'two deletes, three hanging',
    );
    run.child.kill('SIGINT');
    await waitFor(() => run.out.stderr.includes('Stopping'), 'the first Ctrl-C to be taken');
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(130);
    const first = JSON.parse(run.out.stdout) as { id: string; result: string }[];
    expect(first.map((x) => x.result)).toEqual(['deleted', 'deleted', 'unknown', 'unknown', 'unknown', 'skipped']);
    // The hanging DELETEs of 3, 4 and 5 reach the service after all.
    hang = false;
    for (const id of ['3', '4']) gone.add(id);
    const again = await plants(['apply', planFile(), '--yes', '--json'], serverEnv);
    expect(again.code, again.stderr).toBe(0);
    expect(results(again)).toEqual([
      ['1', 'not_found'],
      ['2', 'not_found'],
      ['3', 'not_found'],
      ['4', 'not_found'],
      ['5', 'deleted'],
      ['6', 'deleted'],
    ]);
    expect(again.stderr).toContain(
      '4 plants not found were deleted (or sent for deletion) by an earlier apply of this plan',
    );
  });

  it('20 concurrent applies of one plan: every plant ends deleted once, each run says deleted or not_found, the journal agrees with the store', async () => {
    const log: { requestId?: string; status: number; path: string }[] = [];
    const local = await startPlantStoreServer({
      token: TOKEN,
      store: new PlantStore(garden(40)),
      onRequest: ({ method, path, status, requestId }) => {
        if (method === 'DELETE') log.push({ requestId, status, path });
      },
    });
    try {
      const localEnv = { PLANTS_BASE_URL: local.url };
      ok(await plants(['prune', '--all', '--plan', planFile()], localEnv));
      const runs = await Promise.all(
        Array.from({ length: 20 }, () =>
          plants(['apply', planFile(), '--yes', '--json', '--concurrency', '4'], localEnv),
        ),
      );
      expect(local.store.size).toBe(0);
      for (const run of runs) {
        expect([0, 3], run.stderr).toContain(run.code);
        const said = results(run);
        expect(said.map(([id]) => id)).toEqual(garden(40).map((p) => String(p.id)));
        expect(
          said.every(([, result]) => result === 'deleted' || result === 'not_found'),
          run.stdout,
        ).toBe(true);
      }
      // Each plant was deleted by exactly one DELETE (204), and reported deleted by exactly one run.
      const answered = log.filter((entry) => entry.status === 204).map((entry) => entry.path);
      expect(answered.sort()).toEqual(
        garden(40)
          .map((p) => `/plants/${p.id}`)
          .sort(),
      );
      const deletedBy = runs.flatMap((run) => results(run).filter(([, result]) => result === 'deleted'));
      expect(deletedBy).toHaveLength(40);
      // Every DELETE the store served is in the journal with the outcome its status means, and nothing else is.
      const records = journal().filter((record) => record.event !== 'start');
      const outcomes = new Map(
        records.filter((r) => r.event === 'outcome').map((r) => [r.request_id, [r.result, r.status]] as const),
      );
      const intents = records.filter((r) => r.event === 'intent').map((r) => r.request_id);
      expect(intents.sort()).toEqual(log.map((entry) => entry.requestId).sort());
      for (const entry of log) {
        expect(outcomes.get(entry.requestId)).toEqual([entry.status === 204 ? 'deleted' : 'not_found', entry.status]);
      }
      expect(new Set(records.map((r) => r.plan))).toEqual(new Set([readPlan().plan_id]));
    } finally {
      await local.close();
    }
  }, 120_000);
});
