import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDir, type SavedConfig } from '../helpers/cli.js';
import { plantStore, rawServer, TOKEN } from '../helpers/servers.js';

type Store = Awaited<ReturnType<typeof plantStore>>;
let prod: Store;
let staging: Store;
let dir: ReturnType<typeof tempDir>;

beforeEach(async () => {
  dir = tempDir();
  prod = await plantStore({ seed: 3 });
  staging = await plantStore({ seed: 1 });
});
afterEach(async () => {
  await prod.close();
  await staging.close();
  dir.remove();
});

const plants = (args: string[], options: { env?: Record<string, string | undefined>; input?: string } = {}) =>
  runCli(args, { configDir: dir.path, input: options.input, env: options.env });
const configFile = () => join(dir.path, 'config.json');
const count = (text: string) => text.trimEnd().split('\n').filter(Boolean).length;

async function twoProfiles() {
  await plants(['config', 'set', 'base-url', prod.url]);
  await plants(['auth', 'login', '--with-token'], { input: TOKEN });
  await plants(['--profile', 'staging', 'config', 'set', 'base-url', staging.url]);
  await plants(['--profile', 'staging', 'auth', 'login', '--with-token'], { input: TOKEN });
}

describe('profiles', () => {
  it('keep their own base URL and token; --profile selects one', async () => {
    await twoProfiles();
    expect(count((await plants(['list'])).stdout)).toBe(3);
    expect(count((await plants(['--profile', 'staging', 'list'])).stdout)).toBe(1);
    expect(count((await plants(['list', '--profile', 'staging'])).stdout)).toBe(1);
  });

  it('config profiles lists them, marks the one in use, never shows tokens, columns lined up', async () => {
    await twoProfiles();
    const long = 'https://plants.example.com/api/v2/a/long/path/prefix';
    await plants(['--profile', 'bare', 'config', 'set', 'base-url', long]);
    const r = await plants(['config', 'profiles']);
    expect(r.stdout).toBe(
      [
        `  bare     ${long}  no token`,
        `* default  ${prod.url.padEnd(long.length)}  token set`,
        `  staging  ${staging.url.padEnd(long.length)}  token set`,
        '',
      ].join('\n'),
    );
  });

  it('config use sets the default; PLANTS_PROFILE and --profile override it', async () => {
    await twoProfiles();
    expect((await plants(['config', 'use', 'staging'])).code).toBe(0);
    expect(count((await plants(['list'])).stdout)).toBe(1);
    expect((await plants(['config', 'profiles'])).stdout).toMatch(/^\* staging/m);
    expect(count((await plants(['list'], { env: { PLANTS_PROFILE: 'default' } })).stdout)).toBe(3);
    expect(count((await plants(['--profile', 'staging', 'list'], { env: { PLANTS_PROFILE: 'default' } })).stdout)).toBe(
      1,
    );
    const status = await plants(['auth', 'status']);
    expect(status.stdout).toMatch(/^Profile: {2}staging \(from 'plants config use'\)\n/);
    await plants(['config', 'use', 'default']);
    expect(count((await plants(['list'])).stdout)).toBe(3);
  });

  it('config use of an unknown profile exits 2 and says how to make one', async () => {
    await twoProfiles();
    const r = await plants(['config', 'use', 'prod']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "plants: no profile named prod (profiles: default, staging); create one with 'plants --profile prod config set base-url <url>'\n",
    );
  });

  it('config delete-profile removes it, token included, and falls back to default', async () => {
    await twoProfiles();
    await plants(['config', 'use', 'staging']);
    expect((await plants(['config', 'delete-profile', 'staging'])).code).toBe(0);
    const saved = JSON.parse(readFileSync(configFile(), 'utf8')) as SavedConfig;
    expect(Object.keys(saved.profiles)).toEqual(['default']);
    expect(saved.profile).toBeUndefined();
    expect(count((await plants(['list'])).stdout)).toBe(3);
    expect((await plants(['config', 'delete-profile', 'staging'])).code).toBe(2);
  });

  it('a profile without settings says which profile lacks them', async () => {
    await twoProfiles();
    // A token is bound to the origin of a base URL: logging in to a profile without one is refused, naming it.
    const login = await plants(['--profile', 'dev', 'auth', 'login', '--with-token', '--no-verify'], {
      input: TOKEN,
    });
    expect(login.code).toBe(2);
    expect(login.stderr).toMatch(
      /^plants: no base URL configured for profile dev: .*run 'plants --profile dev config set base-url <url>' first/,
    );
    const created = await plants(['--profile', 'dev', 'config', 'set', 'max-deletes', '5']);
    expect(created.stderr).toBe('plants: creating profile dev\n');
    const r = await plants(['--profile', 'dev', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /no base URL configured for profile dev; run 'plants --profile dev config set base-url <url>'/,
    );
  });

  it('a mistyped profile name is refused, listing the profiles, with whatever it was named by', async () => {
    await twoProfiles();
    const hint = "create one with 'plants --profile stagign config set base-url <url>'";
    const flag = await plants(['--profile', 'stagign', 'list']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      `plants: no profile named stagign (from --profile; profiles: default, staging); ${hint}\n`,
    );
    const variable = await plants(['auth', 'logout'], { env: { PLANTS_PROFILE: 'stagign' } });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toBe(
      `plants: no profile named stagign (from PLANTS_PROFILE; profiles: default, staging); ${hint}\n`,
    );
    expect((JSON.parse(readFileSync(configFile(), 'utf8')) as SavedConfig).profiles.staging?.token).toBe(TOKEN);
  });

  it('a refused stored token names its profile and how to log in to it, never the token', async () => {
    await twoProfiles();
    await plants(['--profile', 'staging', 'auth', 'login', '--with-token', '--no-verify'], { input: `${TOKEN}-old` });
    const r = await plants(['--profile', 'staging', 'list', '--json']);
    expect(r.code).toBe(4);
    const [line, json] = r.stderr.trimEnd().split('\n');
    expect(line).toBe(
      `plants: GET ${staging.url}/plants → 401 Unauthorized: missing or invalid bearer token (error 401); the service refused the token of profile staging; run 'plants --profile staging auth login'`,
    );
    expect(JSON.parse(json!)).toMatchObject({ error: { code: 'auth', status: 401 } });
    expect(r.stderr).not.toContain(`${TOKEN}-old`);
  });

  it('rejects a bad profile name', async () => {
    const r = await plants(['--profile', '../x', 'config', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid profile name "\.\.\/x"/);
  });

  it('auth logout and config unset act on the selected profile only', async () => {
    await twoProfiles();
    await plants(['--profile', 'staging', 'auth', 'logout']);
    await plants(['--profile', 'staging', 'config', 'unset', 'base-url']);
    const saved = JSON.parse(readFileSync(configFile(), 'utf8')) as SavedConfig;
    expect(saved.profiles.staging).toEqual({});
    expect(saved.profiles.default).toEqual({
      'base-url': prod.url,
      token: TOKEN,
      'token-origin': new URL(prod.url).origin,
    });
  });

  it('a config file from before profiles keeps working, migrated in place', async () => {
    writeFileSync(configFile(), JSON.stringify({ 'base-url': prod.url, token: TOKEN }), { mode: 0o600 });
    const r = await plants(['list']);
    expect(r.code).toBe(0);
    expect(count(r.stdout)).toBe(3);
    // The token, from before tokens were bound to an origin, is bound to its base URL's.
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual({
      profiles: { default: { 'base-url': prod.url, token: TOKEN, 'token-origin': new URL(prod.url).origin } },
    });
  });
});

describe('Ctrl-C with settings from the config file', () => {
  it('still stops gracefully (the config library must not re-raise the signal)', async () => {
    let started = 0;
    const slow = await rawServer((_req, res) => {
      started += 1;
      setTimeout(() => res.writeHead(204).end(), 100);
    });
    try {
      await plants(['config', 'set', 'base-url', slow.url]);
      await plants(['auth', 'login', '--with-token', '--no-verify'], { input: TOKEN });
      const { child, out, exit } = spawnCli(['delete', '--stdin', '--yes', '--json', '--concurrency', '2'], {
        configDir: dir.path,
        env: {},
        input: Array.from({ length: 100 }, (_, i) => i + 1).join('\n'),
      });
      while (started < 4) await new Promise((resolve) => setTimeout(resolve, 10));
      child.kill('SIGINT');
      expect(await exit).toBe(130);
      const results = JSON.parse(out.stdout) as { result: string }[];
      expect(results.filter((x) => x.result === 'deleted').length).toBe(started);
      expect(results.filter((x) => x.result === 'skipped').length).toBe(100 - started);
    } finally {
      await slow.close();
    }
  });
});
