import { spawn } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_KEYRING, PLANTS_BIN, ROOT, runCli, spawnCli, tempDir, waitFor, type JsonError } from '../helpers/cli.js';
import { listenOnLoopback, plantStore, rawServer, TOKEN, type RawServer } from '../helpers/servers.js';
import { runCommand } from '../helpers/command.js';

// `plants api <path>`: any request to the plant store with the selected
// profile's base URL and token, the same rules as every other command.

let dir: ReturnType<typeof tempDir>;
let server: RawServer | undefined;
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  dir.remove();
});

const api = (
  url: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string; tty?: boolean } = {},
) =>
  runCli(['api', ...args], {
    configDir: dir.path,
    env: { PLANTS_BASE_URL: url, PLANTS_TOKEN: TOKEN, PLANTS_STATE_DIR: join(dir.path, 'state'), ...options.env },
    input: options.input,
    tty: options.tty,
  });

/** A server that answers every request with this status, content type and body. */
const answering = (status: number, body: string | Buffer, type = 'application/json') =>
  rawServer((_req, res) => {
    res.writeHead(status, { 'content-type': type }).end(body);
  });

const lastJsonLine = (stderr: string) => JSON.parse(stderr.trim().split('\n').at(-1)!) as JsonError;

describe('plants api: the request', () => {
  it('sends GET to the path joined to the base URL, its path prefix kept, with the token and identification', async () => {
    server = await answering(200, '[]');
    const r = await api(`${server.url}/v1`, ['/plants/7']);
    expect(r.code).toBe(0);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', path: '/v1/plants/7' });
    expect(request!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request!.headers['user-agent']).toMatch(/^plants\//);
    expect(request!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('takes each method with -X, in any case, and sends no body unless given one', async () => {
    server = await answering(200, '{}');
    for (const method of ['get', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const r = await api(server.url, ['-X', method, '/things/1', '--no-journal']);
      expect(r.code, `${method}: ${r.stderr}`).toBe(0);
    }
    expect(server.requests.map((request) => request.method)).toEqual([
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
    ]);
    expect(server.requests.every((request) => request.body.length === 0)).toBe(true);
  });

  it('refuses a method that is not an HTTP token, and CONNECT, sending nothing', async () => {
    server = await answering(200, '{}');
    for (const method of ['GE T', 'CONNECT', '']) {
      const r = await api(server.url, ['-X', method, '/plants']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/invalid method/);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('sends a file with --input, and stdin with --input -, as JSON unless -H sets Content-Type', async () => {
    server = await answering(201, '{"id":9}');
    const file = join(dir.path, 'new-plant.json');
    writeFileSync(file, '{"name":"Fern","height":12345678901234567890}');
    expect((await api(server.url, ['-X', 'POST', '/plants', '--input', file])).code).toBe(0);
    expect((await api(server.url, ['/plants', '--input', '-'], { input: 'name,tag\nFern,x\n' })).code).toBe(0);
    expect(
      (
        await api(server.url, ['-X', 'PUT', '/notes/1', '--input', '-', '-H', 'Content-Type: text/csv'], {
          input: 'a,b',
        })
      ).code,
    ).toBe(0);
    const [first, second, third] = server.requests;
    expect(first).toMatchObject({ method: 'POST', path: '/plants' });
    expect(first!.body.toString()).toBe('{"name":"Fern","height":12345678901234567890}');
    expect(first!.headers['content-type']).toBe('application/json');
    // A body without -X is a POST, as with gh api.
    expect(second).toMatchObject({ method: 'POST' });
    expect(second!.body.toString()).toBe('name,tag\nFern,x\n');
    expect(third!.headers['content-type']).toBe('text/csv');
    expect(third!.body.toString()).toBe('a,b');
  });

  it('says which --input file it cannot read, sending nothing', async () => {
    server = await answering(200, '{}');
    const r = await api(server.url, ['-X', 'POST', '/plants', '--input', join(dir.path, 'missing.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read ".*missing\.json": .*(no such file|not exist)/i);
    expect(server.requests).toHaveLength(0);
  });

  it('makes a JSON body of -F (typed, numbers exactly as written) and -f (strings), in order', async () => {
    server = await answering(201, '{}');
    const r = await api(server.url, [
      '-X',
      'PATCH',
      '/plants/7',
      '-F',
      'name=Ficus',
      '-F',
      'indoor=true',
      '-F',
      'pot=null',
      '-F',
      'height=12.50',
      '-F',
      'serial=123456789012345678901234567890',
      '-f',
      'code=007',
      '-F',
      'empty=',
    ]);
    expect(r.code).toBe(0);
    const [request] = server.requests;
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body.toString()).toBe(
      '{"name":"Ficus","indoor":true,"pot":null,"height":12.50,"serial":123456789012345678901234567890,"code":"007","empty":""}',
    );
  });

  it('reads a -F value from a file with @file', async () => {
    server = await answering(201, '{}');
    const file = join(dir.path, 'notes.txt');
    writeFileSync(file, 'line one\nline two');
    expect((await api(server.url, ['/plants', '-F', `notes=@${file}`])).code).toBe(0);
    expect(JSON.parse(server.requests[0]!.body.toString())).toEqual({ notes: 'line one\nline two' });
  });

  it('puts fields in the query on GET and HEAD (and with --input), added to a query the path has', async () => {
    server = await answering(200, '[]');
    expect(
      (await api(server.url, ['-X', 'GET', '/plants?limit=5', '-F', 'tag=a b', '-f', 'name=Ficus & co'])).code,
    ).toBe(0);
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      path: '/plants?limit=5&tag=a%20b&name=Ficus%20%26%20co',
    });
    expect(server.requests[0]!.body.length).toBe(0);
  });

  it('refuses a key given twice, a field without =, and --input on GET, sending nothing', async () => {
    server = await answering(200, '{}');
    const twice = await api(server.url, ['-X', 'POST', '/plants', '-F', 'a=1', '-F', 'a=2']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/field "a" given twice/);
    const bare = await api(server.url, ['/plants', '-F', 'name']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/expected key=value/);
    const get = await api(server.url, ['-X', 'GET', '/plants', '--input', '-'], { input: '{}' });
    expect(get.code).toBe(2);
    expect(get.stderr).toMatch(/--input gives a body, which a GET does not carry/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('plants api: headers', () => {
  it('sends -H headers, a name given twice joined, and lets Accept be replaced', async () => {
    server = await answering(200, 'ok', 'text/plain');
    const r = await api(server.url, [
      '/health',
      '-H',
      'X-Trace: one',
      '-H',
      'x-trace: two',
      '-H',
      'Accept: text/plain',
    ]);
    expect(r.code).toBe(0);
    expect(server.requests[0]!.headers['x-trace']).toBe('one, two');
    expect(server.requests[0]!.headers.accept).toBe('text/plain');
  });

  it('takes an X-Request-Id given with -H as the request id', async () => {
    server = await answering(500, '{"error":500,"message":"boom"}');
    const r = await api(server.url, ['/plants', '-H', 'X-Request-Id: mine-42', '--json']);
    expect(server.requests[0]!.headers['x-request-id']).toBe('mine-42');
    expect(lastJsonLine(r.stderr).error.request_id).toBe('mine-42');
  });

  it('refuses Authorization (and the headers that frame the message), sending nothing', async () => {
    server = await answering(200, '{}');
    for (const header of [
      'Authorization: Bearer other',
      'authorization:x',
      'Host: evil.example',
      'Content-Length: 3',
    ]) {
      const r = await api(server.url, ['/plants', '-H', header]);
      expect(r.code, header).toBe(2);
      expect(r.stderr).toMatch(/refusing header/);
    }
    const auth = await api(server.url, ['/plants', '-H', 'Authorization: Bearer other']);
    expect(auth.stderr).toMatch(/plants auth login/);
    const bad = await api(server.url, ['/plants', '-H', 'no colon here']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/expected 'Name: value'/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('plants api: the origin rule', () => {
  it("accepts an absolute URL on the base URL's origin, sent as written", async () => {
    server = await answering(200, '{}');
    const r = await api(`${server.url}/v1`, [`${server.url}/other/./x?y=1`]);
    expect(r.code).toBe(0);
    expect(server.requests[0]!.path).toBe('/other/./x?y=1');
  });

  it('refuses a URL on any other origin (host, port or scheme), so the token never leaves it', async () => {
    server = await answering(200, '{}');
    const port = Number(new URL(server.url).port);
    for (const url of [
      `http://localhost:${port}/plants`,
      `http://127.0.0.1:${port + 1}/plants`,
      `https://127.0.0.1:${port}/plants`,
    ]) {
      const r = await api(server.url, [url]);
      expect(r.code, url).toBe(2);
      expect(r.stderr).toMatch(/not on the base URL's origin/);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('does not follow a redirect to another origin, and prints what came', async () => {
    const other = await answering(200, '{"leaked":true}');
    server = await rawServer((_req, res) => {
      res.writeHead(302, { location: `${other.url}/x` }).end('moved');
    });
    const r = await api(server.url, ['/plants']);
    await other.close();
    expect(r.code).toBe(1);
    expect(other.requests).toHaveLength(0);
    expect(r.stdout).toBe('moved');
    expect(r.stderr).toMatch(/another origin; not followed/);
  });
});

describe('plants api: retries follow the method', () => {
  const flaky = () =>
    rawServer((_req, res) => {
      res
        .writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' })
        .end('{"error":503,"message":"busy"}');
    });

  it('sends a POST answered 503 once, and a PATCH', async () => {
    server = await flaky();
    const post = await api(server.url, ['-X', 'POST', '/plants', '-F', 'name=x'], { env: { PLANTS_RETRIES: '3' } });
    const patch = await api(server.url, ['-X', 'PATCH', '/plants/1', '-F', 'name=x'], { env: { PLANTS_RETRIES: '3' } });
    expect(post.code).toBe(1);
    expect(patch.code).toBe(1);
    expect(server.requests.map((request) => request.method)).toEqual(['POST', 'PATCH']);
    expect(post.stdout).toBe('{"error":503,"message":"busy"}');
  });

  it('sends a GET, PUT or DELETE answered 503 again, as list and delete do', async () => {
    server = await flaky();
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const r = await api(server.url, ['-X', method, '/things/1', '--no-journal'], { env: { PLANTS_RETRIES: '2' } });
      expect(r.code, method).toBe(1);
      expect(r.stderr).toMatch(/after 3 attempts/);
    }
    expect(server.requests).toHaveLength(9);
  });

  it('sends a POST again when the connection was refused (it never left)', async () => {
    // A port nothing listens on: every attempt is refused, and each is sent.
    const closed = await answering(200, '{}');
    const url = closed.url;
    await closed.close();
    const r = await api(url, ['-X', 'POST', '/plants', '-F', 'name=x', '--debug'], { env: { PLANTS_RETRIES: '2' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/after 3 attempts/);
  });
});

describe('plants api: exit codes, the body always printed', () => {
  const cases: [status: number, body: string, path: string, method: string, code: number, errorCode: string][] = [
    [401, '{"error":401,"message":"bad token"}', '/plants', 'GET', 4, 'auth'],
    [403, '{"error":403,"message":"not yours"}', '/plants/7', 'DELETE', 4, 'auth'],
    [404, '{"error":404,"message":"plant 7 not found"}', '/plants/7', 'GET', 3, 'not_found'],
    [404, '{"error":404,"message":"plant 7 not found"}', '/plants/7', 'DELETE', 3, 'not_found'],
    [404, '{"error":404,"message":"no such route"}', '/plants', 'GET', 1, 'http_error'],
    [404, '{"error":404,"message":"plant 7 not found"}', '/plants/7', 'PATCH', 1, 'http_error'],
    [404, '404 page not found', '/plants/7', 'GET', 1, 'http_error'],
    [500, '{"error":500,"message":"boom"}', '/plants', 'GET', 1, 'http_error'],
    [409, '{"error":409,"message":"exists"}', '/plants', 'POST', 1, 'http_error'],
  ];
  it.each(cases)('%i to %s %s', async (status, body, path, method, code, errorCode) => {
    server = await answering(status, body, body.startsWith('{') ? 'application/json' : 'text/plain');
    const r = await api(server.url, ['-X', method, path, '--json', '--no-journal']);
    expect(r.code).toBe(code);
    // The service's error object on stdout, for scripts; the JSON error line last on stderr.
    expect(r.stdout).toBe(body);
    const line = lastJsonLine(r.stderr);
    expect(line.error).toMatchObject({ code: errorCode, status });
  });

  it.each<[string, string, (text: string) => Buffer]>([
    ['UTF-16LE after its byte order mark', 'application/json', (text) => Buffer.from(`\uFEFF${text}`, 'utf16le')],
    ['declared UTF-16BE', 'application/json; charset=utf-16be', (text) => Buffer.from(text, 'utf16le').swap16()],
    [
      'UTF-32LE undeclared',
      'application/json',
      (text) => Buffer.from(Array.from(text, (c) => [c.charCodeAt(0), 0, 0, 0]).flat()),
    ],
  ])('reads the Error object of a body in %s as a UTF-8 one is read: its exit code', async (_, type, encode) => {
    const body = encode('{"error":404,"message":"plant 7 not found"}');
    server = await answering(404, body, type);
    for (const method of ['GET', 'DELETE']) {
      const r = await api(server.url, ['-X', method, '/plants/7', '--json', '--no-journal']);
      expect(r.code, r.stderr).toBe(3);
      expect(lastJsonLine(r.stderr).error).toMatchObject({ code: 'not_found', status: 404 });
    }
  });

  it('refuses a body larger than --max-response-size, printing none of it', async () => {
    server = await answering(200, `[${'1,'.repeat(2000)}1]`);
    const r = await api(server.url, ['--max-response-size', '1K', '/plants']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/more than --max-response-size/);
  });

  it('prints no body for HEAD, and with -i only the status line and headers', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' }).end();
    });
    expect((await api(server.url, ['-X', 'HEAD', '/plants'])).stdout).toBe('');
    const r = await api(server.url, ['-i', '-X', 'HEAD', '/plants']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\n(.+\n)*content-length: 2\n(.+\n)*\n$/);
  });

  it('says a 404 to HEAD of a plant cannot tell a missing plant from a wrong address (no body)', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': '43' }).end();
    });
    const r = await api(server.url, ['-X', 'HEAD', '/plants/7']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /404 Not Found: .*; an answer to HEAD has no body to tell a missing plant from a wrong address: GET the same path to see which, or check the base URL/,
    );
    expect(r.stderr).not.toMatch(/not as a missing plant/);
  });

  it('says a 404 to GET of a plant without the Error object may be a wrong address, counting nothing', async () => {
    server = await answering(404, '<h1>Not Found</h1>', 'text/html');
    const r = await api(server.url, ['/plants/7']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/as a router or proxy answers a wrong address; check the base URL/);
    expect(r.stderr).not.toMatch(/counted as failed/);
  });

  it('exits 0 for any 2xx, 204 with no body included', async () => {
    server = await answering(204, '');
    const r = await api(server.url, ['-X', 'DELETE', '/x/1', '--no-journal']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('plants api: output', () => {
  it('writes the body byte for byte in a pipe: numbers, escapes, spacing and invalid UTF-8 as received', async () => {
    const body = Buffer.concat([
      Buffer.from('{ "id" : 12345678901234567890, "n":1.50e0, "s":"caf\\u00e9 \\ud83c", "raw":"'),
      Buffer.from([0xff, 0xfe, 0xe9]),
      Buffer.from('" }\n'),
    ]);
    server = await answering(200, body);
    const r = await runCli(['api', '/plants/1'], {
      configDir: dir.path,
      env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN },
    });
    expect(r.code).toBe(0);
    // runCli decodes as UTF-8: compare what it made of the same bytes.
    expect(r.stdout).toBe(body.toString('utf8'));
  });

  it('keeps every byte, checked as bytes', async () => {
    const body = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    server = await answering(200, body, 'application/octet-stream');
    const child = spawn(process.execPath, [PLANTS_BIN, 'api', '/blob'], {
      env: {
        ...NO_KEYRING,
        HOME: dir.path,
        PLANTS_CONFIG_DIR: dir.path,
        PLANTS_BASE_URL: server.url,
        PLANTS_TOKEN: TOKEN,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
  });

  it('indents and keeps JSON exact on a terminal, and escapes what a terminal would act on', async () => {
    server = await answering(
      200,
      '{"id":12345678901234567890,"name":"Fern\\u001b[31m","list":[],"tags":["a"],"e":1.50}',
    );
    const r = await api(server.url, ['/plants/1'], { tty: true });
    expect(r.code).toBe(0);
    const lines = r.stdout.replaceAll('\r\n', '\n');
    expect(lines).toBe(
      '{\n  "id": 12345678901234567890,\n  "name": "Fern\\u001b[31m",\n  "list": [],\n  "tags": [\n    "a"\n  ],\n  "e": 1.50\n}\n',
    );
  });

  it('shows other text escaped on a terminal, lines kept', async () => {
    server = await answering(200, 'line one\n\u001b[2Jline two\u202e', 'text/plain');
    const r = await api(server.url, ['/health'], { tty: true });
    expect(r.stdout.replaceAll('\r\n', '\n')).toBe('line one\n\\u001b[2Jline two\\u202e\n');
  });

  it('with -i, prints the status line and the headers first', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-thing': 'one' }).end('{}');
    });
    const r = await api(server.url, ['-i', '-X', 'POST', '/plants', '-F', 'name=x']);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 201 Created\n/);
    expect(r.stdout).toMatch(/\nx-thing: one\n/);
    expect(r.stdout).toMatch(/\n\n\{\}$/);
  });

  it('masks the token wherever the service echoes it: body (plain, base64, percent-encoded) and headers', async () => {
    const base64 = Buffer.from(`Bearer ${TOKEN}`).toString('base64');
    server = await rawServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json', 'x-echo': `Bearer ${TOKEN}` })
        .end(JSON.stringify({ plain: TOKEN, b64: base64, pct: encodeURIComponent(TOKEN).replaceAll('-', '%2D') }));
    });
    // runCli fails the run if the token shows anywhere; the base64 form is checked here.
    for (const tty of [false, true]) {
      const r = await api(server.url, ['-i', '/echo'], { tty });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain(base64);
      expect(r.stdout).toContain('***');
    }
  });
});

describe('plants api: a DELETE is on record', () => {
  it('records a DELETE of /plants/<id> in the journal, shown by history, and deletes it', async () => {
    const store = await plantStore({ seed: 3 });
    try {
      const r = await api(store.url, ['-X', 'DELETE', '/plants/2']);
      expect(r.code).toBe(0);
      expect(store.store.list().map((plant) => plant.id)).toEqual([1, 3]);
      const history = await runCli(['history', '--json'], {
        configDir: dir.path,
        env: { PLANTS_STATE_DIR: join(dir.path, 'state') },
      });
      const runs = JSON.parse(history.stdout) as { run: string; command: string }[];
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ command: 'api', plants: 1, results: { deleted: 1 } });
      const one = await runCli(['history', runs[0]!.run, '--json'], {
        configDir: dir.path,
        env: { PLANTS_STATE_DIR: join(dir.path, 'state') },
      });
      expect(JSON.parse(one.stdout)).toMatchObject([{ id: '2', result: 'deleted', status: 204, attempts: 1 }]);
    } finally {
      await store.close();
    }
  });

  it('records a 404 as not_found, and sends nothing when the journal cannot be written', async () => {
    const store = await plantStore({ seed: 1 });
    try {
      const missing = await api(store.url, ['-X', 'DELETE', '/plants/9']);
      expect(missing.code).toBe(3);
      const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
      expect(journal).toMatch(/"result":"not_found"/);
      writeFileSync(join(dir.path, 'not-a-dir'), '');
      const r = await api(store.url, ['-X', 'DELETE', '/plants/1'], {
        env: { PLANTS_STATE_DIR: join(dir.path, 'not-a-dir', 'state') },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/journal/);
      expect(store.store.size).toBe(1);
      expect(store.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it("holds the profile's protections for /plants/<id> unless --include-protected", async () => {
    const store = await plantStore({ seed: 3 });
    try {
      const env = { PLANTS_BASE_URL: store.url, PLANTS_TOKEN: TOKEN };
      expect((await runCli(['config', 'protect', '--id', '2'], { configDir: dir.path, env })).code).toBe(0);
      const refused = await api(store.url, ['-X', 'DELETE', '/plants/2']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/protect/);
      expect(store.store.size).toBe(3);
      const lifted = await api(store.url, ['-X', 'DELETE', '/plants/2', '--include-protected']);
      expect(lifted.code).toBe(0);
      expect(store.store.size).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('counts a 404 after a lost answer as gone, as delete does (exit 0, on record)', async () => {
    server = await rawServer((_req, res) => {
      if (server!.requests.length === 1) res.writeHead(502).end();
      else
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":404,"message":"plant 7 not found"}');
    });
    const r = await api(server.url, ['-X', 'DELETE', '/plants/7'], { env: { PLANTS_RETRIES: '1' } });
    // Exit 0 only for a 2xx: the status says 404; the note and the journal say what it means.
    expect(r.code).toBe(3);
    expect(server.requests).toHaveLength(2);
    expect(r.stdout).toBe('{"error":404,"message":"plant 7 not found"}');
    expect(r.stderr).toMatch(/earlier attempt most likely deleted it/);
    const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toMatch(/"result":"gone"/);
  });

  it('counts a 404 without the Error object after a lost answer as unknown, as delete does, not as gone', async () => {
    server = await rawServer((_req, res) => {
      if (server!.requests.length === 1) res.writeHead(502).end();
      else res.writeHead(404, { 'content-type': 'text/html' }).end('<html><title>404 Not Found</title></html>');
    });
    const r = await api(server.url, ['-X', 'DELETE', '/plants/7'], { env: { PLANTS_RETRIES: '1' } });
    expect(r.code).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(r.stderr).not.toMatch(/gone|counted as failed/);
    expect(r.stderr).toMatch(
      /not counted as a missing plant; check the base URL .*; the plant may have been deleted$/m,
    );
    const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toMatch(/"result":"unknown","status":404/);
  });

  it('counts a 410 after a lost answer as gone, as delete does (exit 3, on record)', async () => {
    server = await rawServer((_req, res) => {
      if (server!.requests.length === 1) res.writeHead(502).end();
      else res.writeHead(410).end();
    });
    const r = await api(server.url, ['-X', 'DELETE', '/plants/7'], { env: { PLANTS_RETRIES: '1' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^410 after a lost answer or a server error \(500, 502, 504\): an earlier attempt most likely deleted it/m,
    );
    const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toMatch(/"result":"gone","status":410/);
  });

  it('says a refusal after a lost answer leaves the plant maybe deleted, as the journal records it', async () => {
    server = await rawServer((_req, res) => {
      if (server!.requests.length === 1) res.writeHead(502).end();
      else res.writeHead(409, { 'content-type': 'application/json' }).end('{"error":9,"message":"in use"}');
    });
    const r = await api(server.url, ['-X', 'DELETE', '/plants/7', '--json'], { env: { PLANTS_RETRIES: '1' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('{"error":9,"message":"in use"}');
    expect(lastJsonLine(r.stderr).error.message).toMatch(
      /in use \(error 9\) \(after 2 attempts\); the plant may have been deleted$/,
    );
    const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toMatch(/"result":"unknown","status":409/);
  });

  it('records a DELETE of another path by its path', async () => {
    server = await answering(204, '');
    expect((await api(server.url, ['-X', 'DELETE', '/plants/7/photos/1'])).code).toBe(0);
    const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toMatch(/"id":"\/plants\/7\/photos\/1"/);
  });
});

describe('plants api: the local store', () => {
  it('creates with POST /plants and fetches one with GET /plants/<id>', async () => {
    const store = await plantStore({ seed: 1 });
    try {
      const created = await api(store.url, ['/plants', '-F', 'name=Fern', '-F', 'tag=fern']);
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout)).toEqual({ id: 2, name: 'Fern', tag: 'fern' });
      const fetched = await api(store.url, ['/plants/2']);
      expect(JSON.parse(fetched.stdout)).toEqual({ id: 2, name: 'Fern', tag: 'fern' });
      const missing = await api(store.url, ['/plants', '-F', 'tag=x']);
      expect(missing.code).toBe(1);
      expect(JSON.parse(missing.stdout)).toMatchObject({ error: 400 });
    } finally {
      await store.close();
    }
  });
});

describe('plants api: found in review', () => {
  it('refuses a URL written with backslashes or one slash, which a URL parser reads otherwise', async () => {
    server = await answering(204, '');
    const host = new URL(server.url).host;
    for (const url of [`http:\\\\${host}\\plants\\7`, `http://${host}\\plants\\7`, `http:/${host}/plants/7`]) {
      const r = await api(server.url, ['-X', 'DELETE', url]);
      expect(r.code, url).toBe(2);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a DELETE path a server might read as a protected plant, sending nothing', async () => {
    const store = await plantStore({ seed: 8 });
    try {
      const env = { PLANTS_BASE_URL: store.url, PLANTS_TOKEN: TOKEN };
      expect((await runCli(['config', 'protect', '--id', '7'], { configDir: dir.path, env })).code).toBe(0);
      for (const path of [
        '/plants/./7',
        '/plants/7/.',
        '/x/../plants/7',
        '/PLANTS/7',
        '/plants/7;x',
        '/plants%2F7',
        '/plants//7',
        '/%70lants/7',
        '/plants/7.json',
        '/plants/07.xml',
        '/plants/7%00',
      ]) {
        const r = await api(store.url, ['-X', 'DELETE', path]);
        expect(r.code, path).toBe(2);
        expect(r.stderr, path).toMatch(/refusing DELETE|protect/);
      }
      expect(store.requests.filter((request) => request.method === 'DELETE')).toHaveLength(0);
      expect(store.store.size).toBe(8);
    } finally {
      await store.close();
    }
  });

  it("a DELETE over the profile's max-deletes is refused with a way on that api has (it has no --max-deletes)", async () => {
    server = await answering(204, '');
    const env = { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN };
    expect((await runCli(['config', 'set', 'max-deletes', '0'], { configDir: dir.path, env })).code).toBe(0);
    const r = await api(server.url, ['-X', 'DELETE', '/plants/21']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'plants: 1 plant would be deleted, more than the max-deletes 0 of profile default; nothing was deleted; raise it (plants --profile default config set max-deletes <n>) or remove it (config unset max-deletes), or delete with plants delete --max-deletes <n>\n',
    );
    expect(server.requests).toHaveLength(0);
  });

  it("guards a DELETE of a URL under any path, the base URL's spelt otherwise or another, as one of the plant", async () => {
    server = await answering(204, '');
    const base = `${server.url}/v1`;
    const env = { PLANTS_BASE_URL: base, PLANTS_TOKEN: TOKEN };
    expect((await runCli(['config', 'protect', '--id', '7'], { configDir: dir.path, env })).code).toBe(0);
    for (const url of [
      `${server.url}/v2/plants/7`,
      `${server.url}/other/plants/7/`,
      `${server.url}/%76%31/plants/7`,
      `${server.url}/V1/Plants/%37`,
      `${server.url}/v1//plants/./7`,
      // Folded as Java's equalsIgnoreCase folds them: ſ is s; ｐ (fullwidth) is p once normalised.
      `${server.url}/v1/plant%C5%BF/7`,
      `${server.url}/v1/%EF%BD%90lants/7`,
      '/../v2/plants/7',
      '/Plants/7',
    ]) {
      const r = await api(base, ['-X', 'DELETE', url]);
      expect(r.code, url).toBe(2);
      expect(r.stderr, url).toMatch(/protected/);
    }
    expect(server.requests).toHaveLength(0);
    // A GET goes as written; a DELETE of an unprotected plant at another prefix is sent, and on record as that plant's.
    expect((await api(base, [`${server.url}/v2/plants/7`])).code).toBe(0);
    expect((await api(base, ['-X', 'DELETE', `${server.url}/v2/plants/8`])).code).toBe(0);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v2/plants/7',
      'DELETE /v2/plants/8',
    ]);
    const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toMatch(/"id":"8"/);
    expect(journal).not.toMatch(/"id":"7"/);
  });

  /** A file in the test's directory holding `text`, for --input. */
  const file = (name: string, text: string | Buffer) => {
    const path = join(dir.path, name);
    writeFileSync(path, text);
    return path;
  };
  const MULTIPART =
    '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nFern\r\n' +
    '--XyZ\r\nContent-Disposition: form-data; name="_method"\r\n\r\nDELETE\r\n--XyZ--\r\n';
  const MULTIPART_TYPE = 'Content-Type: multipart/form-data; boundary=XyZ';

  it.each<[string, (id: string) => string[]]>([
    ['X-HTTP-Method-Override', (id) => ['-X', 'POST', '-H', 'X-HTTP-Method-Override: DELETE', `/plants/${id}`]],
    [
      'X_HTTP_Method_Override, as PHP reads X-HTTP-Method-Override',
      (id) => ['-X', 'POST', '-H', 'X_HTTP_Method_Override: DELETE', `/plants/${id}`],
    ],
    ['X-HTTP-Method, lower case', (id) => ['-X', 'POST', '-H', 'X-HTTP-Method: delete', `/plants/${id}`]],
    [
      'X-Method-Override, among others',
      (id) => ['-X', 'PUT', '-H', 'X-Method-Override: PATCH, DELETE', `/plants/${id}`],
    ],
    ['_method in the query', (id) => ['-X', 'POST', `/plants/${id}?a=1&_method=DELETE`]],
    ['_method encoded, in any case', (id) => ['-X', 'POST', `/plants/${id}?%5Fmethod=Delete`]],
    // PHP drops a name's leading spaces, and reads `.` and a space as `_`.
    ['_method after a space', (id) => ['-X', 'POST', `/plants/${id}?%20_method=DELETE`]],
    ['.method in the query', (id) => ['-X', 'GET', `/plants/${id}?.method=DELETE`]],
    ['+method in the query', (id) => ['-X', 'PATCH', `/plants/${id}?+method=%20delete%20`]],
    ['%20method in the query', (id) => ['-X', 'POST', `/plants/${id}?%20method=DELETE`]],
    [
      'a -F field that goes to the query',
      (id) => ['-X', 'POST', '--input', file('body.json', '{}'), '-F', '_method=DELETE', `/plants/${id}`],
    ],
    ['a -F field that goes to the query of a GET', (id) => ['-X', 'GET', '-F', '_method=DELETE', `/plants/${id}`]],
    ['a -f field in the JSON body', (id) => ['-X', 'POST', '-f', '_method=DELETE', `/plants/${id}`]],
    [
      '_method in a JSON body',
      (id) => ['-X', 'POST', '--input', file('body.json', '{"_method":"DELETE"}'), `/plants/${id}`],
    ],
    // JSON body parsers drop a byte order mark and white space.
    [
      '_method in a JSON body after a BOM',
      (id) => ['-X', 'POST', '--input', file('bom.json', '\uFEFF{"name":"x","_method":"DELETE"}'), `/plants/${id}`],
    ],
    [
      '_method in a JSON body after white space, sent as text',
      (id) => [
        '-X',
        'PUT',
        '-H',
        'Content-Type: text/plain',
        '--input',
        file('spaced.json', '\n  {"_method":"DELETE"}'),
        `/plants/${id}`,
      ],
    ],
    [
      '_method in a form body',
      (id) => [
        '-X',
        'POST',
        '-H',
        'Content-Type: application/x-www-form-urlencoded',
        '--input',
        file('form.txt', 'name=x&_method=delete'),
        `/plants/${id}`,
      ],
    ],
    // Rack 2 drops a name's leading bracket.
    [
      '[_method] in a form body',
      (id) => ['-X', 'POST', '--input', file('form.txt', 'name=x&[_method]=DELETE'), `/plants/${id}`],
    ],
    [
      'a form body that starts with {',
      (id) => ['-X', 'POST', '--input', file('form.txt', '{}&_method=DELETE'), `/plants/${id}`],
    ],
    [
      'a _method part of a multipart body',
      (id) => ['-X', 'POST', '-H', MULTIPART_TYPE, '--input', file('multipart.txt', MULTIPART), `/plants/${id}`],
    ],
    // Found in review.
    ['_method after ; in the query', (id) => ['-X', 'POST', `/plants/${id}?a=1;_method=DELETE`]],
    ['_method[] in the query', (id) => ['-X', 'POST', `/plants/${id}?_method[]=DELETE`]],
    ['a value with a NUL after it', (id) => ['-X', 'POST', `/plants/${id}?_method=DELETE%00`]],
    [
      'X-HTTP-Method-Override: DELETE;',
      (id) => ['-X', 'POST', '-H', 'X-HTTP-Method-Override: DELETE;', `/plants/${id}`],
    ],
    [
      '_method twice in a JSON body, DELETE first',
      (id) => ['-X', 'POST', '--input', file('twice.json', '{"_method":"DELETE","_method":"PUT"}'), `/plants/${id}`],
    ],
    [
      '_method in a gzip form body',
      (id) => [
        '-X',
        'POST',
        '-H',
        'Content-Encoding: gzip',
        '-H',
        'Content-Type: application/x-www-form-urlencoded',
        '--input',
        file('form.gz', gzipSync('name=x&_method=DELETE')),
        `/plants/${id}`,
      ],
    ],
    [
      'a multipart part named by name*=',
      (id) => [
        '-X',
        'POST',
        '-H',
        MULTIPART_TYPE,
        '--input',
        file('ext.txt', MULTIPART.replace('name="_method"', "name*=UTF-8''%5Fmethod")),
        `/plants/${id}`,
      ],
    ],
  ])('guards and records another method asking for a DELETE by %s, as a DELETE of the plant', async (_, args) => {
    server = await answering(200, '{}');
    const env = { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN };
    expect((await runCli(['config', 'protect', '--id', '7'], { configDir: dir.path, env })).code).toBe(0);
    const refused = await api(server.url, args('7'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/protected/);
    expect(server.requests).toHaveLength(0);
    // An unprotected plant: sent as written (its method and override), recorded as a DELETE of it.
    const sent = await api(server.url, args('8'));
    expect(sent.code, sent.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.method).toBe(args('8')[1]);
    const records = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(records.map((line) => JSON.parse(line) as { id?: string; result?: string })).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: '8', result: 'deleted' })]),
    );
  });

  it("guards another method asking for a DELETE with the profile's max-deletes, and skips the journal with --no-journal", async () => {
    server = await answering(200, '{}');
    const env = { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN };
    expect((await runCli(['config', 'set', 'max-deletes', '0'], { configDir: dir.path, env })).code).toBe(0);
    const capped = await api(server.url, ['-X', 'POST', '/v2/plants/5?_method=DELETE']);
    expect(capped.code).toBe(2);
    expect(capped.stderr).toMatch(/more than the max-deletes 0/);
    expect(server.requests).toHaveLength(0);
    expect((await runCli(['config', 'unset', 'max-deletes'], { configDir: dir.path, env })).code).toBe(0);
    const unrecorded = await api(server.url, ['-X', 'POST', '/plants/5?_method=DELETE', '--no-journal']);
    expect(unrecorded.code).toBe(0);
    expect(existsSync(join(dir.path, 'state', 'deletions.jsonl'))).toBe(false);
  });

  it('exits 3 for a 404 with the Error object to another method asking for a DELETE, as for a DELETE, on record as not_found', async () => {
    server = await answering(404, '{"error":404,"message":"plant 9 not found"}');
    const r = await api(server.url, ['-X', 'POST', '-H', 'X-HTTP-Method-Override: DELETE', '/plants/9']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('{"error":404,"message":"plant 9 not found"}');
    const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toMatch(/"id":"9".*"result":"not_found"/);
  });

  it('neither refuses nor records a POST, PUT, PATCH or GET that asks for no DELETE, of a protected plant', async () => {
    server = await answering(200, '{}');
    const env = { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN };
    expect((await runCli(['config', 'protect', '--id', '7'], { configDir: dir.path, env })).code).toBe(0);
    for (const method of ['POST', 'PUT', 'PATCH', 'GET']) {
      const r = await api(server.url, ['-X', method, '/plants/7?_method=PATCH']);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(server.requests).toHaveLength(4);
    expect(existsSync(join(dir.path, 'state', 'deletions.jsonl'))).toBe(false);
  });

  it('sends another override, an override on a DELETE, another header naming DELETE, and a multipart part of another name as written', async () => {
    server = await answering(200, '{}');
    expect((await api(server.url, ['-X', 'POST', '-H', 'X-HTTP-Method-Override: PATCH', '/plants/7'])).code).toBe(0);
    expect((await api(server.url, ['-X', 'POST', '-H', 'X_Note: DELETE', '/plants/9'])).code).toBe(0);
    expect((await api(server.url, ['-X', 'DELETE', '-H', 'X-HTTP-Method-Override: DELETE', '/plants/8'])).code).toBe(0);
    const other = file('multipart.txt', MULTIPART.replace('name="_method"', 'name="note"'));
    expect((await api(server.url, ['-X', 'POST', '-H', MULTIPART_TYPE, '--input', other, '/plants/7'])).code).toBe(0);
    expect(server.requests.map((request) => request.method)).toEqual(['POST', 'POST', 'DELETE', 'POST']);
  });

  it('refuses a DELETE of the whole collection when the profile has protections, unless --include-protected', async () => {
    server = await answering(204, '');
    const env = { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN };
    expect((await runCli(['config', 'protect', '--tag', 'keep'], { configDir: dir.path, env })).code).toBe(0);
    for (const path of ['/plants', '/plants?tag=x', '/plants/']) {
      const r = await api(server.url, ['-X', 'DELETE', path]);
      expect(r.code, path).toBe(2);
      expect(r.stderr).toMatch(/cannot be checked for the whole collection/);
    }
    expect(server.requests).toHaveLength(0);
    expect((await api(server.url, ['-X', 'DELETE', '/plants', '--include-protected'])).code).toBe(0);
  });

  it('never follows a redirect of a DELETE (the guard checked the path given)', async () => {
    server = await rawServer((req, res) => {
      if (req.url === '/plants/1') res.writeHead(307, { location: '/plants/7' }).end();
      else res.writeHead(204).end();
    });
    const r = await api(server.url, ['-X', 'DELETE', '/plants/1']);
    expect(r.code).toBe(1);
    expect(server.requests.map((request) => request.path)).toEqual(['/plants/1']);
    expect(r.stderr).toMatch(/not followed/);
  });

  it("prints a failed DELETE's body as received, UTF-8 intact, and reads it once", async () => {
    server = await answering(400, '{"error":400,"message":"café ✓"}');
    const r = await api(server.url, ['-X', 'DELETE', '/plants/1']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('{"error":400,"message":"café ✓"}');
    expect(r.stderr).toMatch(/café ✓/);
    const small = await api(server.url, ['--max-response-size', '10', '-X', 'DELETE', '/plants/1']);
    expect(small.stderr).toMatch(/more than --max-response-size/);
  });

  it('says a DELETE answered 2xx was made when its body cannot be read (too large, compressed)', async () => {
    server = await rawServer((req, res) => {
      if (req.url === '/plants/1') res.writeHead(200, { 'content-encoding': 'gzip' }).end('xx');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(`[${'1,'.repeat(1000)}1]`);
    });
    const r = await api(server.url, ['-X', 'DELETE', '/plants/1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /gzip-encoded.*; the DELETE was sent \(1 deleted\): plants history [0-9a-f-]{36} lists it$/m,
    );
    const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toMatch(/"result":"deleted","status":200/);
    const big = await api(server.url, ['-X', 'DELETE', '/plants/2', '--no-journal', '--max-response-size', '1K']);
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(
      /more than --max-response-size.*; the DELETE was sent \(1 deleted\): no journal was kept$/m,
    );
  });

  it("keeps a compressed error response's status and exit code, its body not shown, as every command does", async () => {
    server = await rawServer((req, res) => {
      const status = Number(req.url!.split('/').pop());
      res.writeHead(status, { 'content-encoding': 'gzip', 'content-type': 'application/json' }).end('xx');
    });
    for (const [status, code, errorCode] of [
      [401, 4, 'auth'],
      [403, 4, 'auth'],
      [410, 3, 'not_found'],
      [500, 1, 'http_error'],
    ] as const) {
      const r = await api(server.url, [`/plants/${status}`, '--json', '--retries', '0']);
      expect(r.code, r.stderr).toBe(code);
      expect(r.stdout).toBe('');
      expect(lastJsonLine(r.stderr).error).toMatchObject({ code: errorCode, status });
      expect(r.stderr).toMatch(/the error body is gzip-encoded, .*; not shown/);
    }
    // A DELETE's outcome too: a compressed 410 is not_found, as delete records it, not failed.
    const gone = await api(server.url, ['-X', 'DELETE', '/plants/410']);
    expect(gone.code).toBe(3);
    const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toMatch(/"result":"not_found","status":410,"attempts":1/);
  });

  it('says first that an outcome is not on record, and that the body could not be read too (exit 2)', async () => {
    const fifo = join(dir.path, 'journal.fifo');
    runCommand('mkfifo', [fifo]);
    // The journal's reader takes the run's start and the DELETE's intent, then goes away: the outcome's write fails.
    let gone!: () => void;
    const readerGone = new Promise<void>((resolve) => (gone = resolve));
    let seen = '';
    const reader = createReadStream(fifo, 'utf8').on('data', (chunk) => {
      seen += chunk as string;
      if (seen.includes('"event":"intent"')) {
        reader.destroy();
        gone();
      }
    });
    server = await rawServer((_req, res) => {
      void readerGone.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(5000)));
    });
    const args = ['-X', 'DELETE', '/plants/7', '--no-journal', '--journal-file', fifo, '--max-response-size', '1K'];
    const r = await api(server.url, args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^plants: cannot write the deletion journal .*: broken pipe \(EPIPE\); .*the DELETE was answered 200, but its outcome is not on record .*; and its body could not be read: .*larger than/,
    );
  });

  it('records start, then intent, then outcome for a DELETE, the intent before the request left', async () => {
    let recordsWhenAsked = '';
    server = await rawServer((_req, res) => {
      recordsWhenAsked = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8');
      res.writeHead(204).end();
    });
    expect((await api(server.url, ['-X', 'DELETE', '/plants/7'])).code).toBe(0);
    const events = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events(recordsWhenAsked)).toEqual(['start', 'intent']);
    expect(events(readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8'))).toEqual([
      'start',
      'intent',
      'outcome',
    ]);
  });

  it('never sends a POST again after the connection dropped once it was sent', async () => {
    server = await rawServer((req) => {
      req.socket.destroy();
    });
    const r = await api(server.url, ['-X', 'POST', '/plants', '-F', 'name=x'], { env: { PLANTS_RETRIES: '2' } });
    expect(r.code).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps -F and -f in the order given, and takes __proto__ as a key like any other', async () => {
    server = await answering(201, '{}');
    expect((await api(server.url, ['/plants', '-f', 'a=1', '-F', 'b=2', '-F', '__proto__=1', '-f', 'c=x'])).code).toBe(
      0,
    );
    expect(server.requests[0]!.body.toString()).toBe('{"a":"1","b":2,"__proto__":1,"c":"x"}');
  });

  it('refuses header values it cannot send and an empty request id, before anything is recorded or sent', async () => {
    server = await answering(204, '');
    for (const header of ['X-Name: caf✓', 'X-Request-Id:', 'X-Request-Id: ✓']) {
      const r = await api(server.url, ['-X', 'DELETE', '/plants/1', '-H', header]);
      expect(r.code, header).toBe(2);
    }
    expect(server.requests).toHaveLength(0);
    expect(() => readFileSync(join(dir.path, 'state', 'deletions.jsonl'))).toThrow();
  });

  it('refuses to read stdin twice, and stdin that is a terminal', async () => {
    server = await answering(201, '{}');
    const twice = await api(server.url, ['/plants', '--input', '-', '-F', 'a=@-'], { input: '{}' });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/stdin can be read once/);
    const tty = await api(server.url, ['/plants', '--input', '-'], { tty: true });
    expect(tty.code).toBe(2);
    expect(tty.stdout + tty.stderr).toMatch(/stdin is a terminal/);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ['--input', (fifo: string) => ['--input', fifo]],
    ['-F key=@', (fifo: string) => ['-F', `name=@${fifo}`]],
  ])('%s a pipe whose writer takes its time: Ctrl-C stops the wait at once, sending nothing', async (_, input) => {
    server = await answering(201, '{}');
    const fifo = join(dir.path, 'body.fifo');
    runCommand('mkfifo', [fifo]);
    // A writer that holds the pipe open and writes nothing yet (a slow command behind <(…));
    // its open returns once plants has opened the other end.
    const writer = spawn('sh', ['-c', 'exec 3>"$1"; echo opened; exec sleep 60', 'sh', fifo], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let opened = '';
    writer.stdout.setEncoding('utf8').on('data', (chunk: string) => (opened += chunk));
    const run = spawnCli(['api', '-X', 'POST', '/plants', ...input(fifo)], {
      configDir: dir.path,
      env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN },
    });
    try {
      await waitFor(() => opened.includes('opened'), 'plants to open the pipe');
      run.child.kill('SIGINT');
      // Blocked in a read of the thread pool, it would end only once the writer is done.
      const code = await Promise.race([
        run.exit,
        new Promise((resolve) => setTimeout(() => resolve('still running 5 s after Ctrl-C'), 5000)),
      ]);
      expect(code).toBe(130);
      expect(run.out.stderr).toBe('plants: interrupted\n');
      expect(server.requests).toHaveLength(0);
    } finally {
      run.child.kill('SIGKILL');
      writer.kill('SIGKILL');
    }
  });

  it('reads --input from a pipe to its end, and refuses a device, which has none', async () => {
    server = await answering(201, '{}');
    const fifo = join(dir.path, 'body.fifo');
    runCommand('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'printf \'{"name":"Piped"}\' > "$1"', 'sh', fifo], { stdio: 'ignore' });
    const piped = await api(server.url, ['-X', 'POST', '/plants', '--input', fifo]);
    writer.kill();
    expect(piped.code).toBe(0);
    expect(server.requests[0]!.body.toString()).toBe('{"name":"Piped"}');
    for (const args of [
      ['--input', '/dev/zero'],
      ['-F', 'name=@/dev/zero'],
    ]) {
      const device = await api(server.url, ['-X', 'POST', '/plants', ...args]);
      expect(device.code, args.join(' ')).toBe(2);
      expect(device.stderr).toBe('plants: cannot read "/dev/zero": a device, not a file or a pipe\n');
    }
    expect(server.requests).toHaveLength(1);
  });

  it('lets the DELETE in flight finish at Ctrl-C, records its outcome, and ends as interrupted', async () => {
    let answer: (() => void) | undefined;
    server = await rawServer((_req, res) => {
      answer = () => res.writeHead(204).end();
    });
    const run = spawnCli(['api', '-X', 'DELETE', '/plants/7'], {
      configDir: dir.path,
      env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN, PLANTS_STATE_DIR: join(dir.path, 'state') },
    });
    await waitFor(() => answer !== undefined, 'the DELETE to arrive');
    run.child.kill('SIGINT');
    await waitFor(() => run.out.stderr.includes('Stopping'), 'the stop to be acknowledged');
    answer!();
    expect(await run.exit).toBe(130);
    expect(readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8')).toMatch(/"result":"deleted"/);
  });
});

describe('plants api: large bodies stream through', () => {
  /** NODE_OPTIONS that make the run print its peak memory as stderr's last line (report-rss.cjs). */
  const REPORT_RSS = { NODE_OPTIONS: `--require ${join(ROOT, 'test', 'helpers', 'report-rss.cjs')}` };
  const peakMiB = (stderr: string) => Number(/maxrss=(\d+)\n$/.exec(stderr)![1]) / 1024;
  const MiB = 1024 * 1024;

  /** A server that sends `size` bytes of `piece` over and over, in writes of 64 KiB, waiting for the reader. */
  const sending = (size: number, piece: Buffer, type = 'application/json') =>
    rawServer((_req, res) => {
      const chunk = Buffer.alloc(64 * 1024, piece);
      res.writeHead(200, { 'content-type': type, 'content-length': String(size) });
      let sent = 0;
      const pump = () => {
        while (sent < size) {
          const next = chunk.subarray(0, Math.min(chunk.length, size - sent));
          sent += next.length;
          if (!res.write(next)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });

  it('passes a response many times larger than its memory through to a pipe', async () => {
    const size = 320 * MiB;
    server = await sending(size, Buffer.from('{"id":1,"name":"Fern"},'));
    const out = join(dir.path, 'out.json');
    const r = await runCli(['--max-response-size', '1G', 'api', '/plants'], {
      configDir: dir.path,
      env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN, ...REPORT_RSS },
      stdoutTo: out,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(out).size).toBe(size);
    // Held whole, the body alone would take 320 MiB (and its text as much again).
    expect(peakMiB(r.stderr)).toBeLessThan(256);
  });

  it('sends a large --input file from the disk, its Content-Length set, without holding it', async () => {
    const size = 320 * MiB;
    const input = join(dir.path, 'big.bin');
    truncateSync((writeFileSync(input, 'head'), input), size);
    let received = 0;
    const headers: Record<string, string | string[] | undefined>[] = [];
    const listening = await listenOnLoopback(
      createServer((req, res) => {
        headers.push(req.headers);
        req.on('data', (chunk: Buffer) => (received += chunk.length));
        req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{}'));
      }),
    );
    try {
      const r = await runCli(
        ['api', '-X', 'PUT', '-H', 'Content-Type: application/octet-stream', '/uploads/1', '--input', input],
        { configDir: dir.path, env: { PLANTS_BASE_URL: listening.url, PLANTS_TOKEN: TOKEN, ...REPORT_RSS } },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(received).toBe(size);
      expect(headers[0]!['content-length']).toBe(String(size));
      expect(peakMiB(r.stderr)).toBeLessThan(256);
    } finally {
      await listening.close();
    }
  });

  it('sends a body too large to read whose "method" names no parameter (payment_method, methodology)', async () => {
    server = await answering(200, '{}');
    const input = join(dir.path, 'export.json');
    const row = '{"payment_method":"card","note":"the method is sound","methodology":"x"},';
    writeFileSync(input, `[${row.repeat(Math.ceil((17 * MiB) / row.length))}{}]`);
    const r = await api(server.url, ['-X', 'POST', '/exports', '--input', input]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a body too large to read for a method override that holds the word, sending nothing', async () => {
    server = await answering(200, '{}');
    const input = join(dir.path, 'form.txt');
    writeFileSync(input, `${'name=Fern&'.repeat(2 * MiB)}%5F%6Dethod=DELETE`);
    const r = await api(server.url, ['-X', 'POST', '/plants/7', '--input', input]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /refusing a body of \d+ bytes that may name a method parameter \(such as _method\): it is too large/,
    );
    // From stdin too, the word in UTF-16.
    const piped = await api(server.url, ['-X', 'PUT', '/plants/7', '--input', '-'], {
      input: `${'name=Fern&'.repeat(2 * MiB)}m\u0000e\u0000t\u0000h\u0000o\u0000d\u0000=DELETE`,
    });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/refusing a body of \d+ bytes that may name a method parameter/);
    expect(server.requests).toHaveLength(0);
    // The same body as a DELETE is one already: sent, guarded and recorded as such.
    expect((await api(server.url, ['-X', 'DELETE', '/plants/7', '--input', input])).code).toBe(0);
    expect(server.requests.map((request) => request.method)).toEqual(['DELETE']);
  });

  /**
   * About `size` characters, the token every 100 or so: however the
   * connection cuts the body into chunks, some cut a token.
   */
  const withTokens = (size: number) => `${'plant;'.repeat(13)}${TOKEN}`.repeat(Math.ceil(size / (78 + TOKEN.length)));
  const masked = (text: string) => text.replaceAll(TOKEN, '***');

  it('masks the token wherever the body cuts it, in a pipe and on a terminal', async () => {
    const text = withTokens(6 * MiB);
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      // Writes of odd sizes, so that chunks end inside the token.
      for (let at = 0; at < text.length; at += 40_009) res.write(text.slice(at, at + 40_009));
      res.end();
    });
    // runCli fails the run if the token shows in what it printed.
    const piped = await api(server.url, ['/big']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(masked(text));
    const shown = await api(server.url, ['/big'], { tty: true });
    expect(shown.code).toBe(0);
    expect(shown.stdout.replaceAll('\r\n', '\n')).toBe(`${masked(text)}\n`);
  });

  it.each<[string, string, (text: string) => Buffer]>([
    ['UTF-16LE after its byte order mark', 'text/plain', (text) => Buffer.from(`\uFEFF${text}`, 'utf16le')],
    ['UTF-16BE after its byte order mark', 'text/plain', (text) => Buffer.from(`\uFEFF${text}`, 'utf16le').swap16()],
    ['declared UTF-16LE', 'text/plain; charset=utf-16le', (text) => Buffer.from(text, 'utf16le')],
    ['declared UTF-16BE', 'application/json; charset=UTF-16BE', (text) => Buffer.from(text, 'utf16le').swap16()],
    ['declared utf-16', 'text/plain; charset="utf-16"', (text) => Buffer.from(text, 'utf16le')],
    ['UTF-16LE undeclared', 'application/json', (text) => Buffer.from(text, 'utf16le')],
  ])('masks the token in a body in %s, passed on in its encoding', async (_, type, encode) => {
    const text = withTokens(3 * MiB);
    const body = encode(text);
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': type });
      for (let at = 0; at < body.length; at += 40_009) res.write(body.subarray(at, at + 40_009));
      res.end();
    });
    const out = join(dir.path, 'out.bin');
    const r = await runCli(['api', '/big'], {
      configDir: dir.path,
      env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN },
      stdoutTo: out,
    });
    expect(r.code, r.stderr).toBe(0);
    const written = readFileSync(out);
    expect(written.includes(Buffer.from(TOKEN, 'utf16le'))).toBe(false);
    expect(written.includes(Buffer.from(TOKEN, 'utf16le').swap16())).toBe(false);
    expect(written.equals(encode(masked(text)))).toBe(true);
  });

  it('shows a UTF-16 body on a terminal as its text, the token masked', async () => {
    server = await answering(200, Buffer.from(`\uFEFF{"echo":"Bearer ${TOKEN}"}`, 'utf16le'));
    const r = await api(server.url, ['/echo'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout.replaceAll('\r\n', '\n')).toBe('{\n  "echo": "Bearer ***"\n}\n');
  });
});
