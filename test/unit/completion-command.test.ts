import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { completionScript } from '../../src/completion/scripts.js';
import { inProcess, ORIGIN } from '../helpers/in-process.js';

const TOKEN = 'completion-command-test-token';
const { plants, service, agent, configDir } = inProcess(TOKEN);

const json = { headers: { 'content-type': 'application/json' } };
const saved = (config: object) =>
  writeFileSync(join(configDir(), 'config.json'), JSON.stringify(config), { mode: 0o600 });
/** What the shell scripts run: `plants __complete -- <words>`. */
const complete = (...words: string[]) => plants(['__complete', '--', ...words]);
const listed = (body: object, origin = ORIGIN, path = '/plants') =>
  agent().get(origin).intercept({ path, method: 'GET' }).reply(200, body, json);

describe('plants completion <shell>', () => {
  it.each(['bash', 'zsh', 'fish'])('%s: prints the script, as checked in under completions/', async (shell) => {
    const r = await plants(['completion', shell]);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('');
    expect(r.stdout()).toBe(completionScript(shell as 'bash' | 'zsh' | 'fish'));
    expect(r.stdout()).toContain('plants __complete --');
  });

  it('without a shell: exit 2, naming the argument', async () => {
    const r = await plants(['completion']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe("plants: missing required argument 'shell' (see --help)\n");
  });

  it('refuses another shell with exit 2, naming the choices', async () => {
    const r = await plants(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toMatch(/tcsh.*bash, zsh, fish/);
  });

  it('the checked-in bash script is what it prints', async () => {
    const file = readFileSync(new URL('../../completions/plants.bash', import.meta.url), 'utf8');
    expect((await plants(['completion', 'bash'])).stdout()).toBe(file);
  });
});

describe('plants __complete', () => {
  it('with no words offers the commands, and is hidden from help', async () => {
    const r = await plants(['__complete']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toMatch(/^list\t.+$/m);
    expect(r.stdout()).toMatch(/^config\t.+$/m);
    expect((await plants(['--help'])).stdout()).not.toContain('__complete');
  });

  it('offers the ids of the listed plants, their names as descriptions', async () => {
    listed([{ id: 7, name: 'Fern' }, { id: 'a-1', name: 'Aloe' }, { name: 'no id' }]);
    const r = await complete('delete', '');
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('');
    expect(r.stdout()).toBe('7\tFern\na-1\tAloe\n');
  });

  it('escapes control characters in a description, and leaves out an id it could not insert as it is', async () => {
    listed([
      { id: 'ok', name: 'evil\u001b]0;owned\u0007' },
      { id: 'x\u001b[2J', name: 'hidden' },
      { id: 'tab\tid', name: 'hidden too' },
    ]);
    const r = await complete('delete', '');
    expect(r.stdout()).toBe('ok\tevil\\u001b]0;owned\\u0007\n');
  });

  it('asks the profile and the base URL typed on the line being completed', async () => {
    saved({ profiles: { staging: { 'base-url': 'https://staging.test/api', token: TOKEN } } });
    listed([{ id: 's1', name: 'Staged' }], 'https://staging.test', '/api/plants');
    const fromProfile = await plants(['__complete', '--', '--profile', 'staging', 'delete', ''], {
      env: { PLANTS_BASE_URL: undefined },
    });
    expect(fromProfile.stdout()).toBe('s1\tStaged\n');

    listed([{ id: 'f1', name: 'Flagged' }], 'https://flag.test');
    const fromFlag = await complete('--base-url', 'https://flag.test', 'delete', '');
    expect(fromFlag.stdout()).toBe('f1\tFlagged\n');
  });

  it("offers no ids for a base URL of another origin than the profile's token is for: the token is not sent", async () => {
    saved({
      profiles: {
        staging: { 'base-url': 'https://staging.test', token: TOKEN, 'token-origin': 'https://staging.test' },
      },
    });
    listed([{ id: 'o1', name: 'Other' }], 'https://other.test');
    for (const env of [{ PLANTS_BASE_URL: 'https://other.test' }, { PLANTS_BASE_URL: undefined }]) {
      const args = env.PLANTS_BASE_URL ? [] : ['--base-url', 'https://other.test'];
      const r = await plants(['__complete', '--', '--profile', 'staging', ...args, 'delete', ''], {
        env: { ...env, PLANTS_TOKEN: undefined },
      });
      expect(r.code).toBe(0);
      expect(r.stdout() + r.stderr()).toBe('');
    }
    // No request was sent: the answer is still waiting. Take it, so the test ends clean.
    expect(agent().pendingInterceptors()).toHaveLength(1);
    await (await request('https://other.test/plants', { dispatcher: agent() })).body.dump();
  });

  it('says nothing and exits 0 when the list cannot be had', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(500, 'boom');
    const r = await complete('delete', '');
    expect(r.code).toBe(0);
    expect(r.stdout() + r.stderr()).toBe('');
    const noToken = await plants(['__complete', '--', 'delete', ''], { env: { PLANTS_TOKEN: undefined } });
    expect(noToken.code).toBe(0);
    expect(noToken.stdout() + noToken.stderr()).toBe('');
  });

  it('does not retry: a shell prompt cannot wait for backoff', async () => {
    service().intercept({ path: '/plants', method: 'GET' }).reply(503, 'busy');
    listed([{ id: 1, name: 'Fern' }]);
    const r = await plants(['__complete', '--', 'delete', ''], { env: { PLANTS_RETRIES: '2' } });
    expect(r.code).toBe(0);
    expect(r.stdout() + r.stderr()).toBe('');
    // One request was sent: the second answer is still waiting. Take it, so the test ends clean.
    expect(agent().pendingInterceptors()).toHaveLength(1);
    await (await request(`${ORIGIN}/plants`, { dispatcher: agent() })).body.dump();
  });

  it('offers the profiles, the default always, with their base URLs', async () => {
    saved({ profiles: { staging: { 'base-url': 'https://user:pw@staging.test/' }, prod: {} } });
    const r = await complete('config', 'use', '');
    expect(r.code).toBe(0);
    const lines = r.stdout().split('\n');
    expect(lines).toContain('default\t');
    expect(lines).toContain('prod\t');
    expect(r.stdout()).toMatch(/^staging\thttps:\/\/.*staging\.test/m);
    expect(r.stdout()).not.toContain('pw');
    expect(r.stdout().match(/^default\t/gm)).toHaveLength(1);
  });

  it("masks each profile's token where its base URL holds it", async () => {
    saved({ profiles: { staging: { 'base-url': 'https://staging.test/k-81fa22c9e0', token: 'k-81fa22c9e0' } } });
    const r = await complete('config', 'use', '');
    expect(r.stdout().split('\n')).toContain('staging\thttps://staging.test/***');
  });

  it('offers the profiles to config delete-profile too', async () => {
    saved({ profiles: { staging: {} } });
    const r = await complete('config', 'delete-profile', '');
    expect(r.stdout().split('\n')).toEqual(expect.arrayContaining(['default\t', 'staging\t']));
  });

  it('offers the profiles for --profile, whatever profile is selected', async () => {
    saved({ profiles: { default: { 'base-url': ORIGIN }, staging: {} } });
    const r = await complete('--profile', '');
    expect(r.stdout()).toMatch(/^default\thttps:\/\/plants\.test/m);
    expect(r.stdout()).toMatch(/^staging\t$/m);
  });
});
