import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyringUnavailable, type Keyring } from '../../src/config/keyring.js';
import { openConfigStore } from '../../src/config/open.js';
import { inProcess, ORIGIN } from '../helpers/in-process.js';
import { scriptedPrompter } from '../helpers/io.js';

// A stored token goes only to the origin it was stored for, whatever its
// store (test/e2e/config-auth.test.ts checks it on the servers' side), and
// PLANTS_KEYRING=on means the keyring or nothing.

const TOKEN = 'token-binding-test-token';
const { plants, service, agent, configDir } = inProcess(TOKEN);

const json = { headers: { 'content-type': 'application/json' } };
const configFile = () => join(configDir(), 'config.json');
const saved = (config: object) => writeFileSync(configFile(), JSON.stringify(config), { mode: 0o600 });
const stored = (): unknown => JSON.parse(readFileSync(configFile(), 'utf8'));
/** The stored token counts: none from the environment, the keyring off. */
const noToken = { PLANTS_TOKEN: undefined };
const OTHER = 'https://other.test';
const otherOrigin = (source: string) =>
  `plants: the token of profile default (kept in the config file) is for ${ORIGIN}, not for ${OTHER}, ` +
  `the origin of the base URL in effect (from ${source}); a token is never sent to another origin: ` +
  `to log in for ${OTHER}, give it a profile of its own ('plants --profile <name> config set base-url ${OTHER}', ` +
  "then 'plants --profile <name> auth login'), or set PLANTS_TOKEN to a token for it\n";

describe('a token in the config file', () => {
  const bound = () => saved({ profiles: { default: { 'base-url': ORIGIN, token: TOKEN, 'token-origin': ORIGIN } } });

  it.each([
    ['--base-url', [`--base-url`, OTHER], {}],
    ['PLANTS_BASE_URL', [], { PLANTS_BASE_URL: OTHER }],
  ])(
    'is not sent to another origin named by %s: exit 4, both origins named, no request',
    async (source, flags, env) => {
      bound();
      const r = await plants([...flags, 'list'], { env: { ...noToken, PLANTS_BASE_URL: undefined, ...env } });
      expect(r.code).toBe(4);
      expect(r.stderr()).toBe(otherOrigin(source));
      // PLANTS_TOKEN, given explicitly, is the one way to send a token there.
      agent()
        .get(OTHER)
        .intercept({ path: '/plants', method: 'GET', headers: { authorization: 'Bearer explicit-token' } })
        .reply(200, [], json);
      const explicit = await plants([...flags, 'list'], {
        env: { PLANTS_BASE_URL: undefined, ...env, PLANTS_TOKEN: 'explicit-token' },
      });
      expect(explicit.code).toBe(0);
    },
  );

  it('another port, scheme or a trailing dot is another origin; a spelling of its own is not', async () => {
    bound();
    service()
      .intercept({ path: '/api/plants', method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } })
      .reply(200, [], json);
    const own = await plants(['list'], { env: { ...noToken, PLANTS_BASE_URL: 'HTTPS://Plants.test:443/api' } });
    expect(own.code).toBe(0);
    for (const url of ['https://plants.test:8443', 'http://plants.test', 'https://plants.test.']) {
      const r = await plants(['--base-url', url, 'list'], { env: noToken });
      expect(r.code, url).toBe(4);
      expect(r.stderr(), url).toMatch(
        /^plants: the token of profile default .* is for https:\/\/plants\.test, not for /,
      );
    }
  });
  it('names the profiles that do hold a token for the origin in effect', async () => {
    saved({
      profiles: {
        default: { token: TOKEN, 'token-origin': ORIGIN },
        b1: { 'token-keyring': OTHER },
        b2: { 'token-command': 'echo x', 'token-origin': `${OTHER}:443` },
        c: { token: 'c-token', 'token-origin': 'https://c.test' },
      },
    });
    const r = await plants(['--base-url', OTHER, 'list'], { env: noToken });
    expect(r.code).toBe(4);
    expect(r.stderr()).toMatch(
      /\), use --profile b1 or --profile b2 \(which have tokens for it\), or set PLANTS_TOKEN to a token for it\n$/,
    );
  });
});

describe('auth login', () => {
  it("for another origin than the profile's base URL: stored for it, with a warning that the profile's base URL gets no token", async () => {
    saved({ profiles: { default: { 'base-url': OTHER } } });
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(200, [], json);
    const r = await plants(['--base-url', ORIGIN, 'auth', 'login', '--with-token'], { stdin: TOKEN, env: noToken });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      `plants: warning: the base URL of profile default is on ${OTHER}, which this token is not sent to; set it with 'plants config set base-url <url>'\n`,
    );
    expect(stored()).toEqual({ profiles: { default: { 'base-url': OTHER, token: TOKEN, 'token-origin': ORIGIN } } });
  });
});

describe('a token command', () => {
  it('is not run for another origin', async () => {
    const ran = join(configDir(), 'ran');
    saved({ profiles: { default: { 'token-command': `touch '${ran}'; echo cmd-token`, 'token-origin': ORIGIN } } });
    const r = await plants(['--base-url', OTHER, 'list'], { env: noToken });
    expect(r.code).toBe(4);
    expect(r.stderr()).toMatch(
      /^plants: the token of profile default \(printed by its token command\) is for https:\/\/plants\.test, not for https:\/\/other\.test/,
    );
    expect(existsSync(ran)).toBe(false);
    service()
      .intercept({ path: '/plants', method: 'GET', headers: { authorization: 'Bearer cmd-token' } })
      .reply(200, [], json);
    expect((await plants(['list'], { env: noToken })).code).toBe(0);
    expect(existsSync(ran)).toBe(true);
  });

  it('auth login binds it to the base URL in effect', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(200, [], json);
    const r = await plants(['auth', 'login', '--token-command', 'echo cmd-token'], { env: noToken, tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(`✓ Token stored for profile default as a token command (echo …), for ${ORIGIN}\n`);
    expect(stored()).toEqual({ profiles: { default: { 'token-command': 'echo cmd-token', 'token-origin': ORIGIN } } });
  });
});

describe('a token stored before tokens were bound', () => {
  it("is bound to its profile's base URL origin when the file is first read, and written down", async () => {
    saved({ profiles: { default: { 'base-url': `${ORIGIN}/api`, token: TOKEN }, cmd: { 'token-command': 'echo x' } } });
    const r = await plants(['--base-url', OTHER, 'list'], { env: noToken });
    expect(r.code).toBe(4);
    expect(r.stderr()).toMatch(/is for https:\/\/plants\.test, not for https:\/\/other\.test/);
    expect(stored()).toEqual({
      profiles: {
        default: { 'base-url': `${ORIGIN}/api`, token: TOKEN, 'token-origin': ORIGIN },
        cmd: { 'token-command': 'echo x', 'token-origin': 'none' },
      },
    });
    // Bound, it stays so: a base URL set later for another origin gets no token.
    expect((await plants(['config', 'set', 'base-url', OTHER], { env: noToken })).code).toBe(0);
    const after = await plants(['list'], { env: { ...noToken, PLANTS_BASE_URL: undefined } });
    expect(after.code).toBe(4);
    expect(after.stderr()).toMatch(/is for https:\/\/plants\.test, not for https:\/\/other\.test/);
  });

  it('with no base URL in its profile, is bound to no origin and never sent: exit 4, how to fix it', async () => {
    saved({ profiles: { default: { token: TOKEN } } });
    const r = await plants(['list'], { env: noToken });
    expect(r.code).toBe(4);
    expect(r.stderr()).toBe(
      'plants: the token of profile default is bound to no origin: it was stored while the profile had no base URL, and is never sent; ' +
        "run 'plants config set base-url <url>' and 'plants auth login' again, or set PLANTS_TOKEN\n",
    );
    expect(stored()).toEqual({ profiles: { default: { token: TOKEN, 'token-origin': 'none' } } });
    // Setting the base URL afterwards does not bind it.
    await plants(['config', 'set', 'base-url', ORIGIN], { env: noToken });
    expect((await plants(['list'], { env: { ...noToken, PLANTS_BASE_URL: undefined } })).code).toBe(4);
  });

  it('is read as bound even when the file cannot be written', async () => {
    saved({ profiles: { default: { 'base-url': ORIGIN, token: TOKEN } } });
    const before = readFileSync(configFile(), 'utf8');
    const fail = () => {
      throw Object.assign(new Error('read-only file system'), { code: 'EROFS' });
    };
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: configDir() }, undefined, {
      fs: { writeSync: fail, openSync: fail },
    });
    expect(store.storedToken('default')).toEqual({ store: 'file', token: TOKEN, origin: ORIGIN });
    expect(readFileSync(configFile(), 'utf8')).toBe(before);
  });
});

describe('config set base-url', () => {
  it("warns that the profile's token is for the old origin, and how to log in for the new one", async () => {
    saved({ profiles: { staging: { 'base-url': ORIGIN, token: TOKEN, 'token-origin': ORIGIN } } });
    const env = { ...noToken, PLANTS_BASE_URL: undefined };
    const r = await plants(['--profile', 'staging', 'config', 'set', 'base-url', `${OTHER}/v2`], { env });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      `plants: warning: the token of profile staging is for ${ORIGIN}, and is not sent to ${OTHER}; ` +
        `run 'plants --profile staging auth login' to store one for ${OTHER}\n`,
    );
    // Another path on the same origin: the token still goes there, nothing to say.
    const same = await plants(['--profile', 'staging', 'config', 'set', 'base-url', `${ORIGIN}:443/v3`], { env });
    expect(same.stderr()).toBe('');
  });
});

describe('auth status', () => {
  it('shows the origin the token is bound to, and says when the base URL in effect has another', async () => {
    saved({ profiles: { default: { 'base-url': ORIGIN, token: TOKEN, 'token-origin': ORIGIN } } });
    const r = await plants(['--base-url', OTHER, 'auth', 'status'], { env: noToken });
    expect(r.code).toBe(4);
    expect(r.stdout()).toBe(
      [
        'Profile:  default',
        `Base URL: ${OTHER} (from --base-url)`,
        'Token:    stored, but could not be read (see below)',
        'Store:    file',
        `Bound to: ${ORIGIN}, not ${OTHER}, the origin of the base URL: the token is not sent there (see below)`,
        '',
      ].join('\n'),
    );
    expect(r.stderr()).toBe(otherOrigin('--base-url'));
    const j = await plants(['--base-url', OTHER, 'auth', 'status', '--json'], { env: noToken });
    expect(JSON.parse(j.stdout())).toMatchObject({ token_store: 'file', token_origin: ORIGIN, accepted: false });
  });
});

describe('PLANTS_KEYRING=on: the keyring or nothing', () => {
  const on = { ...noToken, PLANTS_KEYRING: 'on' };
  const unreachable = () => Promise.reject(new KeyringUnavailable('no Secret Service on the session bus'));

  it('auth login with no keyring reachable refuses (exit 4) before asking, and keeps nothing in the file', async () => {
    const prompter = scriptedPrompter();
    const r = await plants(['auth', 'login'], { tty: true, prompter, env: on, keyring: unreachable });
    expect(r.code).toBe(4);
    expect(prompter.questions).toEqual([]);
    expect(r.stderr()).toBe(
      'plants: PLANTS_KEYRING=on keeps the token in the OS keyring or nowhere, and no OS keyring can be used (no Secret Service on the session bus); ' +
        'nothing was stored; make the keyring reachable, or unset PLANTS_KEYRING to keep the token in the config file\n',
    );
    expect(existsSync(configFile())).toBe(false);
    // With a keyring, it keeps the token there.
    const entries = new Map<string, string>();
    const keyring: Keyring = {
      name: 'Test Keyring',
      get: (account) => Promise.resolve(entries.get(account) ?? null),
      set: (account, token) => Promise.resolve(void entries.set(account, token)),
      delete: (account) => Promise.resolve(entries.delete(account)),
    };
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(200, [], json);
    const kept = await plants(['auth', 'login', '--with-token'], {
      stdin: TOKEN,
      env: on,
      keyring: () => Promise.resolve(keyring),
    });
    expect(kept.code).toBe(0);
    expect(stored()).toEqual({ profiles: { default: { 'token-keyring': ORIGIN } } });
  });

  it('a token kept in an OS keyring that cannot be reached: exit 4, no way round it through the file', async () => {
    saved({ profiles: { default: { 'token-keyring': ORIGIN } } });
    const r = await plants(['list'], { env: on, keyring: unreachable });
    expect(r.code).toBe(4);
    expect(r.stderr()).toBe(
      'plants: the token of profile default is kept in the OS keyring, which cannot be read: no Secret Service on the session bus; ' +
        'set PLANTS_TOKEN, or make the keyring reachable (PLANTS_KEYRING=on keeps tokens nowhere else)\n',
    );
  });

  it('--insecure-storage contradicts it: exit 2, nothing asked', async () => {
    const r = await plants(['auth', 'login', '--with-token', '--insecure-storage'], {
      stdin: TOKEN,
      env: on,
      keyring: unreachable,
    });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: --insecure-storage keeps the token in the config file, and PLANTS_KEYRING=on allows the OS keyring only: leave out one of them\n',
    );
    expect(existsSync(configFile())).toBe(false);
  });

  it('a token kept in the config file is not read: exit 4, how to move it', async () => {
    saved({ profiles: { default: { token: TOKEN, 'token-origin': ORIGIN } } });
    for (const value of ['on', ' ON ']) {
      const r = await plants(['list'], { env: { ...on, PLANTS_KEYRING: value }, keyring: unreachable });
      expect(r.code).toBe(4);
      expect(r.stderr()).toBe(
        'plants: PLANTS_KEYRING=on reads tokens from the OS keyring only, and the token of profile default is kept in the config file; ' +
          "run 'plants auth login' to keep it in the keyring, or unset PLANTS_KEYRING\n",
      );
    }
  });

  it('unset, the file is the fallback, with its warning', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(200, [], json);
    const r = await plants(['auth', 'login', '--with-token'], {
      stdin: TOKEN,
      env: { ...noToken, PLANTS_KEYRING: undefined },
      keyring: unreachable,
    });
    expect(r.code).toBe(0);
    expect(r.stderr()).toMatch(/^plants: warning: no OS keyring can be used .*config file/);
    expect(stored()).toEqual({ profiles: { default: { token: TOKEN, 'token-origin': ORIGIN } } });
  });
});
