import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { againstStore } from '../helpers/against-store.js';
import { tokenLeak, type CliResult } from '../helpers/cli.js';
import { describeWithSecretService, withSilentBus } from '../helpers/secret-service-suite.js';
import { TOKEN } from '../helpers/servers.js';

/**
 * Completion of plant ids for a profile whose token is kept outside the
 * config file: read from the OS keyring when it is unlocked, never with a
 * prompt (a real GNOME Keyring on a private bus, whose unlock prompter
 * counts the prompts asked for), and never from a token command.
 */
const setup = againstStore({ seed: 3 });
const { plants } = setup;
const IDS = '1\tMonstera deliciosa\n2\tFicus lyrata\n3\tSansevieria trifasciata\n';

/** Completion's answer for `plants delete <Tab>`, with the time it took; the token never in it. */
async function completeDelete(env: Record<string, string | undefined>): Promise<CliResult & { ms: number }> {
  const started = Date.now();
  const r = await plants(['__complete', '--', 'delete', ''], { env: { PLANTS_TOKEN: undefined, ...env } });
  expect(tokenLeak(r)).toBeUndefined();
  return { ...r, ms: Date.now() - started };
}

describeWithSecretService(
  'plants __complete with the token in a real Secret Service',
  (suite) => {
    const { keyringEnv } = suite;
    const login = async () => {
      const r = await plants(['auth', 'login', '--with-token'], { env: keyringEnv(), input: TOKEN });
      expect(r, r.stderr).toMatchObject({ code: 0, stderr: '' });
    };

    it('offers the ids when the keyring is unlocked', async () => {
      await login();
      const r = await completeDelete(keyringEnv());
      expect(r).toMatchObject({ code: 0, stdout: IDS, stderr: '' });
      expect(suite.service.prompts()).toBe(0);
    });

    it('offers nothing when the keyring is locked, and neither prompts nor unlocks it', async () => {
      await login();
      await suite.service.lock();
      const r = await completeDelete(keyringEnv());
      expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(r.ms).toBeLessThan(5000);
      expect(suite.service.prompts()).toBe(0);
      expect(await suite.service.locked()).toBe(true);
      // A command that needs the token does prompt: the prompter counts it.
      expect((await plants(['list'], { env: keyringEnv() })).code).toBe(4);
      expect(suite.service.prompts()).toBe(1);
    });

    it('offers nothing, quickly, when the item is not there', async () => {
      await login();
      suite.service.secretTool(['clear', 'service', 'plants']);
      const r = await completeDelete(keyringEnv());
      expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(suite.service.prompts()).toBe(0);
    });
  },
  // Each test its own: a locked keyring cannot be unlocked again without a prompt.
  { perTest: true },
);

describe('plants __complete with a token command', () => {
  it('offers nothing and does not run the command (it may prompt)', async () => {
    const marker = join(setup.dir.path, 'command-ran');
    const login = await plants(['auth', 'login', '--token-command', `touch '${marker}'; echo ${TOKEN}`], {
      env: { PLANTS_TOKEN: undefined },
    });
    expect(login, login.stderr).toMatchObject({ code: 0, stderr: '' });
    // The profile works: a command that needs the token runs it.
    rmSync(marker);
    expect((await plants(['list'], { env: { PLANTS_TOKEN: undefined } })).code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    const r = await completeDelete({});
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(marker)).toBe(false);
  });
});

describe.skipIf(process.platform !== 'linux')('plants __complete with a session bus that never answers', () => {
  it('gives up within its own short bound, not PLANTS_KEYRING_TIMEOUT: no ids', async () => {
    await withSilentBus(setup.dir.path, async (address, connections) => {
      writeFileSync(
        join(setup.dir.path, 'config.json'),
        JSON.stringify({ profiles: { default: { 'token-keyring': new URL(setup.store.url).origin } } }),
        { mode: 0o600 },
      );
      const r = await completeDelete({
        PLANTS_KEYRING: undefined,
        PLANTS_KEYRING_TIMEOUT: '60',
        DBUS_SESSION_BUS_ADDRESS: address,
      });
      expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(connections()).toBe(1);
      expect(r.ms).toBeLessThan(10_000);
    });
  });
});
