import { afterEach, describe, expect, it } from 'vitest';
import { spawnCli, type DeleteOutcome, type JsonError } from '../helpers/cli.js';
import { againstStore } from '../helpers/against-store.js';
import { plantStore, rawServer, TOKEN, type RawServer } from '../helpers/servers.js';
import { withoutRequestIds } from '../helpers/results.js';

const setup = againstStore(
  {
    plants: [
      { id: 1, name: 'Fern', tag: 'green', extra: { height: 30 } },
      { id: 2, name: 'Weed, common', tag: 'weed' },
      { id: 3, name: 'Say "cheese"', tag: 'weed' },
      { id: 4, name: 'Ficus lyrata', tag: 'tree', extra: { height: 180 } },
      { id: 5, name: 'Ficus elastica' },
      { id: 6, name: 'Two\nlines', tag: 'seedling' },
    ],
  },
  { perTest: true },
);
const { plants } = setup;
const deletes = () => setup.store.requests.filter((r) => r.method === 'DELETE');
const remaining = () => setup.store.store.list().map((p) => p.id);
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;

describe('list output formats', () => {
  it('csv: header row and RFC 4180 quoting, CRLF line ends', async () => {
    const r = await plants(['list', '-o', 'csv', '--limit', '3']);
    expect(r.stdout).toBe('id,name,tag\r\n1,Fern,green\r\n2,"Weed, common",weed\r\n3,"Say ""cheese""",weed\r\n');
    expect(r.stderr).toBe('');
  });

  it('csv has the same header whatever the data, even when nothing matches', async () => {
    const r = await plants(['list', '-o', 'csv', '--tag', 'nothing']);
    expect(r.stdout).toBe('id,name,tag\r\n');
  });

  it('csv keeps a line break inside a quoted field', async () => {
    const r = await plants(['list', '-o', 'csv', '--tag', 'seedling']);
    expect(r.stdout).toBe('id,name,tag\r\n6,"Two\nlines",seedling\r\n');
  });

  it('ndjson: one whole object per line', async () => {
    const r = await plants(['list', '-o', 'ndjson']);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual(setup.store.store.list());
  });

  it('tsv is the default when piped, and --json is -o json', async () => {
    for (const args of [
      ['list', '--limit', '1'],
      ['list', '-o', 'tsv', '--limit', '1'],
    ]) {
      const r = await plants(args);
      expect(r.stdout).toBe('1\tFern\tgreen\n');
      expect(r.stderr).toBe('');
    }
    const viaAlias = await plants(['list', '--json']);
    expect(viaAlias.stdout).toBe((await plants(['list', '-o', 'json'])).stdout);
  });

  it('-o table works in a pipe too', async () => {
    const r = await plants(['list', '-o', 'table', '--limit', '1']);
    expect(r.stdout).toBe('ID  NAME  TAG\n1   Fern  green\n');
    expect(r.stderr).toBe('');
  });

  it('--columns picks and orders fields, dotted paths included; unknown ones are empty', async () => {
    const r = await plants(['list', '--columns', 'extra.height,name,nope', '-o', 'csv', '--name', 'F*']);
    expect(r.stdout).toBe('extra.height,name,nope\r\n30,Fern,\r\n180,Ficus lyrata,\r\n,Ficus elastica,\r\n');
    const table = await plants(['list', '--columns', 'name,extra.height', '-o', 'table', '--tag', 'tree']);
    expect(table.stdout).toBe('NAME          EXTRA.HEIGHT\nFicus lyrata  180\n');
  });

  it('--columns leaves JSON whole and says so', async () => {
    const r = await plants(['list', '--columns', 'name', '--json', '--limit', '1']);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([
      { id: 1, name: 'Fern', tag: 'green', extra: { height: 30 } },
    ]);
    expect(r.stderr).toMatch(/warning: --columns applies to table, tsv and csv/);
  });

  it('rejects an unknown format with exit 2 before any request', async () => {
    const r = await plants(['list', '-o', 'yaml']);
    expect(r.code).toBe(2);
    expect(setup.store.requests).toEqual([]);
  });
});

describe('list filters', () => {
  it('--tag is repeatable and matches any of the tags', async () => {
    const r = await plants(['list', '--tag', 'weed', '--tag', 'tree', '-o', 'ndjson']);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: number }).id),
    ).toEqual([2, 3, 4]);
  });

  it('--name takes * and ? globs over the whole name', async () => {
    const ids = async (glob: string) =>
      (JSON.parse((await plants(['list', '--name', glob, '--json'])).stdout) as { id: number }[]).map((p) => p.id);
    expect(await ids('Ficus*')).toEqual([4, 5]);
    expect(await ids('F?rn')).toEqual([1]);
    expect(await ids('Fern*x')).toEqual([]);
    expect(await ids('*(*')).toEqual([]);
  });

  it('combines filters, and --limit applies at the service before filtering', async () => {
    const r = await plants(['list', '--limit', '3', '--tag', 'tree', '--json']);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([]);
    expect(r.stderr).toBe('');
    expect(setup.store.requests[0]?.path).toBe('/plants?limit=3');
  });
});

describe('the JSON error line', () => {
  it.each([
    [['list', '--json', '--limit', 'x'], {}, 2, { code: 'usage', status: null }],
    [['list', '-o', 'ndjson'], { PLANTS_TOKEN: 'wrong' }, 4, { code: 'auth', status: 401 }],
    [['list', '--output=json'], { PLANTS_BASE_URL: 'http://127.0.0.1:9' }, 1, { code: 'network', status: null }],
    [['list', '--json'], { PLANTS_TOKEN: '' }, 4, { code: 'auth', status: null }],
    [['list', '--json', '--bogus'], {}, 2, { code: 'usage', status: null }],
    [['delete', '99', '--yes', '--json'], {}, 3, { code: 'not_found', status: 404 }],
  ])('%j prints it as the last line of stderr', async (args, env, code, error) => {
    const r = await plants(args, { env });
    expect(r.code).toBe(code);
    const parsed = JSON.parse(lastLine(r.stderr)) as JsonError;
    expect(parsed.error).toMatchObject(error);
    expect(typeof parsed.error.message).toBe('string');
  });

  it('follows -o JSON in any case', async () => {
    const r = await plants(['list', '-o', 'JSON'], { env: { PLANTS_TOKEN: 'wrong' } });
    expect((JSON.parse(lastLine(r.stderr)) as JsonError).error.code).toBe('auth');
  });

  it('names configuration problems config', async () => {
    const r = await plants(['list', '--json'], { env: { PLANTS_BASE_URL: 'ftp://x.example' } });
    expect(r.code).toBe(2);
    expect((JSON.parse(lastLine(r.stderr)) as JsonError).error).toMatchObject({ code: 'config', status: null });
    const flag = await plants(['list', '--json', '--base-url', 'ftp://x.example']);
    expect((JSON.parse(lastLine(flag.stderr)) as JsonError).error.code).toBe('usage');
  });

  it('is not printed without JSON output', async () => {
    const r = await plants(['list', '--limit', 'x']);
    expect(r.stderr).not.toContain('{"error"');
  });

  it('names bad_response for a broken service', async () => {
    const broken = await rawServer((_req, res) => res.writeHead(200).end('<html>'));
    try {
      const r = await plants(['list', '--json'], { env: { PLANTS_BASE_URL: broken.url } });
      expect((JSON.parse(lastLine(r.stderr)) as JsonError).error).toMatchObject({ code: 'bad_response', status: 200 });
    } finally {
      await broken.close();
    }
  });
});

describe('bulk delete', () => {
  it('plants list --tag weed --json | plants delete --stdin --yes works as written', async () => {
    const listed = await plants(['list', '--tag', 'weed', '--json']);
    const r = await plants(['delete', '--stdin', '--yes'], { input: listed.stdout });
    expect(r.code).toBe(0);
    expect(remaining()).toEqual([1, 4, 5, 6]);
  });

  it('reads NDJSON, ids one a line, and mixes arguments with -', async () => {
    const ndjson = (await plants(['list', '-o', 'ndjson', '--tag', 'weed'])).stdout;
    expect((await plants(['delete', '--stdin', '--yes'], { input: ndjson })).code).toBe(0);
    expect((await plants(['delete', '1', '-', '--yes'], { input: '\n4\n\n5\r\n6\r\n \n' })).code).toBe(0);
    expect(remaining()).toEqual([]);
  });

  it('deletes duplicate ids once, and reports in input order', async () => {
    const r = await plants(['delete', '5', '1', '5', '1', '--yes', '--json']);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((x) => x.id)).toEqual(['5', '1']);
    expect(deletes()).toHaveLength(2);
  });

  it('treats empty input as a no-op that says so, and refuses blank lines, which name no plant', async () => {
    const r = await plants(['delete', '--stdin', '--yes'], { input: '' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('No plants to delete\n');
    const json = await plants(['delete', '--stdin', '--yes', '--json'], { input: '[]' });
    expect(json.stdout).toBe('[]\n');
    const blank = await plants(['delete', '--stdin', '--yes'], { input: '\n  \n' });
    expect(blank.code).toBe(2);
    expect(blank.stderr).toMatch(/^plants: standard input has 2 lines, all blank: it names no plant/);
    expect(deletes()).toEqual([]);
  });

  it('requires --yes without a terminal, before reading or sending anything', async () => {
    const r = await plants(['delete', '--stdin'], { input: '1 2 3' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('plants: --yes is required when not running interactively\n');
    expect(setup.store.requests).toEqual([]);
  });

  it('refuses the tab-separated output of plants list: its names and tags are not ids', async () => {
    const listed = await plants(['list', '--tag', 'weed']);
    const r = await plants(['delete', '--stdin', '--yes'], { input: listed.stdout });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tab-separated lines .*pipe plants list --json, -o ndjson or -o csv instead, or cut -f1/);
    expect(deletes()).toEqual([]);
  });

  it('refuses quoted ids, as jq prints them without -r', async () => {
    const r = await plants(['delete', '--stdin', '--yes'], { input: '"1"\n"2"\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/quoted id "1" \(jq output without -r\?\)/);
    expect(deletes()).toEqual([]);
  });

  it('refuses JSON whose plants have no id, before deleting anything', async () => {
    const r = await plants(['delete', '--stdin', '--yes'], { input: '[{"id":1,"name":"a"},{"name":"b"}]' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/item 2 of the JSON on standard input has no usable "id".*nothing was deleted/);
    expect(deletes()).toEqual([]);
  });

  it('--dry-run sends no DELETE, needs no --yes, and reports would_delete', async () => {
    const r = await plants(['delete', '1', '2', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([
      { id: '1', result: 'would_delete', status: null },
      { id: '2', result: 'would_delete', status: null },
    ]);
    expect(deletes()).toEqual([]);
    expect(remaining()).toHaveLength(6);
    const plain = await plants(['delete', '3', '--dry-run']);
    expect(plain.stdout).toBe('3\n');
    expect(plain.stderr).toMatch(
      /^Would delete 1 plant from 127\.0\.0\.1:\d+ \(profile default\); dry run: nothing was sent\n$/,
    );
  });

  it('exits 3 when some ids are not found, and 0 with --ignore-missing', async () => {
    const r = await plants(['delete', '1', '77', '--yes', '--json']);
    expect(r.code).toBe(3);
    expect((JSON.parse(r.stdout) as DeleteOutcome[]).map((x) => x.result)).toEqual(['deleted', 'not_found']);
    expect(r.stderr).toMatch(/404 Not Found: plant 77 not found[\s\S]*Deleted 1, not found 1/);
    expect((JSON.parse(lastLine(r.stderr)) as JsonError).error.code).toBe('not_found');
    const ignored = await plants(['delete', '2', '77', '--yes', '--ignore-missing', '--json']);
    expect(ignored.code).toBe(0);
    expect(withoutRequestIds((JSON.parse(ignored.stdout) as DeleteOutcome[])[1])).toEqual({
      id: '77',
      result: 'not_found',
      status: 404,
      error: { error: 404, message: 'plant 77 not found' },
    });
    expect(ignored.stderr).toBe('');
  });

  it('deletes 2,000 plants from list --json over keep-alive connections', async () => {
    const big = await plantStore({ seed: 2_000 });
    try {
      const env = { PLANTS_BASE_URL: big.url };
      const listed = await plants(['list', '--json'], { env });
      const r = await plants(['delete', '--stdin', '--yes', '--json'], { env, input: listed.stdout });
      expect(r.code).toBe(0);
      const results = JSON.parse(r.stdout) as { id: string; result: string }[];
      expect(results).toHaveLength(2_000);
      expect(results.every((x) => x.result === 'deleted')).toBe(true);
      expect(results[1_999]!.id).toBe('2000');
      expect(big.store.size).toBe(0);
      expect(big.requests.filter((q) => q.method === 'DELETE')).toHaveLength(2_000);
      // Keep-alive: a handful of connections (--concurrency 8), not one per request.
      expect(big.connections()).toBeLessThanOrEqual(32);
    } finally {
      await big.close();
    }
  });
});

describe('bulk delete against a service that misbehaves', () => {
  let server: RawServer;
  afterEach(() => server.close());

  it('reports a partial failure per id and exits 1', async () => {
    server = await rawServer((req, res) => {
      const id = req.url!.split('/').pop();
      if (id === '2')
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":9,"message":"disk full"}');
      else if (id === '3')
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":404,"message":"no plant 3"}');
      else res.writeHead(204).end();
    });
    const r = await plants(['delete', '1', '2', '3', '4', '--yes', '--json'], { env: { PLANTS_BASE_URL: server.url } });
    expect(r.code).toBe(1);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([
      { id: '1', result: 'deleted', status: 204 },
      { id: '2', result: 'failed', status: 500, error: { error: 9, message: 'disk full' } },
      { id: '3', result: 'not_found', status: 404, error: { error: 404, message: 'no plant 3' } },
      { id: '4', result: 'deleted', status: 204 },
    ]);
    expect(r.stderr).toMatch(/Deleted 2, not found 1, failed 1\n/);
    expect((JSON.parse(lastLine(r.stderr)) as JsonError).error).toEqual({
      code: 'partial_failure',
      status: null,
      message: '1 of 4 deletes failed',
      request_id: null,
    });
  });

  it('stops after the service refuses the token, skipping the rest (exit 4)', async () => {
    server = await rawServer((_req, res) => res.writeHead(401).end('{"error":401,"message":"expired"}'));
    const ids = Array.from({ length: 50 }, (_, i) => String(i + 1));
    const r = await plants(['delete', ...ids, '--yes', '--json', '--concurrency', '1'], {
      env: { PLANTS_BASE_URL: server.url },
    });
    expect(r.code).toBe(4);
    const results = JSON.parse(r.stdout) as { result: string }[];
    expect(results[0]!.result).toBe('failed');
    expect(results.slice(1).every((x) => x.result === 'skipped')).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('exits 4 when the token is refused, even if other deletes failed too', async () => {
    server = await rawServer((req, res) => {
      const id = req.url!.split('/').pop();
      if (id === 'boom') res.writeHead(500).end();
      else if (id === 'expired') res.writeHead(401).end('{"error":401,"message":"expired"}');
      else res.writeHead(204).end();
    });
    const r = await plants(['delete', 'ok', 'boom', 'expired', '--yes', '--json', '--concurrency', '3'], {
      env: { PLANTS_BASE_URL: server.url },
    });
    expect(r.code).toBe(4);
    expect((JSON.parse(lastLine(r.stderr)) as JsonError).error.code).toBe('auth');
  });

  it('a 403 refuses that plant only: the run goes on, and it is a failure of that plant (exit 1)', async () => {
    server = await rawServer((req, res) => {
      const id = req.url!.split('/').pop();
      if (id === 'locked')
        res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":403,"message":"read-only plant"}');
      else res.writeHead(204).end();
    });
    const r = await plants(['delete', 'a', 'locked', 'b', 'c', '--yes', '--json', '--concurrency', '1'], {
      env: { PLANTS_BASE_URL: server.url },
    });
    expect(r.code).toBe(1);
    const results = JSON.parse(r.stdout) as { id: string; result: string }[];
    expect(results.map((result) => [result.id, result.result])).toEqual([
      ['a', 'deleted'],
      ['locked', 'failed'],
      ['b', 'deleted'],
      ['c', 'deleted'],
    ]);
    expect(r.stderr).toContain('plants: the service refused to delete plant locked (403 Forbidden): read-only plant\n');
    expect((JSON.parse(lastLine(r.stderr)) as JsonError).error).toMatchObject({
      code: 'partial_failure',
      message: '1 of 4 deletes failed',
    });
  });

  it('prints dry-run ids from the service escaped, one per line', async () => {
    server = await rawServer((_req, res) =>
      res.writeHead(200).end(String.raw`[{"id":"evil\u001b[2J\nx","name":"a","tag":"t"}]`),
    );
    const r = await plants(['prune', '--tag', 't', '--dry-run'], { env: { PLANTS_BASE_URL: server.url } });
    expect(r.stdout).toBe('evil\\u001b[2J\\nx\n');
  });

  it('keeps at most --concurrency requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    server = await rawServer((_req, res) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(204).end();
      }, 20);
    });
    const ids = Array.from({ length: 40 }, (_, i) => String(i));
    const r = await plants(['delete', ...ids, '--yes', '--concurrency', '4'], { env: { PLANTS_BASE_URL: server.url } });
    expect(r.code).toBe(0);
    expect(most).toBe(4);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    'on %s starts nothing new, finishes what is in flight, reports the rest as skipped, exits %i',
    async (signal, code) => {
      let started = 0;
      let answered = 0;
      server = await rawServer((_req, res) => {
        started += 1;
        setTimeout(() => {
          answered += 1;
          res.writeHead(204).end();
        }, 100);
      });
      const ids = Array.from({ length: 200 }, (_, i) => String(i + 1)).join('\n');
      const { child, out, exit } = spawnCli(['delete', '--stdin', '--yes', '--json', '--concurrency', '2'], {
        configDir: setup.dir.path,
        env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN },
        input: ids,
      });
      while (started < 6) await new Promise((resolve) => setTimeout(resolve, 10));
      child.kill(signal);
      expect(await exit).toBe(code);
      const { stdout, stderr } = out;
      const results = JSON.parse(stdout) as { id: string; result: string }[];
      expect(results).toHaveLength(200);
      const deleted = results.filter((x) => x.result === 'deleted').length;
      expect(deleted).toBe(answered);
      expect(deleted).toBe(started);
      expect(deleted).toBeLessThan(20);
      expect(results.filter((x) => x.result === 'skipped')).toHaveLength(200 - deleted);
      expect(results.slice(0, deleted).every((x) => x.result === 'deleted')).toBe(true);
      expect((JSON.parse(lastLine(stderr)) as JsonError).error).toMatchObject({
        code: 'interrupted',
        message: `interrupted: ${deleted} deleted, ${200 - deleted} skipped`,
      });
    },
  );
});

describe('signals outside the delete phase', () => {
  let server: RawServer;
  afterEach(() => server.close());

  const spawnPlants = (args: string[], url: string) =>
    spawnCli(args, { configDir: setup.dir.path, env: { PLANTS_BASE_URL: url, PLANTS_TOKEN: TOKEN } });

  it('SIGTERM while prune is still listing exits 143 with the JSON error line, deleting nothing', async () => {
    let listed = false;
    server = await rawServer((req) => {
      listed = true;
      void req; // never answered: the list hangs
    });
    const { child, out, exit } = spawnPlants(['prune', '--all', '--yes', '--json'], server.url);
    while (!listed) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGTERM');
    expect(await exit).toBe(143);
    expect(out.stdout).toBe('');
    expect((JSON.parse(lastLine(out.stderr)) as JsonError).error.code).toBe('interrupted');
    expect(server.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
  });

  it('a second SIGINT during a bulk delete exits at once', async () => {
    let started = 0;
    server = await rawServer(() => {
      started += 1; // never answered: only a second Ctrl-C ends this
    });
    const { child, out, exit } = spawnPlants(['delete', '1', '2', '3', '--yes', '--json'], server.url);
    while (started < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(child.exitCode).toBeNull();
    expect(out.stderr).toMatch(/Stopping: finishing the requests in flight/);
    child.kill('SIGINT');
    expect(await exit).toBe(130);
    expect((JSON.parse(lastLine(out.stderr)) as JsonError).error).toMatchObject({
      code: 'interrupted',
      message: 'interrupted: 0 deleted, 3 unknown',
    });
  });
});

describe('plants prune', () => {
  it('deletes only what matches, for CI: prune --tag weed --yes', async () => {
    const r = await plants(['prune', '--tag', 'weed', '--yes']);
    expect(r.code).toBe(0);
    expect(remaining()).toEqual([1, 4, 5, 6]);
    expect(deletes().map((d) => d.path)).toEqual(['/plants/2', '/plants/3']);
  });

  it('refuses without a filter unless --all, before any request', async () => {
    const r = await plants(['prune', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/prune needs a filter \(--tag or --name\), or --all/);
    expect(setup.store.requests).toEqual([]);
    const limitOnly = await plants(['prune', '--limit', '2', '--yes']);
    expect(limitOnly.code).toBe(2);
    const all = await plants(['prune', '--all', '--limit', '2', '--yes']);
    expect(all.code).toBe(0);
    expect(remaining()).toEqual([3, 4, 5, 6]);
  });

  it('--dry-run lists what it would delete and sends no DELETE', async () => {
    const r = await plants(['prune', '--name', 'Ficus*', '--dry-run', '--json']);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([
      { id: '4', result: 'would_delete', status: null },
      { id: '5', result: 'would_delete', status: null },
    ]);
    expect(deletes()).toEqual([]);
  });

  it('requires --yes without a terminal', async () => {
    const r = await plants(['prune', '--tag', 'weed']);
    expect(r.code).toBe(2);
    expect(setup.store.requests).toEqual([]);
  });

  it('with nothing matching, says so and exits 0', async () => {
    const r = await plants(['prune', '--tag', 'cactus', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[]\n');
  });

  it('fails clearly, deleting nothing, when the plants carry no ids', async () => {
    const noIds = await rawServer((req, res) => {
      if (req.method === 'GET') res.writeHead(200).end('[{"name":"a","tag":"weed"}]');
      else res.writeHead(204).end();
    });
    try {
      const r = await plants(['prune', '--tag', 'weed', '--yes'], { env: { PLANTS_BASE_URL: noIds.url } });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/matching plant 1 \("a"\) has no usable "id".*nothing was deleted/);
      expect(noIds.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
    } finally {
      await noIds.close();
    }
  });
});

describe('prune passes the delete flags on', () => {
  let server: RawServer;
  afterEach(() => server.close());

  it('--ignore-missing and --json', async () => {
    server = await rawServer((req, res) => {
      if (req.method === 'GET') res.writeHead(200).end('[{"id":1,"name":"a","tag":"t"},{"id":2,"name":"b","tag":"t"}]');
      else if (req.url === '/plants/2') res.writeHead(404).end('{"error":404,"message":"gone already"}');
      else res.writeHead(204).end();
    });
    const env = { PLANTS_BASE_URL: server.url };
    const strict = await plants(['prune', '--tag', 't', '--yes', '--json'], { env });
    expect(strict.code).toBe(3);
    const lenient = await plants(['prune', '--tag', 't', '--yes', '--json', '--ignore-missing', '--concurrency', '1'], {
      env,
    });
    expect(lenient.code).toBe(0);
    expect((JSON.parse(lenient.stdout) as DeleteOutcome[]).map((x) => x.result)).toEqual(['deleted', 'not_found']);
  });
});
