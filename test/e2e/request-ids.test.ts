import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, type JsonError } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';

// Every request carries an X-Request-Id (a fresh UUID per request, the same on
// its retries), shown where its outcome is reported, so a service's log line
// can be found for any outcome; TRACEPARENT is sent on as traceparent.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let dir: ReturnType<typeof tempDir>;
let server: RawServer;
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await server.close();
  dir.remove();
});

const plants = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, {
    configDir: dir.path,
    env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN, PLANTS_RETRIES: '2', ...env },
  });

/** The X-Request-Id of each request the server saw, by path, in order. */
const idsSeen = (path: string) =>
  server.requests.filter((request) => request.path === path).map((request) => request.headers['x-request-id']);

interface Result {
  id: string;
  result: string;
  request_id: string | null;
}

describe('X-Request-Id', () => {
  it('is a fresh UUID per request, the same on its retries, and in each delete --json result', async () => {
    let answered = 0;
    server = await rawServer((req, res) => {
      answered += 1;
      // The first answer to plant 2 is a 503: it is sent again.
      if (req.url === '/plants/2' && idsSeen('/plants/2').length === 1) res.writeHead(503).end();
      else res.writeHead(204).end();
    });
    const r = await plants(['delete', '1', '2', '3', '--yes', '--json', '--concurrency', '1']);
    expect(r.code).toBe(0);
    expect(answered).toBe(4);
    const results = JSON.parse(r.stdout) as Result[];
    const [one, twice, three] = [idsSeen('/plants/1'), idsSeen('/plants/2'), idsSeen('/plants/3')];
    expect(twice).toHaveLength(2);
    expect(twice[0]).toBe(twice[1]);
    expect(results.map((result) => result.request_id)).toEqual([one[0], twice[0], three[0]]);
    for (const id of results.map((result) => result.request_id)) expect(id).toMatch(UUID);
    expect(new Set(results.map((result) => result.request_id)).size).toBe(3);
  });

  it('is null for what was never sent (a dry run, the ids after a refused token)', async () => {
    server = await rawServer((_req, res) => res.writeHead(401).end());
    const dry = await plants(['delete', '1', '--dry-run', '--json']);
    expect((JSON.parse(dry.stdout) as Result[]).map((result) => result.request_id)).toEqual([null]);
    const refused = await plants(['delete', '1', '2', '--yes', '--json', '--concurrency', '1']);
    const results = JSON.parse(refused.stdout) as Result[];
    expect(results.map((result) => [result.result, result.request_id])).toEqual([
      ['failed', idsSeen('/plants/1')[0]],
      ['skipped', null],
    ]);
  });

  it('names the failed request in the JSON error line', async () => {
    server = await rawServer((_req, res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":1,"message":"down"}'),
    );
    const list = await plants(['list', '--json', '--retries', '0']);
    expect(list.code).toBe(1);
    const error = (JSON.parse(list.stderr.trimEnd().split('\n').at(-1)!) as JsonError).error;
    expect(error.request_id).toBe(idsSeen('/plants')[0]);
    expect(error.request_id).toMatch(UUID);
    const one = await plants(['delete', '9', '--yes', '--json', '--retries', '0']);
    const line = (JSON.parse(one.stderr.trimEnd().split('\n').at(-1)!) as JsonError).error;
    expect(line.request_id).toBe(idsSeen('/plants/9')[0]);
  });

  it('is shown by --debug', async () => {
    server = await rawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    const r = await plants(['list', '--debug']);
    expect(r.stderr).toContain(`plants: debug:   x-request-id: ${String(idsSeen('/plants')[0])}\n`);
  });
});

describe('TRACEPARENT', () => {
  const context = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

  it('is sent on as traceparent with every request', async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    await plants(['delete', '1', '2', '--yes'], { TRACEPARENT: context });
    expect(server.requests.map((request) => request.headers.traceparent)).toEqual([context, context]);
  });

  it.each([
    ['malformed', 'not-a-trace'],
    ['an all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['an all-zero parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['upper case', context.toUpperCase()],
  ])('is not sent when %s (the W3C rule: ignore it)', async (_name, value) => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    const r = await plants(['delete', '1', '--yes'], { TRACEPARENT: value });
    expect(r.code).toBe(0);
    expect(server.requests[0]!.headers.traceparent).toBeUndefined();
  });
});
