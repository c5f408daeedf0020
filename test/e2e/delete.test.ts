import { afterEach, describe, expect, it } from 'vitest';
import { againstStore } from '../helpers/against-store.js';
import type { DeleteOutcome, JsonError } from '../helpers/cli.js';
import { rawServer, type RawServer } from '../helpers/servers.js';
import { withoutRequestIds } from '../helpers/results.js';

const setup = againstStore(
  {
    seed: 3,
    plants: [
      { id: 'a?b#c', name: 'Questioned' },
      { id: '...', name: 'Dots' },
      { id: 'with space', name: 'Spaced' },
    ],
  },
  { perTest: true },
);
const plants = (args: string[], env: Record<string, string | undefined> = {}) => setup.plants(args, { env });

const deletes = () => setup.store.requests.filter((r) => r.method === 'DELETE');

describe('plants delete against the local plant store', () => {
  it('deletes one plant with --yes, silently when not on a terminal', async () => {
    const r = await plants(['delete', '2', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toBe('');
    expect(setup.store.store.list().map((p) => p.id)).not.toContain(2);
    expect(deletes()).toEqual([{ method: 'DELETE', path: '/plants/2', status: 204 }]);
  });

  it('refuses without --yes when stdin is not a terminal, and sends nothing', async () => {
    const r = await plants(['delete', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('plants: --yes is required when not running interactively\n');
    expect(setup.store.requests).toEqual([]);
    expect(setup.store.store.size).toBe(6);
  });

  it('exits 3 for an id the service does not have, naming it', async () => {
    const r = await plants(['delete', '99', '-y']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `plants: DELETE ${setup.store.url}/plants/99 → 404 Not Found: plant 99 not found (error 404)\n`,
    );
  });

  it('--json prints one result object per id', async () => {
    const ok = await plants(['delete', '1', '--yes', '--json']);
    expect(withoutRequestIds(JSON.parse(ok.stdout))).toEqual([{ id: '1', result: 'deleted', status: 204 }]);
    const missing = await plants(['delete', '1', '--yes', '--json']);
    expect(missing.code).toBe(3);
    expect(withoutRequestIds(JSON.parse(missing.stdout))).toEqual([
      { id: '1', result: 'not_found', status: 404, error: { error: 404, message: 'plant 1 not found' } },
    ]);
  });

  it.each([
    ['a?b#c', '/plants/a%3Fb%23c'],
    ['...', '/plants/%2E%2E%2E'],
    ['with space', '/plants/with%20space'],
  ])('sends the id %j as exactly one path segment', async (id, path) => {
    const r = await plants(['delete', id, '--yes']);
    expect(r.code).toBe(0);
    expect(deletes()).toEqual([{ method: 'DELETE', path, status: 204 }]);
    expect(setup.store.store.list().map((p) => p.id)).not.toContain(id);
    expect(setup.store.store.size).toBe(5);
  });

  it.each(['.', '..', '7/', 'a\\b'])(
    'sends no DELETE at all when an id is %j, which a server may read as another address',
    async (id) => {
      const r = await plants(['delete', '--yes', '--', '1', id]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^plants: plant id .* is not sent: .*another address.*; nothing was deleted: leave it out, and delete that plant with the service's own tools\n$/,
      );
      expect(r.stderr).toContain(`plant id ${JSON.stringify(id)} is not sent`);
      expect(deletes()).toEqual([]);
    },
  );

  it('prune sends no DELETE when the service lists such an id', async () => {
    const server = await rawServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('[{"id":1,"name":"a","tag":"weed"},{"id":"..","name":"b","tag":"weed"}]');
    });
    const r = await plants(['prune', '--tag', 'weed', '--yes'], { PLANTS_BASE_URL: server.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^plants: plant id "\.\." is not sent: it is a dot-segment.*; nothing was deleted: narrow --tag or --name to leave it out, and delete that plant with the service's own tools\n$/,
    );
    expect(server.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
    await server.close();
  });

  it('rejects an empty id with exit 2 before any request', async () => {
    const r = await plants(['delete', '', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('plants: invalid plant id: it must not be empty\n');
    expect(setup.store.requests).toEqual([]);
  });

  it('exits 4 when the token is refused, and deletes nothing', async () => {
    const r = await plants(['delete', '1', '--yes'], { PLANTS_TOKEN: 'not-the-token' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/401 Unauthorized: .*plants auth login/);
    expect(setup.store.store.size).toBe(6);
  });
});

describe('plants delete against services that answer differently', () => {
  let server: RawServer;
  afterEach(() => server.close());

  it.each([
    [200, '{"deleted":true}'],
    [202, '{"status":"queued"}'],
    [204, ''],
  ])('treats %d as success whatever the body', async (status, body) => {
    server = await rawServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
    const r = await plants(['delete', '5', '--yes', '--json'], { PLANTS_BASE_URL: server.url });
    expect(r.code).toBe(0);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([{ id: '5', result: 'deleted', status }]);
  });

  it.each([
    ['an empty body', ''],
    ['an HTML page', '<html><title>Gone</title></html>'],
  ])('counts a 410 Gone with %s as not found: exit 3, or 0 with --ignore-missing', async (_what, body) => {
    server = await rawServer((_req, res) => res.writeHead(410, { 'content-type': 'text/html' }).end(body));
    const r = await plants(['delete', '5', '--yes', '--json'], { PLANTS_BASE_URL: server.url });
    expect(r.code).toBe(3);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([
      expect.objectContaining({ id: '5', result: 'not_found', status: 410 }),
    ]);
    const ignoring = await plants(['delete', '5', '--yes', '--ignore-missing'], { PLANTS_BASE_URL: server.url });
    expect(ignoring.code).toBe(0);
  });

  it('reports a 500 with an HTML page as failed, exit 1', async () => {
    server = await rawServer((_req, res) =>
      res.writeHead(500, { 'content-type': 'text/html' }).end('<html><title>Internal Error</title></html>'),
    );
    const r = await plants(['delete', '5', '--yes', '--json'], { PLANTS_BASE_URL: server.url });
    expect(r.code).toBe(1);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([
      { id: '5', result: 'failed', status: 500, error: { error: null, message: 'Internal Error' } },
    ]);
    const [message, errorLine] = r.stderr.trimEnd().split('\n');
    expect(message).toMatch(/500 Internal Server Error: Internal Error$/);
    expect(withoutRequestIds(JSON.parse(errorLine!))).toEqual({
      error: { code: 'http_error', status: 500, message: expect.stringMatching(/500 Internal Server Error/) as string },
    });
  });

  it('a 404 whose body is not an Error object means a wrong base URL: the run stops, exit 1, --ignore-missing or not', async () => {
    // A router's 404, as a base URL with a wrong path prefix meets it.
    server = await rawServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found'));
    const r = await plants(['delete', '5', '6', '7', '--yes', '--json', '--ignore-missing', '--concurrency', '1'], {
      PLANTS_BASE_URL: `${server.url}/api`,
    });
    expect(r.code).toBe(1);
    const results = withoutRequestIds(JSON.parse(r.stdout) as DeleteOutcome[]);
    expect(results.map((result) => [result.id, result.result])).toEqual([
      ['5', 'failed'],
      ['6', 'skipped'],
      ['7', 'skipped'],
    ]);
    expect(server.requests).toHaveLength(1);
    const line = (JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as JsonError).error;
    expect(line.code).toBe('http_error');
    expect(line.message).toMatch(
      new RegExp(
        `no Error object from the service, as a router or proxy answers a wrong address: counted as failed, not as a missing plant; check the base URL \\(${server.url}/api\\); 2 plants were not attempted$`,
      ),
    );
  });

  it('an error whose body breaks off before its Content-Length says so, not "(empty body)"; a 2xx so cut is deleted', async () => {
    server = await rawServer((req, res) => {
      res.writeHead(req.url === '/plants/5' ? 500 : 200, {
        'content-type': 'application/json',
        'content-length': '100',
      });
      res.write('{"error":500,');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const r = await plants(['delete', '5', '6', '--yes', '--json', '--retries', '0', '--concurrency', '1'], {
      PLANTS_BASE_URL: server.url,
    });
    expect(r.code).toBe(1);
    const results = withoutRequestIds(JSON.parse(r.stdout) as DeleteOutcome[]);
    expect(results.map((result) => [result.id, result.result, result.status])).toEqual([
      ['5', 'failed', 500],
      ['6', 'deleted', 200],
    ]);
    expect(r.stderr).toContain(
      `DELETE ${server.url}/plants/5 → 500 Internal Server Error: (the error body was cut short)`,
    );
  });

  it('a 2xx with an HTML page (a web site that serves every path) is not a deletion: unknown, the run stops, exit 1', async () => {
    server = await rawServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><html><head><title>My App</title></head><body><div id="root"></div></body></html>'),
    );
    const r = await plants(['delete', '5', '6', '7', '--yes', '--json', '--concurrency', '1'], {
      PLANTS_BASE_URL: server.url,
    });
    expect(r.code).toBe(1);
    const results = withoutRequestIds(JSON.parse(r.stdout) as DeleteOutcome[]);
    expect(results.map((result) => [result.id, result.result, result.status])).toEqual([
      ['5', 'unknown', 200],
      ['6', 'skipped', null],
      ['7', 'skipped', null],
    ]);
    expect(server.requests).toHaveLength(1);
    const line = (JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as JsonError).error;
    expect(line).toMatchObject({ code: 'bad_response', status: 200 });
    expect(line.message).toBe(
      `DELETE ${server.url}/plants/5 → 200 OK, but with an HTML page (My App), not the plant store's answer; check the base URL (${server.url}); the plant may have been deleted; 2 plants were not attempted`,
    );
    // On record as unknown, not as deleted.
    const history = await plants(['history', '--json']);
    expect((JSON.parse(history.stdout) as { results: Record<string, number> }[])[0]?.results).toMatchObject({
      deleted: 0,
      unknown: 1,
      skipped: 2,
    });
  });
});
