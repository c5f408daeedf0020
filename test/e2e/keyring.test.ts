import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { againstStore } from '../helpers/against-store.js';
import { ROOT } from '../helpers/cli.js';
import { describeWithSecretService, withSilentBus } from '../helpers/secret-service-suite.js';
import { TOKEN } from '../helpers/servers.js';

/**
 * The token in a real OS keyring: GNOME Keyring on a private D-Bus session
 * bus (test/helpers/secret-service.ts), as bin/plants.js finds it through
 * DBUS_SESSION_BUS_ADDRESS; and the fallback to the config file where no
 * D-Bus is reachable at all.
 */
const setup = againstStore({ seed: 3 });
const { plants } = setup;

describeWithSecretService('with a real Secret Service', (suite) => {
  const { keyringEnv } = suite;
  const config = () => readFileSync(join(setup.dir.path, 'config.json'), 'utf8');

  it('auth login keeps the token there, checked; runs read it; logout removes it', async () => {
    const env = keyringEnv();
    const login = await plants(['auth', 'login', '--with-token'], { env, input: `${TOKEN}\n` });
    expect(login).toMatchObject({ code: 0, stderr: '' });
    const account = `default ${new URL(setup.store.url).origin}`;
    // Kept by the Secret Service under the profile and the origin; the file only records where.
    expect(suite.service.secretTool(['lookup', 'service', 'plants', 'username', account])).toBe(TOKEN);
    expect(JSON.parse(config())).toEqual({
      profiles: { default: { 'token-keyring': new URL(setup.store.url).origin } },
    });
    expect(config()).not.toContain(TOKEN);

    const list = await plants(['list', '--json'], { env });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toHaveLength(3);
    const status = await plants(['auth', 'status'], { env });
    expect(status.stdout).toContain('Store:    keyring (Secret Service)\n');

    const logout = await plants(['auth', 'logout'], { env });
    expect(logout.code).toBe(0);
    expect(suite.service.secretTool(['lookup', 'service', 'plants', 'username', account])).toBeNull();
    expect((await plants(['list'], { env })).code).toBe(4);
  });

  it('PLANTS_KEYRING=on keeps the token there too, and a run reads it for its origin only', async () => {
    const env = { ...keyringEnv(), PLANTS_KEYRING: 'on' };
    const login = await plants(['auth', 'login', '--with-token'], { env, input: TOKEN });
    expect(login).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(config())).toEqual({
      profiles: { default: { 'token-keyring': new URL(setup.store.url).origin } },
    });
    expect((await plants(['list'], { env })).code).toBe(0);
    // The same host on another port is another origin: the keyring is not even asked.
    const other = new URL(setup.store.url);
    other.port = String(Number(other.port) === 65535 ? 1 : Number(other.port) + 1);
    const elsewhere = await plants(['--base-url', other.href, 'list'], { env });
    expect(elsewhere.code).toBe(4);
    expect(elsewhere.stderr).toMatch(/^plants: the token of profile default \(kept in the OS keyring\) is for /);
    expect((await plants(['auth', 'logout'], { env })).code).toBe(0);
  });

  it('a wrong token is refused by the service and never reaches the keyring', async () => {
    const env = keyringEnv();
    const r = await plants(['auth', 'login', '--with-token'], { env, input: 'not-the-token' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^plants: the service refused this token \(401 Unauthorized\); nothing was stored/);
    expect(suite.service.secretTool(['search', '--all', 'service', 'plants'])).toBe('');
  });

  it('a token command reads it from the Secret Service (secret-tool lookup), once per run', async () => {
    suite.service.secretTool(['store', '--label', 'plants api', 'service', 'plants-api'], TOKEN);
    const env = keyringEnv();
    const login = await plants(['auth', 'login', '--token-command', 'secret-tool lookup service plants-api'], {
      env,
    });
    expect(login).toMatchObject({ code: 0, stderr: '' });
    expect(config()).not.toContain(TOKEN);
    const status = await plants(['auth', 'status', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ token_store: 'command', accepted: true });
    const list = await plants(['list', '--json'], { env });
    expect(list.code).toBe(0);
  });
});

// Elsewhere the OS keyring would be the user's own: these run on Linux only.
describe.skipIf(process.platform !== 'linux')('with no D-Bus at all', () => {
  it('a session bus that takes the connection and never answers: the run ends at PLANTS_KEYRING_TIMEOUT, exit 4', async () => {
    await withSilentBus(setup.dir.path, async (address) => {
      writeFileSync(
        join(setup.dir.path, 'config.json'),
        JSON.stringify({ profiles: { default: { 'token-keyring': new URL(setup.store.url).origin } } }),
      );
      const r = await plants(['list'], {
        env: {
          PLANTS_KEYRING: undefined,
          PLANTS_TOKEN: undefined,
          PLANTS_KEYRING_TIMEOUT: '1',
          DBUS_SESSION_BUS_ADDRESS: address,
        },
      });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/cannot be read: no answer within 1 s \(is it locked, or waiting on a prompt\?\)/);
    });
  });

  it('auth login keeps the token in the config file and says why in one line', async () => {
    const r = await plants(['auth', 'login', '--with-token'], {
      env: { PLANTS_KEYRING: undefined, PLANTS_TOKEN: undefined, DBUS_SESSION_BUS_ADDRESS: undefined },
      input: TOKEN,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^plants: warning: no OS keyring can be used \(.+\); the token is kept in the config file .*config\.json \(mode 0600\) instead\n$/,
    );
    expect((await plants(['list'], { env: { PLANTS_TOKEN: undefined } })).code).toBe(0);
  });
});

describe.skipIf(process.platform !== 'linux')(
  'the keyring binding is loaded only by a run that needs the token from the keyring',
  () => {
    const watched = { NODE_OPTIONS: `--require ${join(ROOT, 'test', 'helpers', 'report-keyring.cjs')}` };
    // A profile whose token is in the keyring, and the keyring not turned off: only reading the token loads it.
    const keyringProfile = () =>
      writeFileSync(
        join(setup.dir.path, 'config.json'),
        JSON.stringify({ profiles: { default: { 'token-keyring': new URL(setup.store.url).origin } } }),
      );
    const env = { ...watched, PLANTS_KEYRING: undefined };

    it.each([
      ['--help', ['--help'], {}],
      ['--version', ['--version'], {}],
      ['completion', ['completion', 'bash'], {}],
      ['a completion lookup', ['__complete', '--', 'de'], {}],
      // Completion reads the Secret Service itself, never through the binding (which may prompt).
      ['an id lookup for the keyring profile', ['__complete', '--', 'delete', ''], { PLANTS_TOKEN: undefined }],
      ['a run with PLANTS_TOKEN', ['list'], {}],
    ])('%s does not load it', async (_what, args, more) => {
      keyringProfile();
      const r = await plants(args, { env: { ...env, ...more } });
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain('keyring binding loaded');
    });

    it('a run that reads the token from it does', async () => {
      keyringProfile();
      const r = await plants(['list'], { env: { ...env, PLANTS_TOKEN: undefined } });
      expect(r.stderr).toContain('keyring binding loaded');
    });
  },
);
