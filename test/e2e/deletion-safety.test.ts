import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { againstStore } from '../helpers/against-store.js';
import { PLANTS_BIN, runCli, spawnCli, waitFor, type DeleteOutcome, type JsonError } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';

/**
 * Everything that decides what gets deleted: ids from pipelines, what a
 * person sees before saying yes, the cap for unattended runs, and what is
 * reported when a run is interrupted.
 */
const setup = againstStore(
  {
    plants: [
      { id: 1, name: 'Ficus 7', tag: 'tree' },
      { id: 2, name: 'Weed, common', tag: 'weed' },
      { id: 3, name: 'Say "cheese"', tag: 'weed' },
      { id: 4, name: 'Two\nlines', tag: 'weed' },
      { id: 7, name: 'Rose', tag: 'flower' },
    ],
  },
  { perTest: true },
);
const { plants } = setup;
const deletes = () => setup.store.requests.filter((r) => r.method === 'DELETE').map((r) => r.path);
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('pipelines never turn names into ids', () => {
  it('tsv keeps the id column when the service sends no ids, so cut -f1 gives no names, and no ids is refused', async () => {
    server = await rawServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify([{ name: 'Ficus 7' }, { name: 'Rose', tag: 'x' }]));
    });
    const list = await plants(['list'], { env: { PLANTS_BASE_URL: server.url } });
    expect(list.stdout).toBe('\tFicus 7\t\n\tRose\tx\n');
    const ids = list.stdout
      .split('\n')
      .map((line) => line.split('\t')[0])
      .join('\n');
    const r = await plants(['delete', '--stdin', '--yes'], { env: { PLANTS_BASE_URL: server.url }, input: ids });
    // Blank lines name no plant: not a success that deleted nothing.
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^plants: standard input has 2 lines, all blank: it names no plant .*nothing was deleted\n$/,
    );
    expect(server.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
  });

  it('what list --json and -o csv print when nothing matches is an empty selection: nothing to delete, exit 0', async () => {
    for (const format of [['--json'], ['-o', 'csv'], ['-o', 'ndjson']]) {
      const list = await plants(['list', '--tag', 'none', ...format]);
      expect(list.code).toBe(0);
      const r = await plants(['delete', '--stdin', '--yes'], { input: list.stdout });
      expect(r.code, format.join(' ')).toBe(0);
      expect(r.stderr).toBe('No plants to delete\n');
    }
    expect(deletes()).toEqual([]);
  });

  it('reads what jq prints of plants picked from list --json, as JSON or NDJSON; refuses an id given twice in one object', async () => {
    const listed = JSON.parse((await plants(['list', '--json'])).stdout) as { id: number; tag: string }[];
    const weeds = listed.filter((plant) => plant.tag === 'weed');
    // jq '[.[] | select(.tag == "weed")]': indented JSON; jq -c '.[] | select(…)': one object a line.
    const pretty = await plants(['delete', '--stdin', '--yes', '--max-deletes', '2'], {
      input: `${JSON.stringify(weeds.slice(0, 2), null, 2)}\n`,
    });
    expect(pretty.code).toBe(0);
    const compact = await plants(['delete', '--stdin', '--yes'], {
      input: weeds
        .slice(2)
        .map((plant) => `${JSON.stringify(plant)}\n`)
        .join(''),
    });
    expect(compact.code).toBe(0);
    expect(deletes()).toEqual(['/plants/2', '/plants/3', '/plants/4']);
    const twice = await plants(['delete', '--stdin', '--yes', '--json'], { input: '{"id":"7","id":"1"}\n' });
    expect(twice.code).toBe(2);
    expect((JSON.parse(lastLine(twice.stderr)) as JsonError).error.message).toMatch(
      /^line 1 of standard input has the key "id" twice in one object/,
    );
    expect(deletes()).toHaveLength(3);
  });

  it('refuses the one TSV row of a plant without an id: its name is no id', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ name: 'Monstera' }]));
    });
    const list = await plants(['list', '--name', 'Mon*'], { env: { PLANTS_BASE_URL: server.url } });
    expect(list.stdout).toBe('\tMonstera\t\n');
    const r = await plants(['delete', '--stdin', '--yes'], {
      env: { PLANTS_BASE_URL: server.url },
      input: list.stdout,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^plants: standard input holds tab-separated lines .*nothing was deleted\n$/);
    expect(server.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
  });

  it.each([
    ['the default table', ['list', '-o', 'table'], {}],
    ['a table without an ID column', ['list', '-o', 'table', '--columns', 'name,tag'], {}],
    ['a coloured table', ['list', '-o', 'table'], { FORCE_COLOR: '1', NO_COLOR: undefined }],
  ])('refuses %s on stdin (exit 2, nothing sent)', async (_what, args, env) => {
    const table = await plants(args, { env });
    expect(table.stdout).toContain('Ficus 7');
    const r = await plants(['delete', '--stdin', '--yes'], { input: table.stdout });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^plants: standard input (looks like a table|holds control characters).*nothing was deleted\n$/,
    );
    expect(setup.store.requests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(setup.store.store.size).toBe(5);
  });

  it('takes only the id column of CSV, quoted commas, quotes and line breaks included', async () => {
    const csv = await plants(['list', '-o', 'csv', '--tag', 'weed']);
    expect(csv.stdout).toBe(
      'id,name,tag\r\n2,"Weed, common",weed\r\n3,"Say ""cheese""",weed\r\n4,"Two\nlines",weed\r\n',
    );
    const r = await plants(['delete', '--stdin', '--yes', '--json'], { input: csv.stdout });
    expect(r.code).toBe(0);
    expect(deletes()).toEqual(['/plants/2', '/plants/3', '/plants/4']);
    // The id column wherever it is.
    const moved = await plants(['delete', '--stdin', '--yes', '--ignore-missing'], { input: 'name,id\nRose,7\n' });
    expect(moved.code).toBe(0);
    expect(deletes()).toEqual(['/plants/2', '/plants/3', '/plants/4', '/plants/7']);
  });

  it('refuses CSV without an id column, or with a row without an id', async () => {
    const csv = await plants(['list', '-o', 'csv', '--columns', 'name,tag']);
    const r = await plants(['delete', '--stdin', '--yes'], { input: csv.stdout });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'plants: standard input is CSV without an id column (its header is name,tag); add id to --columns, or pipe plants list --json; nothing was deleted\n',
    );
    const gap = await plants(['delete', '--stdin', '--yes'], { input: 'id,name\r\n1,A\r\n,B\r\n' });
    expect(gap.code).toBe(2);
    expect(gap.stderr).toMatch(/line 3 of standard input has no id/);
    expect(deletes()).toEqual([]);
  });

  it('takes ids one a line: NBSP and line separators belong to the id', async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    const r = await plants(['delete', '--stdin', '--yes'], {
      env: { PLANTS_BASE_URL: server.url },
      input: '\u00a0a\u00a0b\nc\u2028d\u3000\r\ne\u2003f\n',
    });
    expect(r.code).toBe(0);
    expect(server.requests.map((q) => q.path)).toEqual([
      '/plants/%C2%A0a%C2%A0b',
      '/plants/c%E2%80%A8d%E3%80%80',
      '/plants/e%E2%80%83f',
    ]);
  });

  it('reads ids one a line and a lone ID-like word, and refuses ids on one line', async () => {
    const r = await plants(['delete', '--stdin', '--yes', '--json', '--ignore-missing'], { input: 'ABC\nDEF\n7\n' });
    expect(r.code).toBe(0);
    expect(deletes()).toEqual(['/plants/ABC', '/plants/DEF', '/plants/7']);
    const spaced = await plants(['delete', '--stdin', '--yes'], { input: '1 2\n' });
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toMatch(/^plants: line 1 of standard input holds a space \("1 2"\)/);
    expect(deletes()).toHaveLength(3);
  });

  it('never takes an id with a space or a tab in it, as cut -f1 of TSV prints it, for other plants', async () => {
    // `Ficus 7` split would delete plant 7; `b\tc` (cut -f1's escape of a tab) is the id of the plant `b\\tc`.
    const listed = [
      { id: '7', name: 'b' },
      { id: 'Ficus 7', name: 'a' },
      { id: 'b\tc', name: 'c' },
      { id: 'b\\tc', name: 'd' },
    ];
    server = await rawServer((req, res) => {
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
      else res.writeHead(204).end();
    });
    const env = { PLANTS_BASE_URL: server.url };
    const list = await plants(['list', '-o', 'tsv'], { env });
    const column = (names: string[]) =>
      list.stdout
        .split('\n')
        .filter((line) => names.includes(line.split('\t')[1]!))
        .map((line) => line.split('\t')[0])
        .join('\n');
    for (const [names, refusal] of [
      [['a'], /^plants: line 1 of standard input holds a space \("Ficus 7"\)/],
      [['b', 'a'], /^plants: line 2 of standard input holds a space \("Ficus 7"\)/],
      [['c'], /^plants: line 1 of standard input holds a backslash \(b\\tc\)/],
      [['d'], /^plants: line 1 of standard input holds a backslash \(b\\\\tc\)/],
    ] as const) {
      const r = await plants(['delete', '--stdin', '--yes'], { env, input: `${column([...names])}\n` });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(refusal);
      expect(r.stderr).toMatch(/; nothing was deleted\n$/);
    }
    expect(server.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
  });
});

describe('nothing on stdout until there is data', () => {
  it.each([['--json'], ['-o', 'csv'], ['-o', 'ndjson'], ['-o', 'tsv']])(
    'list %s writes nothing when the run fails',
    async (...format) => {
      const noUrl = await plants(['list', ...format], { env: { PLANTS_BASE_URL: '' } });
      expect(noUrl.code).toBe(2);
      expect(noUrl.stdout).toBe('');
      const refused = await plants(['list', ...format], { env: { PLANTS_TOKEN: 'wrong-token-1234' } });
      expect(refused.code).toBe(4);
      expect(refused.stdout).toBe('');
      server = await rawServer((req) => req.socket.destroy());
      const lost = await plants(['list', ...format], { env: { PLANTS_BASE_URL: server.url } });
      expect(lost.code).toBe(1);
      expect(lost.stdout).toBe('');
    },
  );

  it('an empty list is still a whole document: [] and the CSV header', async () => {
    expect((await plants(['list', '--json', '--tag', 'none'])).stdout).toBe('[]\n');
    expect((await plants(['list', '-o', 'csv', '--tag', 'none'])).stdout).toBe('id,name,tag\r\n');
    expect((await plants(['list', '-o', 'tsv', '--tag', 'none'])).stdout).toBe('');
  });
});

describe('people see what they are about to delete', () => {
  const inTerminal = (args: string[], send: string) =>
    plants(args, { tty: true, env: { TERM: 'xterm-256color' }, answers: [{ when: '[y/N]', send }] });

  it.each([
    ['Enter', '\r', false],
    ['n', 'n\r', false],
    ['no', 'no\r', false],
    ['yep', 'yep\r', false],
    ['Y', 'Y\r', true],
    ['y', 'y\r', true],
    ['yes', 'yes\r', true],
    ['YES', 'YES\r', true],
    ['end of input (Ctrl-D)', '\u0004', false],
  ])('the answer %s means %s', async (_what, send, yes) => {
    const r = await inTerminal(['delete', '7'], send);
    expect(r.stdout).toMatch(/ID +NAME +TAG\r\n7 +Rose +flower\r\n/);
    expect(r.code).toBe(yes ? 0 : 2);
    expect(deletes()).toEqual(yes ? ['/plants/7'] : []);
    if (!yes) expect(r.stdout).toContain('plants: cancelled; nothing was deleted');
  });

  it('the journal records a plant with the name and tag the prompt showed', async () => {
    // 07 is shown as plant 7 (another spelling of its number), but recorded without a name: the service may read it otherwise.
    expect((await inTerminal(['delete', '7', '99', '07'], 'y\r')).code).toBe(3);
    const { run } = (JSON.parse((await plants(['history', '--json'])).stdout) as { run: string }[])[0]!;
    expect(JSON.parse((await plants(['history', run, '--json'])).stdout)).toEqual([
      expect.objectContaining({ id: '7', name: 'Rose', tag: 'flower', result: 'deleted' }),
      expect.objectContaining({ id: '99', name: null, tag: null, result: 'not_found' }),
      expect.objectContaining({ id: '07', name: null, tag: null }),
    ]);
  });

  it('the prompt names every plant it can look up, marks the others, and cuts a long list short', async () => {
    const ids = ['7', '1', '99', ...Array.from({ length: 10 }, (_, i) => String(100 + i))];
    const r = await inTerminal(['delete', ...ids], 'n\r');
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/7 +Rose +flower\r\n1 +Ficus 7 +tree\r\n99 +\(not in the list\)\r\n/);
    expect(r.stdout).toContain('… and 3 more\r\n');
    expect(r.stdout).toMatch(/Delete these 13 plants from 127\.0\.0\.1:\d+ \(profile default\)\? \[y\/N\]/);
    expect(setup.store.requests).toEqual([{ method: 'GET', path: '/plants', status: 200 }]);
  });

  it('prune shows the plants it matched, escaped, before asking', async () => {
    const r = await inTerminal(['prune', '--tag', 'weed'], 'n\r');
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/2 +Weed, common +weed\r\n3 +Say "cheese" +weed\r\n4 +Two\\nlines +weed\r\n/);
    expect(setup.store.store.size).toBe(5);
  });

  it('a dry run shows the same table on a terminal, every row, and ids one per line when piped', async () => {
    const table = await plants(['prune', '--tag', 'weed', '--dry-run'], { tty: true });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/ID +NAME +TAG\r\n2 +Weed, common +weed\r\n/);
    expect(table.stdout).toMatch(
      /Would delete 3 plants from 127\.0\.0\.1:\d+ \(profile default\); dry run: nothing was sent/,
    );
    const many = Array.from({ length: 14 }, (_, i) => String(i + 1));
    const all = await plants(['delete', ...many, '--dry-run'], { tty: true });
    expect(all.stdout).toMatch(/\r\n7 +Rose +flower\r\n[\s\S]*\r\n14 +\(not in the list\)\r\n/);
    expect(all.stdout).not.toContain('more');
    const piped = await plants(['delete', '7', '1', '--dry-run']);
    expect(piped.stdout).toBe('7\n1\n');
    expect(deletes()).toEqual([]);
  });
});

describe('--max-deletes caps unattended runs', () => {
  it('refuses, sending nothing, when more would be deleted, and names how many', async () => {
    const r = await plants(['delete', '1', '2', '7', '--yes', '--max-deletes', '2', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(
      'plants: 3 plants would be deleted, more than --max-deletes 2; nothing was deleted',
    );
    // Its own code: a CI job can tell too many matches from a mistyped flag.
    expect((JSON.parse(lastLine(r.stderr)) as JsonError).error.code).toBe('refused');
    expect(setup.store.requests).toEqual([]);
  });

  it('allows exactly the cap, counting repeated ids once', async () => {
    const r = await plants(['delete', '1', '2', '1', '--yes', '--max-deletes', '2']);
    expect(r.code).toBe(0);
    expect(deletes()).toEqual(['/plants/1', '/plants/2']);
  });

  it('prune counts what matched; a dry run is refused the same way', async () => {
    const over = await plants(['prune', '--tag', 'weed', '--yes', '--max-deletes', '2']);
    expect(over.code).toBe(2);
    expect(over.stderr).toBe('plants: 3 plants would be deleted, more than --max-deletes 2; nothing was deleted\n');
    const dry = await plants(['prune', '--tag', 'weed', '--dry-run', '--max-deletes', '2']);
    expect(dry.code).toBe(2);
    expect(deletes()).toEqual([]);
    const zero = await plants(['prune', '--tag', 'none', '--yes', '--max-deletes', '0']);
    expect(zero.code).toBe(0);
    expect(zero.stderr).toBe('No plants to delete\n');
    const one = await plants(['prune', '--tag', 'tree', '--yes', '--max-deletes', '0']);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/^plants: 1 plant would be deleted, more than --max-deletes 0/);
    expect(deletes()).toEqual([]);
  });

  it('a percentage is of the distinct plants: a service listing 10 plants ten times each cannot have all ten deleted', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `Plant ${i + 1}`, tag: 'x' }));
    // Each plant ten times; plant 7 also as "07", one more spelling of the same id.
    const listed = [...Array.from({ length: 10 }, () => ten).flat(), { id: '07', name: 'Plant 7', tag: 'x' }];
    server = await rawServer((req, res) => {
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
      else res.writeHead(204).end();
    });
    const env = { PLANTS_BASE_URL: server.url };
    const runs: [string[], string][] = [
      [['prune', '--all', '--yes', '--max-deletes', '10%'], '--max-deletes 10% (1 of the 10 distinct plants listed)'],
      [['delete', '1', '2', '--yes', '--max-deletes', '10%'], '--max-deletes 10% (1 of the 10 distinct plants listed)'],
    ];
    for (const [args, cap] of runs) {
      const r = await plants([...args, '--json'], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe(
        'plants: warning: the service listed 91 duplicate ids (10 distinct plants in 101 items); a percentage cap counts the distinct plants',
      );
      const error = (JSON.parse(lines.at(-1)!) as JsonError).error;
      expect(error.code).toBe('refused');
      expect(error.message).toContain(cap);
    }
    // The profile's max-deletes too.
    expect((await plants(['config', 'set', 'max-deletes', '10%'])).code).toBe(0);
    const profile = await plants(['prune', '--all', '--yes'], { env });
    expect(profile.code).toBe(2);
    // Plant 7 is sent as 7 and as 07: 11 ids, 10 distinct plants, as the percentage counts the list.
    expect(profile.stderr).toContain(
      '10 distinct plants would be deleted (11 ids), more than the max-deletes 10% (1 of the 10 distinct',
    );
    expect(server.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
    // One plant is within the cap.
    const one = await plants(['prune', '--name', 'Plant 3', '--yes'], { env });
    expect(one.code).toBe(0);
    expect(server.requests.filter((q) => q.method === 'DELETE').map((q) => q.path)).toEqual(['/plants/3']);
  });

  it('a percentage compares distinct targets with distinct plants listed; a number counts every DELETE sent', async () => {
    // 10 plants, each listed under 9 spellings of its id.
    const spellings = (n: number) => [
      `${n}`,
      `0${n}`,
      `${n}.0`,
      `0x${n.toString(16)}`,
      `+${n}`,
      `${n}e0`,
      `00${n}`,
      `${n}.00`,
      `0b${n.toString(2)}`,
    ];
    const listed = Array.from({ length: 10 }, (_, i) =>
      spellings(i + 1).map((id) => ({ id, name: `Plant ${i + 1}` })),
    ).flat();
    server = await rawServer((req, res) => {
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
      else res.writeHead(204).end();
    });
    const env = { PLANTS_BASE_URL: server.url };
    const sent = () => server!.requests.filter((q) => q.method === 'DELETE').length;
    const refusals: [string, string][] = [
      [
        '10%',
        '10 distinct plants would be deleted (90 ids), more than --max-deletes 10% (1 of the 10 distinct plants listed)',
      ],
      [
        '90%',
        '10 distinct plants would be deleted (90 ids), more than --max-deletes 90% (9 of the 10 distinct plants listed)',
      ],
      ['10', '90 plants would be deleted, more than --max-deletes 10'],
      ['89', '90 plants would be deleted, more than --max-deletes 89'],
    ];
    for (const [cap, message] of refusals) {
      const r = await plants(['prune', '--all', '--yes', '--max-deletes', cap, '--json'], { env });
      expect(r.code, cap).toBe(2);
      expect((JSON.parse(lastLine(r.stderr)) as JsonError).error.message).toBe(`${message}; nothing was deleted`);
    }
    expect(sent()).toBe(0);
    const all = await plants(['prune', '--all', '--yes', '--max-deletes', '100%'], { env });
    expect(all.code).toBe(0);
    expect(sent()).toBe(90);
    const counted = await plants(['prune', '--all', '--yes', '--max-deletes', '90'], { env });
    expect(counted.code).toBe(0);
    expect(sent()).toBe(180);
  });

  it.each(['-1', 'abc', '1.5', ''])('rejects --max-deletes %j before any request', async (value) => {
    const r = await plants(['delete', '1', '--yes', '--max-deletes', value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid --max-deletes .*: expected a whole number of plants, 0 or more/);
    expect(setup.store.requests).toEqual([]);
  });
});

describe("a profile's protections and max-deletes hold against the real store", () => {
  it('each rule kind refuses the whole run, naming the plant; --include-protected goes through', async () => {
    expect((await plants(['config', 'protect', '--id', '7', '--tag', 'tree', '--name', 'Say *'])).code).toBe(0);
    const cases: [string[], string][] = [
      [['delete', '7', '--yes'], 'plant 7 "Rose" (id "7")'],
      [['delete', '1', '4', '--yes'], 'plant 1 "Ficus 7" (tag "tree")'],
      [['prune', '--tag', 'weed', '--yes'], 'plant 3 "Say \\"cheese\\"" (name "Say *")'],
      [['delete', '2', '99', '--yes'], "plant 99 is not in the service's list, so cannot be checked"],
    ];
    for (const [args, named] of cases) {
      const r = await plants([...args, '--json']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const error = (JSON.parse(lastLine(r.stderr)) as JsonError).error;
      expect(error.code).toBe('refused');
      expect(error.message).toContain(named);
      expect(error.message).toContain('nothing was deleted');
    }
    expect(deletes()).toEqual([]);
    const through = await plants(['delete', '7', '--yes', '--include-protected']);
    expect(through.code).toBe(0);
    expect(deletes()).toEqual(['/plants/7']);
  });

  it('an id rule refuses its number under any spelling a service may read as it (exit 2, nothing sent)', async () => {
    expect((await plants(['config', 'protect', '--id', '7'])).code).toBe(0);
    for (const id of ['0x7', '0B111', '\uFF17', '\u0667', '7e00000', '.7e1', '0_7', '+0o_7', ' 0x7 ']) {
      const r = await plants(['delete', '--yes', '--json', '--', id]);
      expect(r.code, id).toBe(2);
      const error = (JSON.parse(lastLine(r.stderr)) as JsonError).error;
      expect(error.code).toBe('refused');
      expect(error.message).toContain('(id "7"); nothing was deleted');
    }
    expect(deletes()).toEqual([]);
    expect(setup.store.store.size).toBe(5);
  });

  it('rules protect loosely: an id a service reads by its leading number, a name or tag that differs unseen', async () => {
    expect((await plants(['config', 'protect', '--id', '1', '--name', 'ROSE', '--tag', ' Weed\u200b'])).code).toBe(0);
    const cases: [string[], string][] = [
      [['delete', '--yes', '--', '1-ficus'], 'plant 1-ficus "Ficus 7" (id "1", which a service may read as 1)'],
      [['delete', '--yes', '--', ' 1'], '(id "1"'],
      [['delete', '--yes', '--', '1.9'], '(id "1", which a service may read as 1)'],
      [['delete', '7', '--yes'], 'plant 7 "Rose" (name "ROSE", matched by its name "Rose" with letter case set aside)'],
      [
        ['prune', '--tag', 'weed', '--yes'],
        'plant 2 "Weed, common" (tag " Weed\\u200b", matched by its tag "weed" with invisible characters, white space and letter case set aside)',
      ],
    ];
    for (const [[command, ...args], named] of cases) {
      // --json before any --, after which every word is an id.
      const r = await plants([command!, '--json', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      const error = (JSON.parse(lastLine(r.stderr)) as JsonError).error;
      expect(error.code).toBe('refused');
      expect(error.message).toContain(named);
    }
    expect(deletes()).toEqual([]);
    // Selection stays exact: --name ROSE selects nothing, so prune has nothing to delete.
    const exact = await plants(['prune', '--name', 'ROSE', '--yes']);
    expect(exact.code).toBe(0);
    expect(exact.stderr).toBe('No plants to delete\n');
    // --include-protected passes them.
    const through = await plants(['delete', '--yes', '--include-protected', '--ignore-missing', '--', '1-ficus']);
    expect(through.code).toBe(0);
    expect(deletes()).toEqual(['/plants/1-ficus']);
  });

  it('an id rule protects the ids a service may read as it once decoded, normalised or wrapped to 32 or 64 bits', async () => {
    // Each of these was deleted by prune --all against a list holding it, with plant 7 protected.
    const readAsSeven = ['%37', '4294967303', '\u200b7', '\uff17abc', '\u2077', '\u2466', '-18446744073709551609'];
    const listed = [...readAsSeven, '\u2166', '8'].map((id, i) => ({ id, name: `Plant ${i}`, tag: 'x' }));
    server = await rawServer((req, res) => {
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
      else res.writeHead(204).end();
    });
    const env = { PLANTS_BASE_URL: server.url };
    expect((await plants(['config', 'protect', '--id', '7'])).code).toBe(0);
    const r = await plants(['prune', '--all', '--yes', '--json'], { env });
    expect(r.code).toBe(2);
    const error = (JSON.parse(lastLine(r.stderr)) as JsonError).error;
    expect(error.code).toBe('refused');
    expect(error.message).toMatch(/^7 plants are protected in profile default: /);
    for (const [i] of readAsSeven.entries()) {
      expect(error.message).toContain(`"Plant ${i}" (id "7", which a service may read as 7)`);
    }
    expect(error.message).not.toContain('Plant 7');
    expect(server.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
    // Roman seven is VII, not 7; 8 is 8: prune --name takes them.
    const other = await plants(['prune', '--name', 'Plant 7', '--yes'], { env });
    expect(other.code).toBe(0);
    expect(server.requests.filter((q) => q.method === 'DELETE').map((q) => q.path)).toEqual(['/plants/%E2%85%A6']);
  });

  it('a plant the service lists with its id, name or tag written twice, differently, is not deleted while rules hold', async () => {
    // JSON.parse keeps the last value: plant 3 to plants, but which plant the service means is unknown.
    const listed =
      '[{"id":"2","id":"3","name":"Twin","tag":"x"},{"id":"4","name":"Other","tag":"x"},' +
      '{"id":"5","name":"Tagged","tag":"keep","tag":"x"}]';
    server = await rawServer((req, res) => {
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'application/json' }).end(listed);
      else res.writeHead(204).end();
    });
    const env = { PLANTS_BASE_URL: server.url };
    const sent = () => server!.requests.filter((q) => q.method === 'DELETE').map((q) => q.path);
    expect((await plants(['config', 'protect', '--id', '2'])).code).toBe(0);
    const all = await plants(['prune', '--all', '--yes', '--json'], { env });
    expect(all.code).toBe(2);
    const error = (JSON.parse(lastLine(all.stderr)) as JsonError).error;
    expect(error.code).toBe('refused');
    expect(error.message).toBe(
      'plants 3 "Twin" (with more than one id: "2" and "3"), 5 "Tagged" (with more than one tag: "keep" and "x") ' +
        'are listed ambiguously by the service (which plant it means is unknown), so cannot be checked against the ' +
        'protections of profile default; nothing was deleted; leave them out, or pass --include-protected to delete ' +
        "without checking any rule (rules: 'plants config list')",
    );
    // A tag rule: delete 2 looks the plants up, and plant 3 is listed under 2 too.
    expect((await plants(['config', 'unprotect', '--id', '2'])).code).toBe(0);
    expect((await plants(['config', 'protect', '--tag', 'keep'])).code).toBe(0);
    const byOtherId = await plants(['delete', '2', '--yes'], { env });
    expect(byOtherId.code).toBe(2);
    expect(byOtherId.stderr).toContain('plant 2 "Twin" (with more than one id: "2" and "3") is listed ambiguously');
    expect(sent()).toEqual([]);
    // The plants the list is clear about go through; --include-protected passes the others.
    expect((await plants(['prune', '--name', 'Other', '--yes'], { env })).code).toBe(0);
    expect((await plants(['prune', '--name', 'Twin', '--yes', '--include-protected'], { env })).code).toBe(0);
    expect(sent()).toEqual(['/plants/4', '/plants/3']);
  });

  it('rules added by 12 runs at once are all kept (each change is made under the config lock)', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const runs = await Promise.all(ids.map((id) => plants(['config', 'protect', '--id', id])));
    expect(runs.map((r) => r.code)).toEqual(ids.map(() => 0));
    const list = await plants(['config', 'list', '--json']);
    expect((JSON.parse(list.stdout) as { protected: { ids: string[] } }).protected.ids.sort()).toEqual(ids.sort());
  });

  it('a run configured by the environment alone reads no config, and makes no config directory', async () => {
    const missing = join(setup.dir.path, 'not-made');
    const r = await plants(['delete', '1', '--yes', '--no-journal'], { env: { PLANTS_CONFIG_DIR: missing } });
    expect(r.code).toBe(0);
    expect(existsSync(missing)).toBe(false);
  });

  it('the profile caps a run; the flag overrides it for one run', async () => {
    expect((await plants(['config', 'set', 'max-deletes', '40%'])).code).toBe(0);
    const over = await plants(['prune', '--tag', 'weed', '--yes']);
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/more than the max-deletes 40% \(2 of the 5 plants listed\) of profile default/);
    expect(deletes()).toEqual([]);
    expect((await plants(['prune', '--tag', 'weed', '--yes', '--max-deletes', '3'])).code).toBe(0);
    expect(deletes()).toHaveLength(3);
  });
});

describe('a DELETE goes only where it was asked to', () => {
  it.each([
    ['another plant', 308, '/v2/plants/6'],
    ['the whole collection', 307, '/plants'],
  ])(
    'delete and prune never follow a redirect to %s: the plant is failed, as recorded',
    async (_what, status, location) => {
      server = await rawServer((req, res) => {
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":5,"name":"Fern","tag":"weed"}]');
        } else if (req.url === '/plants/5') res.writeHead(status, { location }).end();
        else res.writeHead(204).end();
      });
      const env = { PLANTS_BASE_URL: server.url };
      for (const args of [
        ['delete', '5'],
        ['prune', '--tag', 'weed'],
      ]) {
        const r = await plants([...args, '--yes', '--json'], { env });
        expect(r.code, args.join(' ')).toBe(1);
        expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ id: '5', result: 'failed', status })]);
        expect(r.stderr).toContain(
          `redirected to ${location}; not followed: a DELETE goes only to the address asked for`,
        );
      }
      expect(server.requests.filter((q) => q.method === 'DELETE').map((q) => q.path)).toEqual([
        '/plants/5',
        '/plants/5',
      ]);
      // The journal: each run's plant 5 failed, nothing else was touched.
      const runs = JSON.parse((await plants(['history', '--json'])).stdout) as { run: string }[];
      expect(runs).toHaveLength(2);
      for (const { run } of runs) {
        const recorded = JSON.parse((await plants(['history', run, '--json'])).stdout) as object[];
        expect(recorded).toEqual([expect.objectContaining({ id: '5', result: 'failed', status })]);
      }
    },
  );
});

describe('interrupts and retries report the truth', () => {
  const run = (args: string[], url: string, env: Record<string, string> = {}) =>
    spawnCli(args, {
      configDir: setup.dir.path,
      env: { PLANTS_BASE_URL: url, PLANTS_TOKEN: TOKEN, PLANTS_RETRIES: '0', ...env },
    });

  it('a second Ctrl-C still prints what the service confirmed; requests in flight are unknown', async () => {
    server = await rawServer((req, res) => {
      // 1 and 2 are deleted at once; every other request hangs.
      if (req.url === '/plants/1' || req.url === '/plants/2') res.writeHead(204).end();
    });
    const { child, out, exit } = run(
      ['delete', '1', '2', '3', '4', '5', '6', '7', '8', '--yes', '--json', '--concurrency', '4', '--debug'],
      server.url,
    );
    await waitFor(
      () => (out.stderr.match(/← 204/g) ?? []).length === 2 && server!.requests.length === 6,
      'two deletes and four hanging requests',
    );
    child.kill('SIGINT');
    await waitFor(() => out.stderr.includes('Stopping'), 'the first Ctrl-C to be taken');
    child.kill('SIGINT');
    expect(await exit).toBe(130);
    const results = JSON.parse(out.stdout) as {
      id: string;
      result: string;
      status: number | null;
      error?: { message: string };
    }[];
    expect(results.map((x) => [x.id, x.result, x.status])).toEqual([
      ['1', 'deleted', 204],
      ['2', 'deleted', 204],
      ['3', 'unknown', null],
      ['4', 'unknown', null],
      ['5', 'unknown', null],
      ['6', 'unknown', null],
      ['7', 'skipped', null],
      ['8', 'skipped', null],
    ]);
    expect(results[2]!.error!.message).toMatch(/may have been deleted/);
    expect((JSON.parse(lastLine(out.stderr)) as JsonError).error).toEqual({
      code: 'interrupted',
      status: null,
      message: 'interrupted: 2 deleted, 4 unknown, 2 skipped',
      request_id: null,
    });
  });

  it('the record at a second Ctrl-C is whole even when the reader of the pipe is slow', async () => {
    let started = 0;
    server = await rawServer(() => {
      started += 1; // every DELETE hangs
    });
    const ids = Array.from({ length: 30_000 }, (_, i) => `plant-${i + 1}`).join('\n');
    const child = spawn(process.execPath, [PLANTS_BIN, 'delete', '--stdin', '--yes', '--json', '--concurrency', '64'], {
      env: {
        PATH: process.env.PATH,
        HOME: setup.dir.path,
        PLANTS_CONFIG_DIR: setup.dir.path,
        PLANTS_BASE_URL: server.url,
        PLANTS_TOKEN: TOKEN,
      },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.end(ids);
    // stdout is not read yet: the pipe fills long before 30,000 results are written.
    await waitFor(() => started === 64, '64 requests in flight');
    child.kill('SIGINT');
    await waitFor(() => stderr.includes('Stopping'), 'the first Ctrl-C to be taken');
    child.kill('SIGINT');
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    expect(await exit).toBe(130);
    const results = JSON.parse(stdout) as { result: string }[];
    expect(results).toHaveLength(30_000);
    expect(results.filter((x) => x.result === 'unknown')).toHaveLength(64);
    expect(results.filter((x) => x.result === 'skipped')).toHaveLength(30_000 - 64);
    expect((JSON.parse(lastLine(stderr)) as JsonError).error.message).toBe(
      'interrupted: 0 deleted, 64 unknown, 29936 skipped',
    );
  });

  it('an interrupt that cancels the retry of a lost response reports "may have been deleted", and counts failures', async () => {
    server = await rawServer((req, res) => {
      if (req.url === '/plants/1')
        req.socket.destroy(); // the answer is lost
      else res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":7,"message":"refused"}');
    });
    const { child, out, exit } = run(['delete', '1', '2', '--yes', '--json', '--debug'], server.url, {
      PLANTS_RETRIES: '3',
    });
    await waitFor(() => out.stderr.includes('retrying in') && out.stderr.includes('← 400'), 'a retry to be waiting');
    child.kill('SIGINT');
    expect(await exit).toBe(130);
    const results = JSON.parse(out.stdout) as { id: string; result: string; error?: { message: string } }[];
    expect(results.map((x) => x.result)).toEqual(['unknown', 'failed']);
    expect(results[0]!.error!.message).toMatch(
      /closed by .* before a response arrived .*; the plant may have been deleted$/,
    );
    expect(out.stderr).toMatch(/plants: DELETE .*\/plants\/1 failed: .*; the plant may have been deleted\n/);
    expect((JSON.parse(lastLine(out.stderr)) as JsonError).error.message).toBe(
      'interrupted: 0 deleted, 1 unknown, 1 failed',
    );
  });

  it('a lost answer with no retry left is unknown too, and exits 1, not as a plain failure', async () => {
    server = await rawServer((req) => req.socket.destroy());
    const r = await runCli(['delete', '5', '--yes', '--json'], {
      configDir: setup.dir.path,
      env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN },
    });
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as DeleteOutcome[])[0]).toMatchObject({ id: '5', result: 'unknown', status: null });
  });
});

describe('a connection that never opens', () => {
  it('is a plain failure, not "may have been deleted": the request was never sent', async () => {
    // A listener that never accepts, its queue already full: connecting hangs.
    const listener = spawn('python3', [
      '-c',
      [
        'import socket, sys',
        's = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)',
        'port = s.getsockname()[1]',
        'fill = [socket.socket() for _ in range(3)]',
        '[c.setblocking(False) for c in fill]',
        '[c.connect_ex(("127.0.0.1", port)) for c in fill]',
        'print(port, flush=True)',
        'sys.stdin.read()',
      ].join('\n'),
    ]);
    try {
      let port = '';
      listener.stdout.setEncoding('utf8').on('data', (chunk: string) => (port += chunk));
      await waitFor(() => port.endsWith('\n'), 'the listener to print its port');
      const r = await plants(['delete', '5', '--yes', '--json', '--timeout', '1'], {
        env: { PLANTS_BASE_URL: `http://127.0.0.1:${port.trim()}` },
      });
      expect(r.code).toBe(1);
      const [result] = JSON.parse(r.stdout) as DeleteOutcome[];
      expect(result).toMatchObject({ id: '5', result: 'failed', status: null });
      expect(result?.error?.message).toMatch(
        /^DELETE \S+ failed: could not connect to 127\.0\.0\.1:\d+ within 1 s \(--timeout 1; raise it with --timeout or PLANTS_TIMEOUT\)$/,
      );
    } finally {
      listener.kill();
    }
  });
});
