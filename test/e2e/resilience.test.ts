import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createHttpsServer } from 'node:https';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plantStoreHandler } from '../../src/server/server.js';
import { PlantStore } from '../../src/server/store.js';
import { PLANTS_BIN, runCli, spawnCli, tempDir, type DeleteOutcome } from '../helpers/cli.js';
import {
  connectProxy,
  listenOnLoopback,
  plantStore,
  rawServer,
  rawTcpServer,
  TOKEN,
  type RawServer,
} from '../helpers/servers.js';
import { selfSignedCertificate } from '../helpers/tls.js';
import { withoutRequestIds } from '../helpers/results.js';

let dir: ReturnType<typeof tempDir>;
let server: RawServer | undefined;
const closers: (() => Promise<void>)[] = [];

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const close of closers.splice(0)) await close();
  dir.remove();
});

const plants = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, { configDir: dir.path, env: { PLANTS_TOKEN: TOKEN, PLANTS_BASE_URL: server?.url, ...env } });

/** A server that answers the n-th request (from 0) with `answers[n]`, the last one from then on. */
async function scripted(answers: ((res: import('node:http').ServerResponse) => void)[]): Promise<RawServer> {
  let n = 0;
  server = await rawServer((_req, res) => {
    const answer = answers[Math.min(n, answers.length - 1)]!;
    n += 1;
    answer(res);
  });
  return server;
}

const json = { 'content-type': 'application/json' };
const ok = (res: import('node:http').ServerResponse) => res.writeHead(200, json).end('[{"id":1,"name":"Fern"}]');
const status =
  (code: number, headers: Record<string, string> = {}) =>
  (res: import('node:http').ServerResponse) =>
    res.writeHead(code, { ...json, ...headers }).end(JSON.stringify({ error: code, message: `status ${code}` }));

describe('retries', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries %d, then succeeds (default: 2 retries)', async (code) => {
    await scripted([status(code, { 'retry-after': '0' }), status(code, { 'retry-after': '0' }), ok]);
    const r = await plants(['list'], { PLANTS_RETRIES: undefined });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1\tFern\t\n');
    expect(server!.requests).toHaveLength(3);
  });

  it.each([400, 401, 403, 404, 409])('does not retry %d', async (code) => {
    await scripted([status(code)]);
    await plants(['list'], { PLANTS_RETRIES: '2' });
    expect(server!.requests).toHaveLength(1);
  });

  it('says how many attempts were made and the last cause when retries run out', async () => {
    await scripted([status(503, { 'retry-after': '0' })]);
    const r = await plants(['list', '--retries', '3']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `plants: GET ${server!.url}/plants → 503 Service Unavailable: status 503 (error 503) (after 4 attempts)\n`,
    );
    expect(server!.requests).toHaveLength(4);
  });

  it('--retries 0 and PLANTS_RETRIES turn retries off or set their number, the flag winning', async () => {
    await scripted([status(503, { 'retry-after': '0' })]);
    await plants(['list', '--retries', '0'], { PLANTS_RETRIES: '5' });
    expect(server!.requests).toHaveLength(1);
    await plants(['list'], { PLANTS_RETRIES: '1' });
    expect(server!.requests).toHaveLength(3);
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    await scripted([status(503, { 'retry-after': '1' }), ok]);
    let started = Date.now();
    expect((await plants(['list'], { PLANTS_RETRIES: '1' })).code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);

    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    await scripted([status(429, { 'retry-after': inTwoSeconds }), ok]);
    started = Date.now();
    expect((await plants(['list'], { PLANTS_RETRIES: '1' })).code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('retries a refused connection, then names the attempts and the cause', async () => {
    const closed = await plantStore();
    const url = closed.url;
    await closed.close();
    const r = await plants(['list'], { PLANTS_BASE_URL: url, PLANTS_RETRIES: '1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `plants: GET ${url}/plants failed after 2 attempts: connection refused by ${new URL(url).host} (is the service running?)\n`,
    );
  });

  it('retries a reset connection', async () => {
    let n = 0;
    server = await rawServer((req, res) => {
      n += 1;
      if (n === 1) req.socket.destroy();
      else ok(res);
    });
    const r = await plants(['list'], { PLANTS_RETRIES: '1' });
    expect(r.code).toBe(0);
    expect(n).toBe(2);
  });

  it('reports a DELETE whose response was lost, then 404, as gone (not a plain deleted)', async () => {
    const store = new PlantStore([{ id: 7, name: 'Fern' }]);
    const handle = plantStoreHandler({ token: TOKEN, store });
    let n = 0;
    server = await rawServer((req, res) => {
      n += 1;
      if (n > 1) return handle(req, res);
      // The first DELETE is carried out, but its response never arrives.
      store.delete('7');
      req.socket.destroy();
    });
    const r = await plants(['delete', '7', '--yes', '--json'], { PLANTS_RETRIES: '2' });
    expect(r.code).toBe(0);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([{ id: '7', result: 'gone', status: 404 }]);
    expect(r.stderr).toMatch(
      /warning: plant 7 is gone: the answer to its DELETE was lost or a server error \(500, 502, 504\) and the retry found no such plant/,
    );
    expect(store.size).toBe(0);
  });

  it('still reports a plain 404 as not found', async () => {
    server = await rawServer(plantStoreHandler({ token: TOKEN, store: new PlantStore() }));
    const r = await plants(['delete', '7', '--yes', '--json'], { PLANTS_RETRIES: '2' });
    expect(r.code).toBe(3);
    expect(server.requests).toHaveLength(1);
  });
});

describe('response headers', () => {
  const withHeader = (bytes: number) => (res: import('node:http').ServerResponse) =>
    res.writeHead(200, { ...json, 'x-padding': 'a'.repeat(bytes) }).end('[{"id":1,"name":"Fern"}]');

  it('up to 16 KiB of them are read as usual', async () => {
    await scripted([withHeader(15 * 1024)]);
    const r = await plants(['list', '--json']);
    expect(r.code).toBe(0);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([{ id: 1, name: 'Fern' }]);
  });

  it('more than 16 KiB: one line that says so, not retried', async () => {
    await scripted([withHeader(20 * 1024)]);
    const r = await plants(['list'], { PLANTS_RETRIES: '2' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /failed: 127\.0\.0\.1:\d+ sent response headers larger than 16 KiB, the most this client accepts \(UND_ERR_HEADERS_OVERFLOW\)\n$/,
    );
    expect(server!.requests).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('a server that never answers: the message names the timeout and how to raise it', async () => {
    server = await rawServer(() => {});
    const r = await plants(['list', '--timeout', '0.5']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /failed: 127\.0\.0\.1:\d+ sent no response within 0\.5 s \(--timeout 0\.5; raise it with --timeout or PLANTS_TIMEOUT\)\n$/,
    );
  });

  it('a server that sends headers, then stalls', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, json);
      res.write('[{"name":');
    });
    const started = Date.now();
    const r = await plants(['list'], { PLANTS_TIMEOUT: '0.5' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /failed: the response body did not arrive within 0\.5 s \(--timeout 0\.5; raise it with --timeout or PLANTS_TIMEOUT\)\n$/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a body that trickles in slower than the timeout allows in all', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, json);
      res.write('[');
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const r = await plants(['list', '--timeout', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the response body did not arrive within 1 s/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a timed-out attempt is retried', async () => {
    let n = 0;
    server = await rawServer((_req, res) => {
      n += 1;
      if (n > 1) ok(res);
    });
    const r = await plants(['list', '--timeout', '0.5', '--retries', '1']);
    expect(r.code).toBe(0);
    expect(n).toBe(2);
  });

  it('rejects a bad timeout before any request', async () => {
    server = await rawServer((_req, res) => ok(res));
    expect((await plants(['list', '--timeout', '0'])).code).toBe(2);
    const fromEnv = await plants(['list'], { PLANTS_TIMEOUT: 'soon' });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/invalid environment variable PLANTS_TIMEOUT "soon"/);
    expect(server.requests).toEqual([]);
  });
});

describe('hostile and broken responses', () => {
  it('refuses a response larger than --max-response-size by its Content-Length', async () => {
    server = await rawServer((_req, res) =>
      res.writeHead(200, { ...json, 'content-length': '5000' }).end('['.padEnd(5000, ' ')),
    );
    const r = await plants(['list', '--max-response-size', '1K']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the response is 5000 bytes, more than --max-response-size \(1024 bytes\); refusing it/);
  });

  it.each([
    ['with Content-Length', true],
    ['chunked, without Content-Length', false],
  ])('--max-response-size 1K: a list of exactly 1024 bytes passes, 1025 is refused (%s)', async (_how, declared) => {
    let size = 0;
    server = await rawServer((_req, res) => {
      const body = '[{"id":1,"name":"Fern"}'.padEnd(size - 1, ' ') + ']';
      res.writeHead(200, declared ? { ...json, 'content-length': String(body.length) } : json);
      // Two pieces, so the chunked answer really arrives without a length.
      res.write(body.slice(0, 500));
      setTimeout(() => res.end(body.slice(500)), 10);
    });
    size = 1024;
    const fits = await plants(['list', '--max-response-size', '1K']);
    expect(fits).toMatchObject({ code: 0, stdout: '1\tFern\t\n', stderr: '' });
    size = 1025;
    const over = await plants(['list', '--max-response-size', '1K']);
    expect(over.code).toBe(1);
    // Refused by its length, nothing prints; streamed, the plants before the limit already did.
    if (declared) expect(over.stdout).toBe('');
    expect(over.stderr).toMatch(
      declared
        ? /the response is 1025 bytes, more than --max-response-size \(1024 bytes\); refusing it/
        : /the response is larger than 1024 bytes, more than --max-response-size; refusing it/,
    );
  });

  it('refuses an endless body quickly, with memory bounded', async () => {
    let sent = 0;
    server = await rawServer((_req, res) => {
      res.writeHead(200, json);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < 2 * 1024 ** 3 && res.write(chunk)) sent += chunk.length;
      };
      res.on('drain', pump);
      res.on('close', () => res.off('drain', pump));
      pump();
    });
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'maxrss=%M', process.execPath, PLANTS_BIN, 'list', '--max-response-size', '8MiB'],
      {
        env: { PATH: process.env.PATH, PLANTS_CONFIG_DIR: dir.path, PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN },
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/more than --max-response-size; refusing it/);
    const maxRssKiB = Number(/maxrss=(\d+)/.exec(stderr)?.[1]);
    expect(maxRssKiB).toBeLessThan(150 * 1024);
    expect(sent).toBeLessThan(512 * 1024 * 1024);
  });

  it.each([
    [
      'a body cut short',
      (res: import('node:http').ServerResponse) => {
        res.writeHead(200, { 'content-length': '100' });
        res.write('[{"name"');
        setTimeout(() => res.socket?.destroy(), 20);
      },
      /the response body was cut short/,
    ],
    [
      'not JSON',
      (res: import('node:http').ServerResponse) => res.writeHead(200).end('<<garbage>>'),
      /not JSON: <<garbage>>/,
    ],
    [
      'JSON of the wrong shape',
      (res: import('node:http').ServerResponse) => res.writeHead(200).end('{"data":[]}'),
      /received an object: \{"data":\[\]\}/,
    ],
    [
      'items without a string name',
      (res: import('node:http').ServerResponse) => res.writeHead(200).end('[{"name":null}]'),
      /its "name" is null, expected a string: \{"name":null\}/,
    ],
  ])('%s: one clear line, exit 1', async (_what, answer, message) => {
    await scripted([answer]);
    const r = await plants(['list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it.each([
    ['tsv', [], '1\tFern\t\n2\tMoss\t\n'],
    ['json', ['--json'], '[{"id":1,"name":"Fern"},{"id":2,"name":"Moss"}'],
  ])(
    'a body cut short after some plants were written (%s): the error line says the output is not the whole list',
    async (_format, args, stdout) => {
      await scripted([
        (res) => {
          res.writeHead(200, json);
          res.write('[{"id":1,"name":"Fern"},{"id":2,"name":"Moss"},');
          setTimeout(() => res.socket?.destroy(), 300);
        },
      ]);
      const r = await plants(['list', ...args]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(stdout);
      expect(r.stderr.split('\n')[0]).toMatch(
        /the response body was cut short .*; the 2 plants written to standard output before it are not the whole list$/,
      );
    },
  );
});

describe('an unsolicited 100 Continue', () => {
  // undici reads no further than a 100 it did not ask for (it fails the
  // request with "bad response"); the message says what the server did, and
  // the attempt is not repeated, since the server would only do it again.
  const continued = (final: string) => () => `HTTP/1.1 100 Continue\r\n\r\n${final}`;
  const list = '[{"id":1,"name":"Fern"}]';

  it.each([
    [
      'list',
      ['list', '--retries', '2'],
      'GET',
      `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${list.length}\r\n\r\n${list}`,
    ],
    ['delete', ['delete', '7', '--yes', '--retries', '2'], 'DELETE', 'HTTP/1.1 204 No Content\r\n\r\n'],
  ])('before the final response to %s: said so, and not retried', async (_what, args, method, final) => {
    const tcp = await rawTcpServer(continued(final));
    closers.push(tcp.close);
    const r = await plants(args, { PLANTS_BASE_URL: tcp.url });
    expect(r.code).toBe(1);
    const host = new URL(tcp.url).host;
    expect(r.stderr).toContain(
      `failed: ${host} answered "100 Continue" unasked (plants sends no Expect: 100-continue), and its HTTP client, ` +
        'undici, cannot read past one: the final response was not read, so whether the request was carried out is unknown ' +
        '(UND_ERR_SOCKET: bad response); the server, or a proxy in front of it, has to stop sending it' +
        (method === 'DELETE' ? '; the plant may have been deleted\n' : '\n'),
    );
    expect(tcp.requests.map((head) => head.split(' ')[0])).toEqual([method]);
  });

  it('before the answer to a DELETE: unknown, as documented, not failed (the plant may have been deleted)', async () => {
    const tcp = await rawTcpServer(continued('HTTP/1.1 204 No Content\r\n\r\n'));
    closers.push(tcp.close);
    const r = await plants(['delete', '7', '--yes', '--json'], { PLANTS_BASE_URL: tcp.url });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject([{ id: '7', result: 'unknown', status: null }]);
  });
});

describe('an answer to a DELETE that cannot be read', () => {
  // The request reached the service, which answered: whatever it did, the
  // answer does not say, so the plant may have been deleted (unknown), not failed.
  it.each([
    ['not HTTP/1.1', () => 'SSH-2.0-OpenSSH_9.6\r\n'],
    ['a Content-Length that is not a number', () => 'HTTP/1.1 204 No Content\r\nContent-Length: abc\r\n\r\n'],
    ['two Content-Lengths', () => 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
    ['headers past 16 KiB', () => `HTTP/1.1 204 No Content\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
  ])('%s: unknown, recorded so, and not sent again', async (_what, answer) => {
    const tcp = await rawTcpServer(answer);
    closers.push(tcp.close);
    const r = await plants(['delete', '7', '--yes', '--json'], { PLANTS_BASE_URL: tcp.url });
    expect(r.code).toBe(1);
    const [result] = JSON.parse(r.stdout) as { result: string; error: { message: string } }[];
    expect(result!.result).toBe('unknown');
    expect(result!.error.message).toMatch(/; the plant may have been deleted$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(tcp.requests).toHaveLength(1);
    const journal = readFileSync(join(dir.path, '.local', 'state', 'plants', 'deletions.jsonl'), 'utf8');
    expect(journal).toMatch(/"event":"outcome".*"result":"unknown"/);
  });

  it('not HTTP/1.1 is said so, naming the host', async () => {
    const tcp = await rawTcpServer(() => 'SSH-2.0-OpenSSH_9.6\r\n');
    closers.push(tcp.close);
    const r = await plants(['list'], { PLANTS_BASE_URL: tcp.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `failed: ${new URL(tcp.url).host} answered in a way plants cannot read: Response does not match the HTTP/1.1 protocol`,
    );
  });
});

describe('compressed bodies', () => {
  const list = '[{"id":1,"name":"Fern"}]';
  const compress = { gzip: gzipSync, br: brotliCompressSync, deflate: deflateSync };
  const notAsked = (encoding: string) =>
    `${encoding}-encoded, which plants did not ask for (it sends Accept-Encoding: identity)`;

  it('every request asks for no compression', async () => {
    await scripted([ok]);
    await plants(['list']);
    await plants(['delete', '1', '--yes']);
    expect(server!.requests.map((q) => q.headers['accept-encoding'])).toEqual(['identity', 'identity']);
  });

  it('a list sent with Content-Encoding: identity is read as usual', async () => {
    await scripted([(res) => res.writeHead(200, { ...json, 'content-encoding': 'identity' }).end(list)]);
    const r = await plants(['list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1\tFern\t\n');
  });

  it.each(['gzip', 'br', 'deflate'] as const)('a %s-encoded list is refused, naming the encoding', async (encoding) => {
    await scripted([
      (res) => res.writeHead(200, { ...json, 'content-encoding': encoding }).end(compress[encoding](list)),
    ]);
    const r = await plants(['list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`plants: GET ${server!.url}/plants → 200: the response is ${notAsked(encoding)}\n`);
  });

  it('a gzip-encoded error body is not shown as an excerpt; the status still counts', async () => {
    const body = gzipSync(JSON.stringify({ error: 401, message: 'bad token' }));
    await scripted([(res) => res.writeHead(401, { ...json, 'content-encoding': 'gzip' }).end(body)]);
    const r = await plants(['list']);
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      `plants: GET ${server!.url}/plants → 401 Unauthorized: the error body is ${notAsked('gzip')}; not shown; the service refused the token from PLANTS_TOKEN; set PLANTS_TOKEN to a valid token (it overrides any token stored with 'plants auth login')\n`,
    );
  });
});

describe('redirects', () => {
  it('follows a same-origin redirect', async () => {
    server = await rawServer((req, res) => {
      if (req.url === '/plants') res.writeHead(301, { location: '/v2/plants' }).end();
      else ok(res);
    });
    const r = await plants(['list']);
    expect(r.code).toBe(0);
    expect(server.requests.map((q) => q.path)).toEqual(['/plants', '/v2/plants']);
    expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // Listed, and said: delete and prune would send their DELETEs to /plants/<id>, not /v2/plants/<id>.
    expect(r.stderr).toBe(
      `plants: warning: the service redirected the list from ${server.url}/plants to ${server.url}/v2/plants; delete and prune refuse to act on it: point the base URL at the address the service moved to\n`,
    );
  });

  /** A service that moved its plants to /v2 and answers its old paths too: the list redirects, a DELETE does not. */
  const moved = () =>
    rawServer((req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/plants')) {
        res.writeHead(301, { location: req.url.replace('/plants', '/v2/plants') }).end();
      } else if (req.method === 'GET') {
        res.writeHead(200, json).end('[{"id":1,"name":"Fern","tag":"weed"},{"id":2,"name":"Rose"}]');
      } else res.writeHead(204).end();
    });

  it.each([
    ['prune', ['prune', '--tag', 'weed', '--yes']],
    ['prune --dry-run', ['prune', '--all', '--dry-run']],
    ['delete with --max-deletes as a share of the list', ['delete', '1', '--yes', '--max-deletes', '50%']],
    ['delete with a protection by tag', ['delete', '2', '--yes']],
  ])('%s refuses a list that redirects to another path: exit 2, no DELETE sent', async (_what, args) => {
    server = await moved();
    expect((await plants(['config', 'protect', '--tag', 'keep'])).code).toBe(0);
    const r = await plants([...args, '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `plants: the service redirected the list from ${server.url}/plants to ${server.url}/v2/plants: those are the plants of another address, and a DELETE goes only to ${server.url}/plants/<id>, never where a redirect points; point the base URL at the address the service moved to; nothing was deleted\n`,
    );
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { code: 'refused' } });
    expect(server.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
  });

  it('a redirect that only adds a trailing slash (Django) is the same list: prune goes on', async () => {
    server = await rawServer((req, res) => {
      if (req.method === 'GET' && /^\/plants(\?|$)/.test(req.url ?? '')) {
        res.writeHead(301, { location: req.url!.replace('/plants', '/plants/') }).end();
      } else if (req.method === 'GET') res.writeHead(200, json).end('[{"id":1,"name":"Fern","tag":"weed"}]');
      else res.writeHead(204).end();
    });
    const r = await plants(['prune', '--tag', 'weed', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(server.requests.map((q) => `${q.method} ${q.path.replace(/\?.*/, '')}`)).toEqual([
      'GET /plants',
      'GET /plants/',
      'DELETE /plants/1',
    ]);
  });

  it('follows at most 5', async () => {
    server = await rawServer((req, res) => res.writeHead(302, { location: `${req.url}/x` }).end());
    const r = await plants(['list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/302 Found: more than 5 redirects \(5 followed\)/);
    expect(server.requests).toHaveLength(6);
  });

  it.each([
    [
      304,
      {},
      '304 Not Modified: not a redirect but the answer to a conditional request, which plants never sends (no If-None-Match or If-Modified-Since)',
    ],
    [
      300,
      { location: '/plants.json' },
      '300 Multiple Choices: a choice of representations (the service suggests /plants.json), which plants does not make; not followed',
    ],
    [
      305,
      { location: 'http://127.0.0.1:1' },
      '305 Use Proxy: a request to go through a proxy, which plants takes only from HTTPS_PROXY or HTTP_PROXY, never from a response; not followed',
    ],
    [306, {}, '306 Unknown Status: a 3xx status that is not a redirect plants follows (301, 302, 303, 307, 308)'],
  ])('%d is said for what it is, not called a redirect', async (code, headers, said) => {
    server = await rawServer((_req, res) => res.writeHead(code, headers).end());
    const r = await plants(['list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`plants: GET ${server.url}/plants → ${said}\n`);
    expect(server.requests).toHaveLength(1);
  });

  it('does not follow a redirect to another origin, which would carry the token there', async () => {
    const elsewhere = await rawServer((_req, res) => ok(res));
    closers.push(elsewhere.close);
    server = await rawServer((_req, res) => res.writeHead(307, { location: `${elsewhere.url}/plants` }).end());
    const r = await plants(['list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `307 Temporary Redirect: redirected to ${elsewhere.url}/plants, another origin; not followed, since the request carries the token`,
      ),
    );
    expect(elsewhere.requests).toEqual([]);
  });
});

describe('proxies', () => {
  it.each(['HTTP_PROXY', 'http_proxy'])('goes through the proxy in %s', async (variable) => {
    const store = await plantStore({ seed: 2 });
    const proxy = await connectProxy();
    closers.push(store.close, proxy.close);
    const r = await plants(['list'], { PLANTS_BASE_URL: store.url, [variable]: proxy.url });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(proxy.tunnels).toEqual([new URL(store.url).host]);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    const store = await plantStore({ seed: 2 });
    const proxy = await connectProxy();
    closers.push(store.close, proxy.close);
    const r = await plants(['list'], { PLANTS_BASE_URL: store.url, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    expect(r.code).toBe(0);
    expect(proxy.tunnels).toEqual([]);
  });

  it('warns that plain http to another host carries the token unencrypted', async () => {
    // The proxy routes the made-up host to the local store: no DNS, no network.
    const store = await plantStore({ seed: 1 });
    const local = new URL(store.url);
    const proxy = await connectProxy(() => ({ host: local.hostname, port: Number(local.port) }));
    closers.push(store.close, proxy.close);
    const r = await plants(['list'], { PLANTS_BASE_URL: 'http://plants.example.com', HTTP_PROXY: proxy.url });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'plants: warning: the base URL uses plain http to plants.example.com: the token travels unencrypted; use https\n',
    );
    expect(proxy.tunnels).toEqual(['plants.example.com:80']);
    const loopback = await plants(['list'], { PLANTS_BASE_URL: store.url });
    expect(loopback.stderr).toBe('');
  });

  it.each([
    ['HTTPS_PROXY', 'http://[::1', 'expected a URL such as http://proxy.example.com:3128'],
    ['https_proxy', 'not a url', 'expected a URL such as http://proxy.example.com:3128'],
    ['HTTP_PROXY', 'proxy.example.com:3128', 'the scheme must be http or https'],
    ['HTTP_PROXY', 'http://user:secret@[::1', 'expected a URL such as http://proxy.example.com:3128'],
  ])('a malformed %s (%s) is a one-line config error naming it, before any request', async (variable, value, why) => {
    // The base URL is https: undici would have thrown even for HTTP_PROXY, which it sets up too.
    const r = await plants(['list', '--json'], { PLANTS_BASE_URL: 'https://127.0.0.1:9', [variable]: value });
    const shown = value.replace('user:secret@', '***@');
    const message = `invalid proxy URL "${shown}" in ${variable}: ${why}; fix or unset ${variable}`;
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(
      `plants: ${message}\n${JSON.stringify({ error: { code: 'config', status: null, message, request_id: null } })}\n`,
    );
  });
});

describe('TLS with a private CA', () => {
  it('fails clearly without the CA, and works with NODE_EXTRA_CA_CERTS', async () => {
    const { cert, key, certPath } = selfSignedCertificate(dir.path);
    const https = createHttpsServer(
      { cert, key },
      plantStoreHandler({ token: TOKEN, store: new PlantStore([{ id: 1, name: 'Fern' }]) }),
    );
    const { url, close } = await listenOnLoopback(https, 'https');
    closers.push(close);

    const without = await plants(['list'], { PLANTS_BASE_URL: url });
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(
      /TLS error talking to 127\.0\.0\.1:\d+: self-signed certificate.*set NODE_EXTRA_CA_CERTS to its PEM file\n$/,
    );

    const withCa = await plants(['list'], { PLANTS_BASE_URL: url, NODE_EXTRA_CA_CERTS: certPath });
    expect(withCa.code).toBe(0);
    expect(withCa.stdout).toBe('1\tFern\t\n');
  });
});

describe('TLS with a certificate for other names', () => {
  it("names the certificate's names and says to use one in the base URL, not NODE_EXTRA_CA_CERTS", async () => {
    const { cert, key, certPath } = selfSignedCertificate(dir.path, ['DNS:plants.internal', 'DNS:api.plants.internal']);
    const https = createHttpsServer(
      { cert, key },
      plantStoreHandler({ token: TOKEN, store: new PlantStore([{ id: 1, name: 'Fern' }]) }),
    );
    const { url, close } = await listenOnLoopback(https, 'https');
    closers.push(close);
    const host = new URL(url).host;

    // The CA is trusted: only the name is wrong.
    const r = await plants(['list'], { PLANTS_BASE_URL: url, NODE_EXTRA_CA_CERTS: certPath });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `plants: GET ${url}/plants failed: TLS error talking to ${host}: its certificate is for plants.internal, api.plants.internal, ` +
        'not 127.0.0.1 (ERR_TLS_CERT_ALTNAME_INVALID); use a name it lists in the base URL\n',
    );
  });
});

describe('every body is bounded by --timeout, and retries stop at Ctrl-C', () => {
  const trickle =
    (status: number, headers: Record<string, string> = {}) =>
    (res: import('node:http').ServerResponse) => {
      res.writeHead(status, headers);
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
    };

  it.each([
    ['a DELETE whose 200 body trickles (success: the status says so)', ['delete', '5', '--yes'], trickle(200), 0],
    ['redirects whose bodies trickle', ['list'], trickle(302, { location: '/elsewhere' }), 1],
    ['a retryable 503 whose body trickles', ['list', '--retries', '1'], trickle(503, { 'retry-after': '0' }), 1],
  ])('%s: every attempt ends within the timeout', async (_what, args, answer, code) => {
    await scripted([answer]);
    const started = Date.now();
    const r = await plants([...args, '--timeout', '1']);
    expect(r.code).toBe(code);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('an error whose body stalls: reported within the timeout, saying the body did not arrive', async () => {
    await scripted([(res) => res.writeHead(403, json).write('{"error":403,')]);
    const started = Date.now();
    const r = await plants(['list', '--timeout', '1']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/→ 403 Forbidden: \(the error body did not arrive within 1 s\)/);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('Ctrl-C during a retry wait stops the run, and no request is sent after it', async () => {
    server = await rawServer((_req, res) => res.writeHead(503, { 'retry-after': '30' }).end());
    const { child, out, exit } = spawnCli(
      ['delete', '1', '2', '3', '4', '--yes', '--json', '--concurrency', '2', '--retries', '3'],
      {
        configDir: dir.path,
        env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN },
      },
    );
    while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sent = server.requests.length;
    const started = Date.now();
    child.kill('SIGINT');
    expect(await exit).toBe(130);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(server.requests.length).toBe(sent);
    const results = JSON.parse(out.stdout) as { result: string; status: number | null }[];
    expect(results.map((x) => x.result)).toEqual(['failed', 'failed', 'skipped', 'skipped']);
    expect(results[0]!.status).toBe(503);
  });

  it('a GET whose body is cut is not resumed with a Range request', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('[{"name":"a"');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const r = await plants(['list', '--retries', '2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the response body was cut short/);
    expect(server.requests.every((q) => q.headers.range === undefined)).toBe(true);
  });

  it('a DELETE is not sent on where a redirect points (here a 303)', async () => {
    server = await rawServer((req, res) => {
      if (req.url === '/plants/7') res.writeHead(303, { location: '/done' }).end();
      else res.writeHead(204).end();
    });
    const r = await plants(['delete', '7', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /303 See Other: redirected to \/done; not followed: a DELETE goes only to the address asked for/,
    );
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['DELETE /plants/7']);
  });

  // A 500 too: a service may fail after the change is made (committed, then crashed).
  it.each([504, 500])('a DELETE that got a %d, then 404, counts as gone, and is on record so', async (first) => {
    await scripted([status(first, { 'retry-after': '0' }), status(404)]);
    const r = await plants(['delete', '7', '--yes', '--json', '--retries', '1']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as DeleteOutcome[])[0]).toMatchObject({ result: 'gone', status: 404 });
    expect(r.stderr).toMatch(/warning: plant 7 is gone: the answer to its DELETE was lost or a server error/);
    const history = await plants(['history', '--json']);
    expect((JSON.parse(history.stdout) as { results: Record<string, number> }[])[0]?.results).toMatchObject({
      gone: 1,
      not_found: 0,
    });
  });

  it.each([503, 429, 408])('a DELETE that got a %d (not acted on), then 404, is not found (exit 3)', async (first) => {
    await scripted([status(first, { 'retry-after': '0' }), status(404)]);
    const r = await plants(['delete', '7', '--yes', '--json', '--retries', '1']);
    expect(r.code).toBe(3);
    expect((JSON.parse(r.stdout) as DeleteOutcome[])[0]).toMatchObject({ result: 'not_found', status: 404 });
  });

  it('a redirect Location carrying the token is masked, on stdout too', async () => {
    server = await rawServer((_req, res) =>
      res.writeHead(302, { location: `http://127.0.0.2:1/steal?t=${TOKEN}` }).end(),
    );
    const r = await plants(['delete', '7', '--yes', '--json']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as DeleteOutcome[])[0]?.error?.message).toMatch(/steal\?t=\*\*\*/);
  });

  it('a refused connection through a proxy names the proxy too', async () => {
    await scripted([ok]);
    const r = await plants(['list'], { HTTP_PROXY: 'http://127.0.0.1:9' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/connection refused by 127\.0\.0\.1:\d+ or the proxy in HTTP_PROXY/);
  });
});
