import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, type SavedConfig } from '../helpers/cli.js';
import { plantStore, TOKEN } from '../helpers/servers.js';

type Store = Awaited<ReturnType<typeof plantStore>>;
let store: Store;
let dir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  store = await plantStore({ seed: 2 });
});
afterAll(() => store.close());
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const plants = (args: string[], options: { env?: Record<string, string | undefined>; input?: string } = {}) =>
  runCli(args, { configDir: dir.path, ...options });
const configFile = () => join(dir.path, 'config.json');
/** A base URL from the environment, for a login that does not check the token (--no-verify): a token is bound to one. */
const elsewhere = { PLANTS_BASE_URL: 'https://plants.example.com' };

describe('plants config', () => {
  it('sets, gets, lists and unsets the base URL', async () => {
    expect((await plants(['config', 'set', 'base-url', `${store.url}/`])).code).toBe(0);
    const got = await plants(['config', 'get', 'base-url']);
    expect(got.stdout).toBe(`${store.url}\n`);
    const list = await plants(['config', 'list']);
    expect(list.stdout).toBe(`profile=default\nbase-url=${store.url}\ntoken=(not set)\nmax-deletes=(not set)\n`);
    expect((await plants(['config', 'unset', 'base-url'])).code).toBe(0);
    const missing = await plants(['config', 'get', 'base-url']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('plants: base-url is not set for profile default\n');
  });

  it('keeps a path prefix', async () => {
    await plants(['config', 'set', 'base-url', 'https://plants.example.com/api/']);
    expect((await plants(['config', 'get', 'base-url'])).stdout).toBe('https://plants.example.com/api\n');
  });

  it.each([
    ['not-a-url', /^plants: invalid base URL "not-a-url": expected an absolute URL/],
    ['ftp://x.example.com', /scheme must be http or https/],
  ])('refuses base-url %s with exit 2 and stores nothing', async (value, message) => {
    const r = await plants(['config', 'set', 'base-url', value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect((await plants(['config', 'get', 'base-url'])).code).toBe(1);
  });

  it('refuses unknown keys and points the token to auth commands', async () => {
    const unknown = await plants(['config', 'set', 'colour', 'red']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('plants: unknown config key "colour"; known keys: base-url, max-deletes\n');
    for (const verb of ['get', 'set', 'unset']) {
      const token = await plants(['config', verb, 'token', ...(verb === 'set' ? ['x'] : [])]);
      expect(token.code).toBe(2);
      expect(token.stderr).toBe(
        "plants: the token is not a config key: store it with 'plants auth login', remove it with 'plants auth logout', check it with 'plants auth status'\n",
      );
    }
  });

  it('prints the config path from PLANTS_CONFIG_DIR', async () => {
    expect((await plants(['config', 'path'])).stdout).toBe(`${configFile()}\n`);
  });

  it('explains a corrupted config file and leaves it alone', async () => {
    writeFileSync(configFile(), '{ not json');
    const r = await plants(['config', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `plants: cannot read the config file ${configFile()}: it is not valid JSON; fix it, or remove it and configure again\n`,
    );
    expect(readFileSync(configFile(), 'utf8')).toBe('{ not json');
  });

  it('config list never shows the token', async () => {
    await plants(['auth', 'login', '--with-token', '--no-verify'], { input: TOKEN, env: elsewhere });
    const r = await plants(['config', 'list']);
    expect(r.stdout).toBe('profile=default\nbase-url=(not set)\ntoken=(set)\nmax-deletes=(not set)\n');
  });
});

describe('plants auth', () => {
  it('login --with-token trims the input and stores it 0600; the CLI then works', async () => {
    await plants(['config', 'set', 'base-url', store.url]);
    const login = await plants(['auth', 'login', '--with-token'], { input: `  ${TOKEN}\n` });
    expect(login.code).toBe(0);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect((JSON.parse(readFileSync(configFile(), 'utf8')) as SavedConfig).profiles.default.token).toBe(TOKEN);
    const list = await plants(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')).toHaveLength(3);
  });

  it('creates a missing config directory 0700', async () => {
    const nested = join(dir.path, 'new', 'plants');
    const r = await runCli(['auth', 'login', '--with-token', '--no-verify'], {
      configDir: nested,
      input: TOKEN,
      env: elsewhere,
    });
    expect(r.code).toBe(0);
    expect(statSync(nested).mode & 0o777).toBe(0o700);
    expect(statSync(join(nested, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('login without a terminal and without --with-token exits 2 and says what to do', async () => {
    const r = await plants(['auth', 'login'], { input: TOKEN });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pass --with-token/);
  });

  it('login --with-token with empty input stores nothing', async () => {
    const r = await plants(['auth', 'login', '--with-token', '--no-verify'], { input: '\n', env: elsewhere });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('plants: no token was given; nothing was stored\n');
  });

  it('has no flag that takes the token itself', async () => {
    const r = await plants(['auth', 'login', '--token', TOKEN]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--token'/);
  });

  it('logout removes the stored token', async () => {
    await plants(['auth', 'login', '--with-token', '--no-verify'], { input: TOKEN, env: elsewhere });
    expect((await plants(['auth', 'logout'])).code).toBe(0);
    expect((JSON.parse(readFileSync(configFile(), 'utf8')) as SavedConfig).profiles.default.token).toBeUndefined();
    const again = await plants(['auth', 'logout']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/No token is stored/);
  });

  it('status shows sources and checks the token with GET /plants?limit=1', async () => {
    await plants(['config', 'set', 'base-url', store.url]);
    await plants(['auth', 'login', '--with-token'], { input: TOKEN });
    store.requests.length = 0;
    const r = await plants(['auth', 'status']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'Profile:  default',
        `Base URL: ${store.url} (from config file ${configFile()}, profile default)`,
        `Token:    set (from config file ${configFile()}, profile default)`,
        'Store:    file',
        `Bound to: ${new URL(store.url).origin}`,
        'Check:    the service accepted the token (GET /plants?limit=1)',
        '',
      ].join('\n'),
    );
    expect(store.requests).toEqual([{ method: 'GET', path: '/plants?limit=1', status: 200 }]);
  });

  it('status names the environment as the source and exits 4 on a refused token', async () => {
    const r = await plants(['auth', 'status'], { env: { PLANTS_BASE_URL: store.url, PLANTS_TOKEN: 'wrong' } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe(
      `Profile:  default\nBase URL: ${store.url} (from PLANTS_BASE_URL)\nToken:    set (from PLANTS_TOKEN)\nStore:    environment\n`,
    );
    expect(r.stderr).toMatch(/401 Unauthorized/);
  });

  it('status shows an invalid base URL as invalid, without echoing it', async () => {
    const r = await plants(['auth', 'status'], {
      env: { PLANTS_BASE_URL: 'https://user:hunter2@x.example', PLANTS_TOKEN: TOKEN },
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^Profile: {2}default\nBase URL: invalid \(from PLANTS_BASE_URL\)\n/);
    expect(r.stdout + r.stderr).not.toContain('hunter2');
  });

  it('status without a token exits 4 and says how to log in', async () => {
    const r = await plants(['auth', 'status'], { env: { PLANTS_BASE_URL: store.url } });
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/Token: {4}not set/);
    expect(r.stderr).toMatch(/plants auth login/);
  });
});

describe('precedence: --base-url > PLANTS_BASE_URL > config file', () => {
  it('uses each source in turn', async () => {
    const other = await plantStore({ seed: 5 });
    try {
      const env = { PLANTS_TOKEN: TOKEN };
      await plants(['config', 'set', 'base-url', 'http://127.0.0.1:9']);
      const viaFlag = await plants(['--base-url', store.url, 'list'], { env: { ...env, PLANTS_BASE_URL: other.url } });
      expect(viaFlag.stdout.trimEnd().split('\n')).toHaveLength(2);
      const viaEnv = await plants(['list'], { env: { ...env, PLANTS_BASE_URL: other.url } });
      expect(viaEnv.stdout.trimEnd().split('\n')).toHaveLength(5);
      await plants(['config', 'set', 'base-url', store.url]);
      const viaFile = await plants(['list'], { env });
      expect(viaFile.stdout.trimEnd().split('\n')).toHaveLength(2);
    } finally {
      await other.close();
    }
  });

  it('PLANTS_TOKEN overrides the stored token', async () => {
    await plants(['auth', 'login', '--with-token', '--no-verify'], { input: 'stale-token' });
    const r = await plants(['list'], { env: { PLANTS_BASE_URL: store.url, PLANTS_TOKEN: TOKEN } });
    expect(r.code).toBe(0);
  });

  it('a missing base URL exits 2 and a missing token exits 4, before any request', async () => {
    const noUrl = await plants(['list'], { env: { PLANTS_TOKEN: TOKEN } });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/plants config set base-url.*PLANTS_BASE_URL/);
    const noToken = await plants(['list'], { env: { PLANTS_BASE_URL: store.url } });
    expect(noToken.code).toBe(4);
    expect(noToken.stderr).toMatch(/plants auth login.*PLANTS_TOKEN/);
  });
});

describe('a newcomer’s mistakes, said in words', () => {
  it('https:// to a plain-HTTP server: says so, and suggests http://', async () => {
    const r = await plants(['list'], {
      env: { PLANTS_BASE_URL: store.url.replace(/^http:/, 'https:'), PLANTS_TOKEN: TOKEN },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /did not answer in TLS: it looks like a plain-HTTP server .*use http:\/\/ in the base URL/,
    );
  });
});
