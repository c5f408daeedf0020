import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';

// A token goes only to its own origin: two servers on two ports are two
// origins, and what each received is checked on its side.

let a: RawServer;
let b: RawServer;
let dir: ReturnType<typeof tempDir>;

const answer = () =>
  rawServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });

beforeAll(async () => {
  [a, b] = await Promise.all([answer(), answer()]);
});
afterAll(() => Promise.all([a.close(), b.close()]));
beforeEach(() => {
  dir = tempDir();
  a.requests.length = 0;
  b.requests.length = 0;
});
afterEach(() => dir.remove());

const plants = (args: string[], env: Record<string, string | undefined> = {}, input?: string) =>
  runCli(args, { configDir: dir.path, env, input });
const configFile = () => join(dir.path, 'config.json');
const saved = (config: object) => writeFileSync(configFile(), JSON.stringify(config), { mode: 0o600 });
const stored = (): unknown => JSON.parse(readFileSync(configFile(), 'utf8'));
const origin = (server: RawServer) => new URL(server.url).origin;

/** Profile default, its base URL server A, logged in there (the token kept in the config file). */
async function loggedInForA(): Promise<void> {
  expect((await plants(['config', 'set', 'base-url', a.url])).code).toBe(0);
  const login = await plants(['auth', 'login', '--with-token', '--no-verify'], {}, TOKEN);
  expect(login.code).toBe(0);
  expect(stored()).toEqual({ profiles: { default: { 'base-url': a.url, token: TOKEN, 'token-origin': origin(a) } } });
}

describe('a token stored for server A', () => {
  it.each([
    ['--base-url', (url: string) => [['--base-url', url], {}] as const],
    ['PLANTS_BASE_URL', (url: string) => [[], { PLANTS_BASE_URL: url }] as const],
  ])('is not sent to server B named by %s: exit 4, and B receives nothing', async (source, given) => {
    await loggedInForA();
    const [flags, env] = given(b.url);
    const r = await plants([...flags, 'list'], env);
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      `plants: the token of profile default (kept in the config file) is for ${origin(a)}, not for ${origin(b)}, ` +
        `the origin of the base URL in effect (from ${source}); a token is never sent to another origin: ` +
        `to log in for ${origin(b)}, give it a profile of its own ('plants --profile <name> config set base-url ${b.url}', ` +
        "then 'plants --profile <name> auth login'), or set PLANTS_TOKEN to a token for it\n",
    );
    expect(b.requests).toEqual([]);
    // PLANTS_TOKEN, given explicitly, is the one way to send a token there.
    const explicit = await plants([...flags, 'list'], { ...env, PLANTS_TOKEN: 'explicit-b-token' });
    expect(explicit.code).toBe(0);
    expect(b.requests.map((request) => request.headers.authorization)).toEqual(['Bearer explicit-b-token']);
    // And server A still gets it.
    expect((await plants(['list'])).code).toBe(0);
    expect(a.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
  });

  it('a token command stored for A is not even run for B', async () => {
    const ran = join(dir.path, 'ran');
    expect((await plants(['config', 'set', 'base-url', a.url])).code).toBe(0);
    const command = `touch '${ran}'; echo ${TOKEN}`;
    expect((await plants(['auth', 'login', '--token-command', command, '--no-verify'])).code).toBe(0);
    expect(stored()).toEqual({
      profiles: { default: { 'base-url': a.url, 'token-command': command, 'token-origin': origin(a) } },
    });
    // Login ran it once, to read the token.
    rmSync(ran);
    const r = await plants(['--base-url', b.url, 'list']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^plants: the token of profile default \(printed by its token command\) is for /);
    expect(existsSync(ran)).toBe(false);
    expect(b.requests).toEqual([]);
    expect((await plants(['list'])).code).toBe(0);
    expect(existsSync(ran)).toBe(true);
    expect(a.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
  });

  it('stored before tokens were bound, it is bound to its base URL origin when first read', async () => {
    saved({ profiles: { default: { 'base-url': a.url, token: TOKEN } } });
    const r = await plants(['--base-url', b.url, 'list']);
    expect(r.code).toBe(4);
    expect(b.requests).toEqual([]);
    expect(stored()).toEqual({ profiles: { default: { 'base-url': a.url, token: TOKEN, 'token-origin': origin(a) } } });
    expect((await plants(['list'])).code).toBe(0);
    expect(a.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
  });

  it('stored before tokens were bound, in a profile without a base URL: never sent', async () => {
    saved({ profiles: { default: { token: TOKEN } } });
    const r = await plants(['--base-url', b.url, 'list']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^plants: the token of profile default is bound to no origin: .*or set PLANTS_TOKEN\n$/);
    expect(b.requests).toEqual([]);
  });
});

describe('PLANTS_KEYRING=on', () => {
  it('auth login with no keyring reachable (no D-Bus session bus) refuses with exit 4, keeping nothing', async () => {
    expect((await plants(['config', 'set', 'base-url', a.url])).code).toBe(0);
    const r = await plants(['auth', 'login', '--with-token', '--no-verify'], { PLANTS_KEYRING: 'on' }, TOKEN);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /^plants: PLANTS_KEYRING=on keeps the token in the OS keyring or nowhere, and no OS keyring can be used \(no D-Bus session bus.*\); nothing was stored; /,
    );
    expect(stored()).toEqual({ profiles: { default: { 'base-url': a.url } } });
    // Unset, the config file is the fallback, with a warning.
    const fallback = await plants(
      ['auth', 'login', '--with-token', '--no-verify'],
      { PLANTS_KEYRING: undefined },
      TOKEN,
    );
    expect(fallback.code).toBe(0);
    expect(fallback.stderr).toMatch(/^plants: warning: no OS keyring can be used \(no D-Bus session bus/);
    expect(stored()).toEqual({ profiles: { default: { 'base-url': a.url, token: TOKEN, 'token-origin': origin(a) } } });
  });
});
