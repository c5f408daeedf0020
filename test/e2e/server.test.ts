import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from '../helpers/cli.js';

const SERVER_BIN = join(ROOT, 'bin', 'plant-store-server.js');
const TOKEN = 'server-test-token';
let children: ChildProcess[] = [];
let dir: ReturnType<typeof tempDir>;

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  for (const child of children) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
  children = [];
  dir.remove();
});

/** Start the real executable and read the URL it prints on its first line. */
async function start(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVER_BIN, '--port', '0', '--token', TOKEN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url, child };
}

const auth = { authorization: `Bearer ${TOKEN}` };

describe('plant-store-server', () => {
  it('prints its URL and serves seeded plants with ids', async () => {
    const { url } = await start(['--seed', '4']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/plants`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { id: number; name: string }[];
    expect(body).toHaveLength(4);
    expect(body[0]).toEqual({ id: 1, name: 'Monstera deliciosa', tag: 'tropical' });
  });

  it('logs each DELETE it serves with the X-Request-Id plants sent: the journal and the log side by side', async () => {
    const { url, child } = await start(['--seed', '4']);
    let log = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    const state = join(dir.path, 'state');
    const r = await runCli(['delete', '2', '9', '--yes', '--concurrency', '1'], {
      configDir: dir.path,
      env: { PLANTS_BASE_URL: url, PLANTS_TOKEN: TOKEN, PLANTS_STATE_DIR: state },
    });
    expect(r.code).toBe(3);
    const intents = readFileSync(join(state, 'deletions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; request_id?: string })
      .filter((record) => record.event === 'intent');
    const expected = [
      `plant-store-server: DELETE /plants/2 → 204 (X-Request-Id ${intents[0]!.request_id})`,
      `plant-store-server: DELETE /plants/9 → 404 (X-Request-Id ${intents[1]!.request_id})`,
    ];
    // The log line is written once the answer has gone: wait for it rather than a fixed time.
    for (const deadline = Date.now() + 10_000; !log.includes(expected[1]!) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(log.split('\n').filter((line) => line.includes('DELETE'))).toEqual(expected);
    // Requests other than DELETE are not logged.
    await fetch(`${url}/plants`, { headers: auth });
    expect(log).not.toMatch(/GET/);
  });

  it('applies limit and rejects a bad one with a 400 Error body', async () => {
    const { url } = await start(['--seed', '4']);
    expect(((await (await fetch(`${url}/plants?limit=2`, { headers: auth })).json()) as unknown[]).length).toBe(2);
    for (const bad of ['-1', 'x', '2147483648', '1.5']) {
      const res = await fetch(`${url}/plants?limit=${bad}`, { headers: auth });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: 400,
        message: expect.stringMatching(/^limit must be an integer from 0 to 2147483647/) as string,
      });
    }
  });

  it('answers 401 with an Error body without the right bearer token', async () => {
    const { url } = await start([]);
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: TOKEN }] as Record<
      string,
      string
    >[]) {
      const res = await fetch(`${url}/plants`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toEqual({ error: 401, message: 'missing or invalid bearer token' });
    }
  });

  it('deletes with 204, then 404 with an Error body', async () => {
    const { url } = await start(['--seed', '2']);
    const first = await fetch(`${url}/plants/1`, { method: 'DELETE', headers: auth });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');
    const second = await fetch(`${url}/plants/1`, { method: 'DELETE', headers: auth });
    expect(second.status).toBe(404);
    expect(await second.json()).toEqual({ error: 404, message: 'plant 1 not found' });
  });

  it('renames and retags with PATCH, keeping the id and the place in the list', async () => {
    const { url } = await start(['--seed', '3']);
    const headers = { ...auth, 'content-type': 'application/json' };
    const patch = (id: string, body: string) => fetch(`${url}/plants/${id}`, { method: 'PATCH', headers, body });
    const renamed = await patch('2', '{"name": "Fern", "tag": "fern"}');
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({ id: 2, name: 'Fern', tag: 'fern' });
    expect((await patch('2', '{"tag": null}')).status).toBe(200);
    const listed = (await (await fetch(`${url}/plants`, { headers: auth })).json()) as { id: number }[];
    expect(listed.map((plant) => plant.id)).toEqual([1, 2, 3]);
    expect(listed[1]).toEqual({ id: 2, name: 'Fern' });
    const refusals = [
      ['9', '{"name": "x"}', 404, 'plant 9 not found'],
      ['2', '{"id": 5}', 400, 'only "name" and "tag" can be changed, not "id"'],
      ['2', '{"name": ""}', 400, '"name" must be a non-empty string'],
      ['2', '{"tag": 7}', 400, '"tag" must be a string, or null to take it away'],
      ['2', '[]', 400, 'expected a JSON object such as {"name": "Fern", "tag": "fern"}'],
      ['2', 'nope', 400, 'the body is not JSON'],
    ] as const;
    for (const [id, body, status, message] of refusals) {
      const res = await patch(id, body);
      expect([res.status, await res.json()]).toEqual([status, { error: status, message }]);
    }
    const put = await fetch(`${url}/plants/2`, { method: 'PUT', headers, body: '{}' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, HEAD, DELETE, PATCH']);
  });

  it('answers an unknown route as a router would (plain text), an unknown method with an Error body', async () => {
    const { url } = await start([]);
    const unknown = await fetch(`${url}/api/plants/1`, { method: 'DELETE', headers: auth });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await unknown.text()).toBe('404 page not found\n');
    const method = await fetch(`${url}/plants`, { method: 'PUT', headers: auth });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('--data keeps the store between runs', async () => {
    const data = join(dir.path, 'plants.json');
    const first = await start(['--seed', '3', '--data', data]);
    expect((await fetch(`${first.url}/plants/2`, { method: 'DELETE', headers: auth })).status).toBe(204);
    first.child.kill('SIGTERM');
    await once(first.child, 'exit');
    expect((JSON.parse(readFileSync(data, 'utf8')) as { id: number }[]).map((p) => p.id)).toEqual([1, 3]);

    const second = await start(['--seed', '3', '--data', data]);
    const ids = ((await (await fetch(`${second.url}/plants`, { headers: auth })).json()) as { id: number }[]).map(
      (p) => p.id,
    );
    expect(ids).toEqual([1, 3]);
  });

  it('--data: the file is left alone until a DELETE, and numbers in it stay exact, ids above 2^53 too', async () => {
    const data = join(dir.path, 'plants.json');
    // Written by hand: its spacing is not the server's, and 9007199254740993 is no JavaScript number.
    const text = '[{"id":9007199254740992,"name":"Below"},\n {"id":9007199254740993, "name":"Above", "height":1.50}]\n';
    writeFileSync(data, text);
    const past = new Date('2020-01-02T03:04:05Z');
    utimesSync(data, past, past);
    const unchanged = () => {
      expect(readFileSync(data, 'utf8')).toBe(text);
      expect(statSync(data).mtimeMs).toBe(past.getTime());
    };

    const first = await start(['--seed', '3', '--data', data]);
    unchanged();
    expect(await (await fetch(`${first.url}/plants`, { headers: auth })).text()).toBe(
      '[{"id":9007199254740992,"name":"Below"},{"id":9007199254740993,"name":"Above","height":1.50}]',
    );
    first.child.kill('SIGTERM');
    await once(first.child, 'exit');
    unchanged();

    const second = await start(['--data', data]);
    expect((await fetch(`${second.url}/plants/9007199254740993`, { method: 'DELETE', headers: auth })).status).toBe(
      204,
    );
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');
    expect(readFileSync(data, 'utf8')).toBe('[\n  {\n    "id": 9007199254740992,\n    "name": "Below"\n  }\n]\n');
  });

  it('exits 2 on a bad option', async () => {
    // A clean environment: Node 24 warns on stderr when it inherits both NO_COLOR and FORCE_COLOR.
    const child = spawn(process.execPath, [SERVER_BIN, '--port', 'eighty'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(err).toBe('plant-store-server: --port must be a whole number from 0 to 65535\n');
  });

  it('names the unit of a bad --seed', async () => {
    const child = spawn(process.execPath, [SERVER_BIN, '--seed', 'many'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(err).toBe('plant-store-server: --seed must be a whole number of plants from 0 to 10000000\n');
  });
});
