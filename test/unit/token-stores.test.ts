import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  KeyringFailure,
  keyringOff,
  keyringReason,
  KeyringUnavailable,
  openKeyring,
  type Keyring,
} from '../../src/config/keyring.js';
import { shownCommand } from '../../src/config/settings.js';
import { inProcess, ORIGIN } from '../helpers/in-process.js';
import { scriptedPrompter } from '../helpers/io.js';

// Where `auth login` keeps the token, and how runs read it back: the OS
// keyring (a stand-in here; test/e2e/keyring.test.ts uses a real Secret
// Service), the config file, or a token command (real shell commands).

const TOKEN = 'token-stores-test-token';
const { plants, service, configDir } = inProcess(TOKEN);

const json = { headers: { 'content-type': 'application/json' } };
const configFile = () => join(configDir(), 'config.json');
const saved = (config: object) => writeFileSync(configFile(), JSON.stringify(config), { mode: 0o600 });
const stored = (): unknown => JSON.parse(readFileSync(configFile(), 'utf8'));

/** An OS keyring in memory, as the binding would behave. */
function memoryKeyring() {
  const entries = new Map<string, string>();
  const keyring: Keyring = {
    name: 'Test Keyring',
    get: (account) => Promise.resolve(entries.get(account) ?? null),
    set: (account, token) => {
      entries.set(account, token);
      return Promise.resolve();
    },
    delete: (account) => Promise.resolve(entries.delete(account)),
  };
  return { entries, open: () => Promise.resolve(keyring) };
}

const unreachable = () => Promise.reject(new KeyringUnavailable('no Secret Service on the session bus'));

/** A keyring that is there and says no (locked, its unlock prompt dismissed). */
function lockedKeyring() {
  const keyring: Keyring = {
    name: 'Test Keyring',
    get: () => Promise.reject(new KeyringFailure('it is locked')),
    set: () => Promise.reject(new KeyringFailure('it is locked')),
    delete: () => Promise.reject(new KeyringFailure('it is locked')),
  };
  return () => Promise.resolve(keyring);
}

/** The check of auth login (GET /plants?limit=1), answered with `status`. */
function check(status = 200, token?: string) {
  service()
    .intercept({
      path: '/plants',
      method: 'GET',
      query: { limit: '1' },
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    })
    .reply(status, status === 200 ? [] : { error: status, message: 'no' }, json);
}

/** The environment of these tests: the base URL from the environment, no token there, the keyring on. */
const env = { PLANTS_TOKEN: undefined, PLANTS_KEYRING: undefined };

describe('auth login keeps the token in the OS keyring by default', () => {
  it('stores it there, for the profile and the base URL origin; the config file only says so', async () => {
    const keyring = memoryKeyring();
    check(200, 'k-token');
    const r = await plants(['auth', 'login', '--with-token'], {
      stdin: 'k-token\n',
      env,
      keyring: keyring.open,
    });
    expect(r.code).toBe(0);
    expect([...keyring.entries]).toEqual([[`default ${ORIGIN}`, 'k-token']]);
    expect(stored()).toEqual({ profiles: { default: { 'token-keyring': ORIGIN } } });
    expect(readFileSync(configFile(), 'utf8')).not.toContain('k-token');
  });

  it('a run reads it from there, and auth status names the store', async () => {
    const keyring = memoryKeyring();
    keyring.entries.set(`default ${ORIGIN}`, 'k-token');
    saved({ profiles: { default: { 'token-keyring': ORIGIN } } });
    check(200, 'k-token');
    const r = await plants(['auth', 'status'], { env, keyring: keyring.open });
    expect(r.code).toBe(0);
    expect(r.stdout()).toContain(
      'Token:    set (from the OS keyring, profile default)\nStore:    keyring (Test Keyring)\n',
    );
    check(200, 'k-token');
    const j = await plants(['auth', 'status', '--json'], { env, keyring: keyring.open });
    expect(JSON.parse(j.stdout())).toMatchObject({ token_store: 'keyring', accepted: true });
    expect(j.stdout()).not.toContain('k-token');
  });

  it('is never read for another origin: the base URL in effect must be the one it was stored for', async () => {
    const keyring = memoryKeyring();
    keyring.entries.set('default https://elsewhere.test', 'k-token');
    saved({ profiles: { default: { 'token-keyring': 'https://elsewhere.test' } } });
    const r = await plants(['list'], { env, keyring: keyring.open });
    expect(r.code).toBe(4);
    expect(r.stderr()).toBe(
      `plants: the token of profile default (kept in the OS keyring) is for https://elsewhere.test, not for ${ORIGIN}, ` +
        'the origin of the base URL in effect (from PLANTS_BASE_URL); a token is never sent to another origin: ' +
        `to log in for ${ORIGIN}, give it a profile of its own ('plants --profile <name> config set base-url ${ORIGIN}', ` +
        "then 'plants --profile <name> auth login'), or set PLANTS_TOKEN to a token for it\n",
    );
  });

  it('an entry removed from the keyring behind its back: exit 4, how to log in again', async () => {
    saved({ profiles: { default: { 'token-keyring': ORIGIN } } });
    const r = await plants(['list'], { env, keyring: memoryKeyring().open });
    expect(r.code).toBe(4);
    expect(r.stderr()).toMatch(
      /the OS keyring has no token for profile default at https:\/\/plants\.test .*auth login/,
    );
  });

  it('falls back to the config file, saying why in one line, where no keyring can be used', async () => {
    check();
    const r = await plants(['auth', 'login', '--with-token'], { stdin: 'f-token', env, keyring: unreachable });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      `plants: warning: no OS keyring can be used (no Secret Service on the session bus); the token is kept in the config file ${configFile()} (mode 0600) instead\n`,
    );
    expect(stored()).toEqual({ profiles: { default: { token: 'f-token', 'token-origin': ORIGIN } } });
  });

  it('--insecure-storage keeps it in the config file, without trying the keyring', async () => {
    check();
    const r = await plants(['auth', 'login', '--with-token', '--insecure-storage'], {
      stdin: 'f-token',
      env,
      keyring: () => Promise.reject(new Error('the keyring was asked')),
    });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('');
    expect(stored()).toEqual({ profiles: { default: { token: 'f-token', 'token-origin': ORIGIN } } });
  });

  it('logging in again moves an old token out of the file, and one out of the keyring', async () => {
    const keyring = memoryKeyring();
    saved({ profiles: { default: { token: 'old-file-token' } } });
    check();
    await plants(['auth', 'login', '--with-token'], { stdin: 'new', env, keyring: keyring.open });
    expect(stored()).toEqual({ profiles: { default: { 'token-keyring': ORIGIN } } });
    check();
    await plants(['auth', 'login', '--with-token', '--insecure-storage'], {
      stdin: 'newer',
      env,
      keyring: keyring.open,
    });
    expect(stored()).toEqual({ profiles: { default: { token: 'newer', 'token-origin': ORIGIN } } });
    expect(keyring.entries.size).toBe(0);
  });

  it('two profiles have two entries and never read each other', async () => {
    const keyring = memoryKeyring();
    for (const [profile, token] of [
      ['a', 'token-a'],
      ['b', 'token-b'],
    ]) {
      check(200, token);
      await plants(['--profile', profile!, 'auth', 'login', '--with-token'], {
        stdin: token,
        env,
        keyring: keyring.open,
      });
    }
    expect(Object.fromEntries(keyring.entries)).toEqual({ [`a ${ORIGIN}`]: 'token-a', [`b ${ORIGIN}`]: 'token-b' });
    service()
      .intercept({ path: '/plants', method: 'GET', headers: { authorization: 'Bearer token-b' } })
      .reply(200, [], json);
    expect((await plants(['--profile', 'b', 'list'], { env, keyring: keyring.open })).code).toBe(0);
  });

  it('auth logout removes the entry and the record; a keyring that cannot be reached changes nothing', async () => {
    const keyring = memoryKeyring();
    keyring.entries.set(`default ${ORIGIN}`, 'k-token');
    saved({ profiles: { default: { 'token-keyring': ORIGIN } } });
    const failed = await plants(['auth', 'logout'], { env, keyring: unreachable });
    expect(failed.code).toBe(4);
    expect(failed.stderr()).toBe(
      'plants: cannot remove the token of profile default from the OS keyring: no Secret Service on the session bus; nothing was changed; ' +
        `run this again where the keyring can be reached (without PLANTS_KEYRING=off), or remove "token-keyring" of profile default from ${configFile()} ` +
        `and the keyring entry of service plants, account "default ${ORIGIN}", by hand\n`,
    );
    expect(stored()).toEqual({ profiles: { default: { 'token-keyring': ORIGIN } } });
    const r = await plants(['auth', 'logout'], { env, keyring: keyring.open, tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('✓ Removed the token of profile default from the OS keyring (Test Keyring)\n');
    expect(keyring.entries.size).toBe(0);
    expect(stored()).toEqual({ profiles: { default: {} } });
  });

  it.each(['false', '0', 'no', 'of'])(
    'PLANTS_KEYRING=%s is refused (exit 2), never taken to mean the keyring: login asks for nothing, a run reads nothing',
    async (value) => {
      // The real opener, kept from any keyring of the user's should it ever go on: no session bus there.
      const offBus = {
        ...env,
        PLANTS_KEYRING: value,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/plants-test-bus',
      };
      const message = `plants: invalid PLANTS_KEYRING "${value}": expected on or off\n`;
      const login = await plants(['auth', 'login', '--with-token'], {
        stdin: 'typed-token',
        env: offBus,
        keyring: openKeyring,
      });
      expect(login.code).toBe(2);
      expect(login.stderr()).toBe(message);
      expect(existsSync(configFile())).toBe(false);
      saved({ profiles: { default: { 'token-keyring': ORIGIN } } });
      for (const args of [['list'], ['auth', 'logout'], ['config', 'delete-profile', 'default']]) {
        const r = await plants(args, { env: offBus, keyring: openKeyring });
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr(), args.join(' ')).toBe(message);
      }
      expect(stored()).toEqual({ profiles: { default: { 'token-keyring': ORIGIN } } });
    },
  );

  it('PLANTS_KEYRING: on, blank or unset is on, off is off, in any case and with blanks around', () => {
    for (const on of ['on', ' ON ', '', undefined]) expect(keyringOff({ PLANTS_KEYRING: on }), on).toBe(false);
    for (const off of ['off', 'Off', ' OFF\n']) expect(keyringOff({ PLANTS_KEYRING: off }), off).toBe(true);
  });

  it('config delete-profile takes the token out of the keyring too, or changes nothing', async () => {
    const keyring = memoryKeyring();
    keyring.entries.set(`staging ${ORIGIN}`, 'k-token');
    saved({ profiles: { staging: { 'token-keyring': ORIGIN } } });
    const failed = await plants(['config', 'delete-profile', 'staging'], { env, keyring: unreachable });
    expect(failed.code).toBe(4);
    expect(stored()).toEqual({ profiles: { staging: { 'token-keyring': ORIGIN } } });
    const r = await plants(['config', 'delete-profile', 'staging'], { env, keyring: keyring.open });
    expect(r.code).toBe(0);
    expect(keyring.entries.size).toBe(0);
    expect(stored()).toEqual({ profiles: {} });
  });

  it('a keyring that is there but says no keeps nothing, and the token does not go to the file instead', async () => {
    check();
    const r = await plants(['auth', 'login', '--with-token'], { stdin: 't', env, keyring: lockedKeyring() });
    expect(r.code).toBe(4);
    expect(r.stderr()).toBe(
      'plants: the OS keyring did not keep the token: it is locked; nothing was stored; unlock it and try again, or pass --insecure-storage to keep the token in the config file\n',
    );
    expect(() => readFileSync(configFile())).toThrow();
  });

  it('auth status names a store whose token cannot be read, and fails the check with its reason', async () => {
    saved({ profiles: { default: { 'token-keyring': ORIGIN } } });
    const r = await plants(['auth', 'status'], { env, keyring: lockedKeyring() });
    expect(r.code).toBe(4);
    expect(r.stdout()).toContain('Token:    stored, but could not be read (see below)\nStore:    keyring\n');
    expect(r.stderr()).toMatch(
      /kept in the OS keyring, which cannot be read: it is locked; set PLANTS_TOKEN, or run 'plants auth login --insecure-storage'/,
    );
  });

  it('logout says so when the keyring entry was already gone', async () => {
    saved({ profiles: { default: { 'token-keyring': ORIGIN } } });
    const r = await plants(['auth', 'logout'], { env, keyring: memoryKeyring().open, tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      `✓ Removed the token of profile default from ${configFile()} (the OS keyring had no entry for it any more)\n`,
    );
  });

  it('without a base URL, nothing is asked, whatever the store: a token is bound to an origin', async () => {
    for (const flags of [['--with-token'], ['--with-token', '--insecure-storage'], ['--token-command', 'echo t']]) {
      const r = await plants(['auth', 'login', '--no-verify', ...flags], {
        stdin: 't',
        env: { ...env, PLANTS_BASE_URL: undefined },
        keyring: () => Promise.reject(new Error('the keyring was asked')),
        prompter: scriptedPrompter(),
      });
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr()).toBe(
        "plants: no base URL configured: a token is stored for the origin of one base URL, and sent only there; run 'plants config set base-url <url>' first, set PLANTS_BASE_URL, or pass --base-url\n",
      );
    }
    expect(existsSync(configFile())).toBe(false);
  });

  it('a run with PLANTS_TOKEN never opens the keyring', async () => {
    saved({ profiles: { default: { 'token-keyring': ORIGIN } } });
    service().intercept({ path: '/plants', method: 'GET' }).reply(200, [], json);
    const r = await plants(['list'], {
      env: { PLANTS_KEYRING: undefined },
      keyring: () => Promise.reject(new Error('the keyring was opened')),
    });
    expect(r.code).toBe(0);
  });
});

describe('auth login checks the token with the service first', () => {
  it('a refused token is not stored: exit 4, nothing written', async () => {
    for (const status of [401, 403]) {
      check(status);
      const r = await plants(['auth', 'login', '--with-token', '--insecure-storage'], { stdin: 'bad', env });
      expect(r.code).toBe(4);
      expect(r.stderr()).toBe(
        `plants: the service refused this token (${status} ${status === 401 ? 'Unauthorized' : 'Forbidden'}); nothing was stored; check the token, or pass --no-verify to store it anyway\n`,
      );
    }
    expect(() => readFileSync(configFile())).toThrow();
  });

  it('--no-verify stores it without asking', async () => {
    const r = await plants(['auth', 'login', '--with-token', '--insecure-storage', '--no-verify'], {
      stdin: 'unchecked',
      env,
    });
    expect(r.code).toBe(0);
    expect(stored()).toEqual({ profiles: { default: { token: 'unchecked', 'token-origin': ORIGIN } } });
  });

  it('a service that cannot be asked: one line, and the token is stored', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(503, 'down');
    const r = await plants(['auth', 'login', '--with-token', '--insecure-storage'], { stdin: 'kept', env });
    expect(r.code).toBe(0);
    expect(r.stderr()).toMatch(
      /^plants: warning: could not check the token with the service: .*503.*; storing it anyway\n$/,
    );
    expect(stored()).toEqual({ profiles: { default: { token: 'kept', 'token-origin': ORIGIN } } });
  });

  it('a service that cannot be asked and quotes the token: the warning never shows it', async () => {
    const token = 'login-checked-token-0123456789';
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(500, `no database for ${token}`);
    const r = await plants(['auth', 'login', '--with-token', '--insecure-storage'], { stdin: token, env });
    expect(r.code).toBe(0);
    expect(r.stderr()).toMatch(
      /^plants: warning: could not check the token with the service: .*500.*; storing it anyway\n$/,
    );
    expect(r.stderr()).not.toContain(token);
    expect(r.stderr()).not.toContain(token.slice(0, 12));
  });

  it('without a base URL: says how to set one; the token is asked for only once there is one', async () => {
    const noBase = { ...env, PLANTS_BASE_URL: undefined };
    const r = await plants(['--profile', 'staging', 'auth', 'login', '--with-token'], { stdin: 't', env: noBase });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      "plants: no base URL configured for profile staging: a token is stored for the origin of one base URL, and sent only there; run 'plants --profile staging config set base-url <url>' first, set PLANTS_BASE_URL, or pass --base-url\n",
    );
    expect(existsSync(configFile())).toBe(false);
  });
});

describe('a token command', () => {
  it('is stored, never a token; each run runs it once and sends what it printed, trimmed', async () => {
    check(200, 'cmd-token');
    const login = await plants(['auth', 'login', '--token-command', "printf '  cmd-token\\n'"], { env });
    expect(login.code).toBe(0);
    expect(stored()).toEqual({
      profiles: { default: { 'token-command': "printf '  cmd-token\\n'", 'token-origin': ORIGIN } },
    });
    check(200, 'cmd-token');
    const status = await plants(['auth', 'status'], { env });
    expect(status.stdout()).toContain('Store:    command (printf …)\n');
  });

  it.each([
    ['exit 3', 'plants: the token command of profile default (exit …) exited with status 3; no token\n'],
    [
      "echo 'vault: permission denied' >&2; echo more >&2; exit 1",
      'plants: the token command of profile default (echo …) exited with status 1: more; no token\n',
    ],
    // What it printed before it failed (the token, with `set -x`'s echo of it on stderr) is masked in what stderr said.
    [
      "echo cmd-token-0123456789; echo '+ echo cmd-token-0123456789' >&2; exit 1",
      'plants: the token command of profile default (echo …) exited with status 1: + echo ***; no token\n',
    ],
    [
      'echo cmd-token-0123456789; echo "vault: cmd-token-0123456789 expired; got $(printf cmd-token-0123456789 | base64)" >&2; exit 1',
      'plants: the token command of profile default (echo …) exited with status 1: vault: *** expired; got ***=; no token\n',
    ],
    ["printf ''", 'plants: the token command of profile default (printf …) printed nothing; no token\n'],
    [
      "printf 'a\\nb\\n'",
      'plants: the token command of profile default (printf …) printed 2 lines; it must print the token alone, on one line; no token\n',
    ],
  ])('%j fails the run: exit 4, one line naming what went wrong, never what it printed', async (command, message) => {
    saved({ profiles: { default: { 'token-command': command, 'token-origin': ORIGIN } } });
    const r = await plants(['list'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr()).toBe(message);
  });

  it('one that does not finish in time is stopped', async () => {
    saved({ profiles: { default: { 'token-command': 'sleep 30', 'token-origin': ORIGIN } } });
    const r = await plants(['list'], { env: { ...env, PLANTS_TOKEN_COMMAND_TIMEOUT: '0.3' } });
    expect(r.code).toBe(4);
    expect(r.stderr()).toBe(
      'plants: the token command of profile default (sleep …) did not finish within 0.3 s (PLANTS_TOKEN_COMMAND_TIMEOUT); no token\n',
    );
  });

  it('has no stdin without a terminal', async () => {
    saved({ profiles: { default: { 'token-command': 'read -r line && echo "$line"', 'token-origin': ORIGIN } } });
    const r = await plants(['list'], { env, stdin: 'from-the-pipe\n' });
    expect(r.code).toBe(4);
    expect(r.stderr()).toMatch(/exited with status 1; no token\n$/);
  });

  it('is refused with --with-token or --insecure-storage, and empty', async () => {
    for (const [flags, message] of [
      [['--token-command', 'x', '--with-token'], '--token-command and --with-token cannot be used together'],
      [['--token-command', 'x', '--insecure-storage'], '--token-command keeps no token'],
      [['--token-command', ' '], 'invalid --token-command: it must not be empty'],
    ] as const) {
      const r = await plants(['auth', 'login', ...flags], { env, prompter: scriptedPrompter() });
      expect(r.code).toBe(2);
      expect(r.stderr()).toContain(message);
    }
  });
});

describe('why no keyring can be used, in words a person can act on', () => {
  it.each([
    [
      'Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead',
      'no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set',
    ],
    [
      'Platform failure: DBus error: Failed to connect to socket /run/user/0/bus: No such file or directory',
      'no D-Bus session bus at /run/user/0/bus',
    ],
    [
      'Platform failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files',
      'no Secret Service on the D-Bus session bus',
    ],
    [
      "Couldn't access platform storage: Secret Service: no result found",
      'the Secret Service has no default keyring to keep it in',
    ],
    ['Platform failure: something new\nmore', 'something new'],
    ['', 'unknown error'],
  ])('%j: %s', (message, reason) => {
    expect(keyringReason(new Error(message))).toBe(reason);
  });
});

describe('how a token command is named: never what may be a secret', () => {
  it.each([
    ['op read op://ops/plants/token', 'op …'],
    ['secret-tool', 'secret-tool'],
    ['VAULT_TOKEN=hvs.Secret123 vault kv get -field=token secret/plants', 'vault …'],
    ['env A=1 B=2 pass show plants', 'pass …'],
    ['X=secret', 'a command …'],
  ])('%j is shown as %j', (command, shown) => {
    expect(shownCommand(command)).toBe(shown);
  });
});

describe('what a token command prints must be a token', () => {
  it('whitespace, control or non-ASCII characters inside it: exit 4, never the output', async () => {
    saved({ profiles: { default: { 'token-command': "printf 'a b'", 'token-origin': ORIGIN } } });
    const r = await plants(['list'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr()).toBe(
      'plants: the token command of profile default (printf …) printed a token with whitespace, control or non-ASCII characters; make it print the token alone\n',
    );
  });

  it('a command that leaves something running that holds its output open is not waited on', async () => {
    saved({ profiles: { default: { 'token-command': '(sleep 30 &) ; echo cmd-token', 'token-origin': ORIGIN } } });
    check(200, 'cmd-token');
    const r = await plants(['auth', 'status'], { env });
    expect(r.code).toBe(0);
  });

  it('more than 64 KiB of output is refused', async () => {
    saved({
      profiles: { default: { 'token-command': 'head -c 70000 /dev/zero | tr "\\0" a', 'token-origin': ORIGIN } },
    });
    const r = await plants(['list'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr()).toMatch(/printed more than 64 KiB; no token/);
  });

  it("runs through the user's shell", async () => {
    saved({
      profiles: {
        default: { 'token-command': 'echo "$0" | grep -q bash && echo shell-token', 'token-origin': ORIGIN },
      },
    });
    check(200, 'shell-token');
    const r = await plants(['auth', 'status'], { env: { ...env, SHELL: '/bin/bash' } });
    expect(r.code).toBe(0);
  });
});
