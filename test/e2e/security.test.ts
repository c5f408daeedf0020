import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLANTS_BIN, runCli } from '../helpers/cli.js';
import { againstStore } from '../helpers/against-store.js';
import { rawServer, TOKEN } from '../helpers/servers.js';

const setup = againstStore({ seed: 3 }, { perTest: true });
const { plants } = setup;

describe('--debug', () => {
  it('logs each request and response with timing and headers, the token masked', async () => {
    const r = await plants(['list', '--limit', '1', '--debug']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1\tMonstera deliciosa\ttropical\n');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`plants: debug: → GET ${setup.store.url}/plants?limit=1`);
    expect(lines).toContain('plants: debug:   authorization: Bearer ***');
    expect(lines).toContain('plants: debug:   accept: application/json');
    expect(r.stderr).toMatch(/plants: debug: ← 200 OK in \d+ ms\n/);
    expect(r.stderr).toMatch(/plants: debug: {3}content-type: application\/json; charset=utf-8\n/);
  });

  it('PLANTS_DEBUG=1 does the same, and retries show in the log', async () => {
    let n = 0;
    const flaky = await rawServer((_req, res) => {
      n += 1;
      if (n === 1) res.writeHead(503, { 'retry-after': '0' }).end();
      else res.writeHead(200).end('[]');
    });
    try {
      const r = await plants(['list'], { env: { PLANTS_DEBUG: '1', PLANTS_BASE_URL: flaky.url, PLANTS_RETRIES: '1' } });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/plants: debug: ← 503 Service Unavailable in \d+ ms\n/);
      expect(r.stderr).toMatch(/plants: debug: retrying in 0 ms after 503 Service Unavailable \(attempt 2 of 2\)\n/);
      expect(r.stderr).toMatch(/plants: debug: → GET http:\/\/127\.0\.0\.1:\d+\/plants \(attempt 2\)\n/);
      expect(r.stderr).toMatch(/plants: debug: ← 200 OK in \d+ ms\n/);
    } finally {
      await flaky.close();
    }
  });
});

describe('the token never appears in output', () => {
  // runCli fails a test whenever TOKEN shows up in stdout or stderr; this
  // walks every command and error path, with debug logging on.
  const cases: [string, string[], Record<string, string | undefined>, string | undefined][] = [
    ['list', ['list'], {}, undefined],
    ['list --json', ['list', '--json'], {}, undefined],
    ['list -o csv', ['list', '-o', 'csv', '--columns', 'id,name'], {}, undefined],
    ['list, refused token', ['list'], { PLANTS_TOKEN: `${TOKEN}x` }, undefined],
    ['list, nothing listening', ['list'], { PLANTS_BASE_URL: 'http://127.0.0.1:9' }, undefined],
    ['list, bad limit', ['list', '--limit', '-1'], {}, undefined],
    ['delete', ['delete', '1', '--yes', '--json'], {}, undefined],
    ['delete, missing', ['delete', '99', '--yes'], {}, undefined],
    ['delete, no --yes', ['delete', '2'], {}, undefined],
    ['delete --stdin', ['delete', '--stdin', '--yes'], {}, '2 3'],
    ['delete --dry-run', ['delete', '1', '--dry-run', '--json'], {}, undefined],
    ['prune', ['prune', '--all', '--yes', '--json'], {}, undefined],
    ['prune, no filter', ['prune', '--yes'], {}, undefined],
    ['config list', ['config', 'list'], {}, undefined],
    ['config get token', ['config', 'get', 'token'], {}, undefined],
    ['auth login', ['auth', 'login', '--with-token'], { PLANTS_TOKEN: undefined }, TOKEN],
    ['auth status', ['auth', 'status'], {}, undefined],
    ['auth status, refused', ['auth', 'status'], { PLANTS_TOKEN: `x${TOKEN}` }, undefined],
    ['auth logout', ['auth', 'logout'], {}, undefined],
    ['help', ['--help'], {}, undefined],
  ];

  it.each(cases)('%s, with --debug', async (_name, args, env, input) => {
    const r = await plants(['--debug', ...args], { env, input });
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('not even when the token is invalid and rejected before any request', async () => {
    const bad = `${TOKEN} with spaces`;
    const r = await plants(['list', '--debug'], { env: { PLANTS_TOKEN: bad } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'plants: the token from PLANTS_TOKEN contains whitespace, control or non-ASCII characters; correct the PLANTS_TOKEN variable\n',
    );
    expect(setup.store.requests).toEqual([]);
  });

  it.each([
    ['a control character', `${TOKEN}\u0007`],
    ['non-ASCII', `${TOKEN}é`],
  ])('a token with %s is rejected (exit 2) before any request', async (_what, bad) => {
    const r = await plants(['list'], { env: { PLANTS_TOKEN: bad } });
    expect(r.code).toBe(2);
    expect(setup.store.requests).toEqual([]);
  });
});

describe('the config file', () => {
  it('warns when the file or directory is open to others, and still works', async () => {
    const open = join(setup.dir.path, 'open');
    mkdirSync(open, { mode: 0o755 });
    chmodSync(open, 0o755);
    const origin = new URL(setup.store.url).origin;
    const config = { profiles: { default: { 'base-url': setup.store.url, token: TOKEN, 'token-origin': origin } } };
    writeFileSync(join(open, 'config.json'), JSON.stringify(config), { mode: 0o644 });
    chmodSync(join(open, 'config.json'), 0o644);
    const r = await runCli(['list', '--limit', '1'], { configDir: open });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `plants: warning: the config holds the token, but ${open} has mode 0755; run chmod 700 ${open}\n` +
        `plants: warning: the config holds the token, but ${open}/config.json has mode 0644; run chmod 600 ${open}/config.json\n`,
    );
  });

  it('is neither corrupted nor loses a change when runs write it at the same time', async () => {
    const runs = Array.from(
      { length: 12 },
      (_, i) =>
        new Promise<number | null>((resolve) => {
          const args =
            i % 2 === 0
              ? ['config', 'set', 'base-url', `http://127.0.0.1:${1000 + i}`]
              : ['auth', 'login', '--with-token', '--no-verify', '--insecure-storage'];
          const child = spawn(process.execPath, [PLANTS_BIN, ...args], {
            // A login binds the token to a base URL's origin: one from the environment, whatever the file holds then.
            env: { PATH: process.env.PATH, PLANTS_CONFIG_DIR: setup.dir.path, PLANTS_BASE_URL: 'http://127.0.0.1:999' },
          });
          child.stdin.end(`token-${i}`);
          child.on('close', resolve);
        }),
    );
    expect(await Promise.all(runs)).toEqual(Array(12).fill(0));
    const saved = JSON.parse(readFileSync(join(setup.dir.path, 'config.json'), 'utf8')) as {
      profiles: { default: Record<string, string> };
    };
    expect(Object.keys(saved)).toEqual(['profiles']);
    expect(saved.profiles.default.token).toMatch(/^token-\d+$/);
    expect(saved.profiles.default['base-url']).toMatch(/^http:\/\/127\.0\.0\.1:10\d\d$/);
  });

  it('a corrupted file is never wiped: exit 2 with its path', async () => {
    writeFileSync(join(setup.dir.path, 'config.json'), '{"token": "abc",,}');
    const r = await plants(['auth', 'login', '--with-token'], {
      input: 'new-token-123',
      env: { PLANTS_TOKEN: undefined },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`cannot read the config file ${join(setup.dir.path, 'config.json')}: it is not valid JSON`),
    );
    expect(readFileSync(join(setup.dir.path, 'config.json'), 'utf8')).toBe('{"token": "abc",,}');
  });
});
