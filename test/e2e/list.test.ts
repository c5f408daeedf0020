import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { againstStore } from '../helpers/against-store.js';
import type { DeleteOutcome } from '../helpers/cli.js';
import { plantStore, rawServer, TOKEN, type RawServer } from '../helpers/servers.js';
import { withoutRequestIds } from '../helpers/results.js';

const setup = againstStore({ seed: 12 });
beforeEach(() => {
  setup.store.requests.length = 0;
});
const plants = (args: string[], env: Record<string, string | undefined> = {}) => setup.plants(args, { env });

describe('plants list against the local plant store', () => {
  it('prints tab-separated id, name, tag when piped', async () => {
    const r = await plants(['list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe('1\tMonstera deliciosa\ttropical');
    expect(lines[4]).toBe('5\tCalathea orbifolia\t');
    expect(r.stderr).toBe('');
  });

  it('--limit N below the count prints exactly N plants, with no warning when the service honours it', async () => {
    const r = await plants(['list', '--limit', '5']);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split('\t')[0]),
    ).toEqual(['1', '2', '3', '4', '5']);
    expect(r.stderr).toBe('');
  });

  it('--json prints the array as the service sent it, compact when piped', async () => {
    const r = await plants(['list', '--json']);
    expect(r.stdout.split('\n')).toHaveLength(2);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual(setup.store.store.list());
  });

  it('sends --limit as ?limit=N', async () => {
    const r = await plants(['list', '-l', '3', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
    expect(r.stderr).toBe('');
    expect(setup.store.requests).toEqual([{ method: 'GET', path: '/plants?limit=3', status: 200 }]);
  });

  it('--limit 0 returns nothing and succeeds', async () => {
    const r = await plants(['list', '--limit', '0']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
  });

  it.each(['-1', 'ten', '2147483648', '1.5'])('rejects --limit %s with exit 2 before any request', async (limit) => {
    const r = await plants(['list', '--limit', limit]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^plants: invalid --limit .*whole number of plants from 0 to 2147483647\n$/);
    expect(setup.store.requests).toEqual([]);
  });

  it('exits 4 with a hint when the service rejects the token', async () => {
    const r = await plants(['list'], { PLANTS_TOKEN: 'wrong-token' });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      `plants: GET ${setup.store.url}/plants → 401 Unauthorized: missing or invalid bearer token (error 401); the service refused the token from PLANTS_TOKEN; set PLANTS_TOKEN to a valid token (it overrides any token stored with 'plants auth login')\n`,
    );
  });

  it('names the URL and the cause when nothing listens', async () => {
    const closed = await plantStore();
    const url = closed.url;
    await closed.close();
    const r = await plants(['list'], { PLANTS_BASE_URL: url });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `plants: GET ${url}/plants failed: connection refused by ${new URL(url).host} (is the service running?)\n`,
    );
  });
});

describe('plants list against services that answer differently', () => {
  let server: RawServer;
  afterEach(() => server.close());

  async function serve(status: number, body: string, headers: Record<string, string> = {}) {
    server = await rawServer((_req, res) => {
      res.writeHead(status, headers);
      res.end(body);
    });
    return server;
  }

  it.each([
    [
      200,
      'not json at all',
      { 'content-type': 'text/plain' },
      /200: expected a JSON array of plants, but received text\/plain that is not JSON: not json at all/,
    ],
    [
      200,
      '{"plants":[{"name":"A"}]}',
      { 'content-type': 'application/json' },
      /200: expected a JSON array of plants, but received an object/,
    ],
    [
      200,
      '[{"id":1}]',
      { 'content-type': 'application/json' },
      /item 1 of the plant list is not a plant: it has no "name"/,
    ],
    [200, '', {}, /response body was empty/],
    [
      500,
      '{"error":17,"message":"database unavailable"}',
      { 'content-type': 'application/json' },
      /500 Internal Server Error: database unavailable \(error 17\)/,
    ],
    [
      502,
      '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
      { 'content-type': 'text/html' },
      /502 Bad Gateway: 502 Bad Gateway$/m,
    ],
    [
      503,
      '{"type":"about:blank","title":"Service Unavailable","detail":"maintenance"}',
      { 'content-type': 'application/problem+json' },
      /503 Service Unavailable: Service Unavailable: maintenance/,
    ],
    [
      400,
      '{"error":400,"message":"limit too large"}',
      { 'content-type': 'application/json' },
      /400 Bad Request: limit too large \(error 400\)/,
    ],
    [
      302,
      '',
      { location: 'https://login.example.com/' },
      /302 Found: redirected to https:\/\/login\.example\.com\/, another origin; not followed, since the request carries the token/,
    ],
  ])('status %d with %j exits 1 and says what arrived', async (status, body, headers, message) => {
    const s = await serve(status, body, headers);
    const r = await plants(['list'], { PLANTS_BASE_URL: s.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports a body cut short', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('[{"name":"A"},');
      setTimeout(() => res.destroy(), 20);
    });
    const r = await plants(['list'], { PLANTS_BASE_URL: server.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/200: the response body was cut short/);
  });

  it('enforces --limit when the service ignores it', async () => {
    await serve(200, JSON.stringify([{ name: 'a' }, { name: 'b' }, { name: 'c' }]), {
      'content-type': 'application/json',
    });
    const r = await plants(['list', '--limit', '2'], { PLANTS_BASE_URL: server.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('\ta\t\n\tb\t\n');
    expect(r.stderr).toBe('plants: warning: the service returned more plants than --limit 2; showing the first 2\n');
  });

  it('warns once when the service says it has a next page (Link: rel="next"); the page is still listed', async () => {
    const body = JSON.stringify([{ id: 1, name: 'a' }]);
    await serve(200, body, { 'content-type': 'application/json', link: '</plants?page=2>; rel="next"' });
    const r = await plants(['list', '--json'], { PLANTS_BASE_URL: server.url });
    expect(r.code).toBe(0);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([{ id: 1, name: 'a' }]);
    expect(r.stderr).toBe(
      'plants: warning: the service says it has more plants than this answer holds (its Link header names a next page); plants reads this page only, so the list, prune and --max-deletes percentages see only these\n',
    );
    await server.close();
    await serve(200, body, { 'content-type': 'application/json', link: '</plants?page=1>; rel="prev"' });
    expect((await plants(['list', '--json'], { PLANTS_BASE_URL: server.url })).stderr).toBe('');
  });

  it('sends the headers the interface asks for, below a base path prefix', async () => {
    await serve(200, '[]', { 'content-type': 'application/json' });
    const r = await plants(['list', '--limit', '5'], { PLANTS_BASE_URL: `${server.url}/api/` });
    expect(r.code).toBe(0);
    const [request] = server.requests;
    expect(request?.path).toBe('/api/plants?limit=5');
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['user-agent']).toMatch(/^plants\/\d+\.\d+\.\d+ node\/\d+\.\d+\.\d+$/);
  });

  it('keeps ids of any type and fields the interface does not show', async () => {
    const body = [
      { id: 'abc-1', name: 'A', tag: 'x', extra: { height: 3 } },
      { id: 9, name: 'B', tag: null },
    ];
    await serve(200, JSON.stringify(body), { 'content-type': 'application/json' });
    const json = await plants(['list', '--json'], { PLANTS_BASE_URL: server.url });
    expect(withoutRequestIds(JSON.parse(json.stdout))).toEqual(body);
    const tsv = await plants(['list'], { PLANTS_BASE_URL: server.url });
    expect(tsv.stdout).toBe('abc-1\tA\tx\n9\tB\t\n');
  });
});

describe('numbers a JavaScript number would change', () => {
  let server: RawServer;
  afterEach(() => server.close());

  it('keeps 64-bit ids exact in JSON, TSV and the DELETE path', async () => {
    const body = '[{"id":1234567890123456789,"name":"Big","price":1.50},{"id":2,"name":"Small"}]';
    server = await rawServer((req, res) => {
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      else res.writeHead(204).end();
    });
    const env = { PLANTS_BASE_URL: server.url };
    expect((await plants(['list', '--json'], env)).stdout).toBe(`${body}\n`);
    const tsv = await plants(['list'], env);
    expect(tsv.stdout).toBe('1234567890123456789\tBig\t\n2\tSmall\t\n');
    const id = tsv.stdout.split('\t')[0]!;
    expect((await plants(['delete', id, '--yes'], env)).code).toBe(0);
    expect(server.requests.at(-1)?.path).toBe('/plants/1234567890123456789');
  });
});

describe('the token, when a service repeats it back', () => {
  let server: RawServer;
  afterEach(() => server.close());

  it('is masked in error messages and in delete --json', async () => {
    server = await rawServer((req, res) => {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 401, message: `token rejected: ${req.headers.authorization}` }));
    });
    const env = { PLANTS_BASE_URL: server.url };
    const list = await plants(['list'], env);
    expect(list.code).toBe(4);
    expect(list.stderr).toMatch(/401 Unauthorized: token rejected: Bearer \*\*\* \(error 401\)/);
    const del = await plants(['delete', '1', '--yes', '--json'], env);
    expect((JSON.parse(del.stdout) as DeleteOutcome[])[0]?.error).toEqual({
      error: 401,
      message: 'token rejected: Bearer ***',
    });
    // runCli itself asserts the token appears in neither stream.
  });
});

describe('a reader that goes away', () => {
  it('ends the output quietly and keeps the exit code', async () => {
    const big = await plantStore({ seed: 30_000 });
    try {
      const { spawn } = await import('node:child_process');
      const { PLANTS_BIN } = await import('../helpers/cli.js');
      const run = (args: string[]) =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [PLANTS_BIN, ...args], {
            env: {
              PATH: process.env.PATH,
              // The deletion journal of the delete below stays here too.
              HOME: setup.dir.path,
              PLANTS_CONFIG_DIR: setup.dir.path,
              PLANTS_BASE_URL: big.url,
              PLANTS_TOKEN: TOKEN,
            },
          });
          let stderr = '';
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
          // Like `| head -c 10`: read a little, then close the pipe.
          child.stdout.once('data', () => child.stdout.destroy());
          child.on('close', (code) => resolve({ code, stderr }));
        });
      expect(await run(['list'])).toEqual({ code: 0, stderr: '' });
      const failed = await run(['delete', 'no-such-id', '--yes', '--json']);
      expect(failed.code).toBe(3);
      expect(failed.stderr).toMatch(/404 Not Found/);
    } finally {
      await big.close();
    }
  });
});

describe('a reader that goes away while the list still streams', () => {
  it('stops reading the response and exits 0 at once', async () => {
    const endless = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let i = 0;
      res.write('[');
      const timer = setInterval(() => res.write(`${i++ ? ',' : ''}{"id":${i},"name":"p${i}"}`), 20);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const { spawnCli } = await import('../helpers/cli.js');
      const run = spawnCli(['list', '-o', 'ndjson'], {
        configDir: setup.dir.path,
        env: { PLANTS_BASE_URL: endless.url, PLANTS_TOKEN: TOKEN },
      });
      run.child.stdout.once('data', () => run.child.stdout.destroy());
      const started = Date.now();
      expect(await run.exit).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(run.out.stderr).toBe('');
    } finally {
      await endless.close();
    }
  });
});
