import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { createIOStreams } from '../../src/output/iostreams.js';
import { inProcess, ORIGIN } from '../helpers/in-process.js';
import { scriptedPrompter } from '../helpers/io.js';

const TOKEN = 'auth-commands-test-token';
const { plants, service, configDir } = inProcess(TOKEN);

const configFile = () => join(configDir(), 'config.json');
const saved = (config: object) => writeFileSync(configFile(), JSON.stringify(config), { mode: 0o600 });
const stored = (): unknown => JSON.parse(readFileSync(configFile(), 'utf8'));
const json = { headers: { 'content-type': 'application/json' } };
/** Neither token nor base URL from the environment: what is stored counts. */
const noEnv = { PLANTS_TOKEN: undefined, PLANTS_BASE_URL: undefined };
/** No token from the environment; the base URL is ORIGIN, which auth login checks a token with. */
const noToken = { PLANTS_TOKEN: undefined };

/** The service takes the token at login's check (GET /plants?limit=1). */
function accepts() {
  service()
    .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
    .reply(200, [], json);
}

describe('auth login', () => {
  it('stores the token typed at the hidden prompt, trimmed, in the selected profile', async () => {
    saved({ profiles: { staging: {} } });
    accepts();
    const prompter = scriptedPrompter({ secret: ['  typed-token \n'] });
    const r = await plants(['--profile', 'staging', 'auth', 'login'], { tty: true, prompter, env: noToken });
    expect(r.code).toBe(0);
    expect(prompter.questions).toEqual(['Paste your token: ']);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toBe(`✓ Token stored for profile staging in ${configFile()}, for ${ORIGIN}\n`);
    expect(stored()).toEqual({ profiles: { staging: { token: 'typed-token', 'token-origin': ORIGIN } } });
  });

  it('a new profile: said before the token is asked for, and created only once the token is stored', async () => {
    saved({ profiles: { default: {} } });
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(401, { error: 401, message: 'bad token' }, json);
    const notice = 'plants: profile staging is new: it is created once the token is stored\n';
    const refused = await plants(['--profile', 'staging', 'auth', 'login', '--with-token'], {
      stdin: 'wrong-token',
      env: noToken,
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr()).toMatch(
      new RegExp(`^${notice}plants: the service refused this token \\(401 Unauthorized\\); nothing was stored`),
    );
    expect(refused.stderr()).not.toMatch(/creating profile/);
    expect(stored()).toEqual({ profiles: { default: {} } });
    accepts();
    const r = await plants(['--profile', 'staging', 'auth', 'login', '--with-token'], { stdin: 'good', env: noToken });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(notice);
    expect(stored()).toEqual({ profiles: { default: {}, staging: { token: 'good', 'token-origin': ORIGIN } } });
  });

  it('--with-token reads stdin, trimmed, and stores it silently when piped', async () => {
    accepts();
    const r = await plants(['auth', 'login', '--with-token'], { stdin: '\n  piped-token\r\n', env: noToken });
    expect(r.code).toBe(0);
    expect(r.stdout() + r.stderr()).toBe('');
    expect(stored()).toEqual({ profiles: { default: { token: 'piped-token', 'token-origin': ORIGIN } } });
  });

  it('--with-token refuses a terminal, where the token would be echoed, and asks nothing', async () => {
    const r = await plants(['auth', 'login', '--with-token'], { tty: true, env: noToken });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      "plants: --with-token reads the token from a pipe (printenv PLANTS_CI_TOKEN | plants auth login --with-token); at a terminal, run 'plants auth login' without it\n",
    );
    expect(existsSync(configFile())).toBe(false);
  });

  it('without a terminal and without --with-token: exit 2, naming the flag, nothing read', async () => {
    const r = await plants(['auth', 'login'], { stdin: 'piped-token\n', env: noToken });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: stdin is not a terminal; pass --with-token to read the token from it (e.g. printenv PLANTS_CI_TOKEN | plants auth login --with-token)\n',
    );
    expect(existsSync(configFile())).toBe(false);
  });

  it.each([
    ['empty input', ['--with-token'], { stdin: ' \n' }],
    ['an empty answer at the prompt', [], { tty: true, prompter: scriptedPrompter({ secret: ['\n'] }) }],
  ])('refuses %s: nothing is stored', async (_name, flags, options) => {
    const r = await plants(['auth', 'login', ...flags], { ...options, env: noToken });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe('plants: no token was given; nothing was stored\n');
    expect(existsSync(configFile())).toBe(false);
  });

  it('refuses a bad token from the prompt, naming the prompt, without echoing it', async () => {
    const prompter = scriptedPrompter({ secret: ['tökén'] });
    const r = await plants(['auth', 'login'], { tty: true, prompter, env: noToken });
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: the token from the prompt contains whitespace, control or non-ASCII characters; nothing was stored\n',
    );
    expect(existsSync(configFile())).toBe(false);
  });

  it('reads at most 64 KiB: a larger input is refused, a token of exactly that size stored', async () => {
    const big = await plants(['auth', 'login', '--with-token'], { stdin: 'x'.repeat(64 * 1024 + 1), env: noToken });
    expect(big.code).toBe(2);
    expect(big.stderr()).toBe(
      'plants: the input is larger than 65536 bytes, too large for a token; nothing was stored\n',
    );
    expect(existsSync(configFile())).toBe(false);
    accepts();
    const edge = await plants(['auth', 'login', '--with-token'], { stdin: 'y'.repeat(64 * 1024), env: noToken });
    expect(edge.code).toBe(0);
    expect(stored()).toEqual({ profiles: { default: { token: 'y'.repeat(64 * 1024), 'token-origin': ORIGIN } } });
  });

  it('--with-token: a failure to read stdin is reported as such (exit 1), not as a token too large', async () => {
    let stderr = '';
    const sink = (keep: boolean) =>
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          if (keep) stderr += chunk.toString();
          callback();
        },
      });
    const stdin = new Readable({
      read() {
        this.destroy(Object.assign(new Error('read EIO'), { code: 'EIO' }));
      },
    });
    const io = createIOStreams(
      { stdin, stdout: sink(false), stderr: sink(true) },
      { stdin: false, stdout: false, stderr: false },
      { stdout: false, stderr: false },
      (_stream, text) => (stderr += text),
    );
    const code = await main(['auth', 'login', '--with-token'], {
      io,
      env: { PLANTS_CONFIG_DIR: configDir(), PLANTS_BASE_URL: ORIGIN, PLANTS_KEYRING: 'off' },
      prompter: scriptedPrompter(),
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/read EIO/);
    expect(stderr).not.toMatch(/too large/);
    expect(existsSync(configFile())).toBe(false);
  });

  it('warns on a terminal too that PLANTS_TOKEN takes precedence', async () => {
    accepts();
    const prompter = scriptedPrompter({ secret: ['typed-token'] });
    const r = await plants(['auth', 'login'], { tty: true, prompter, env: { PLANTS_TOKEN: 'other' } });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      `✓ Token stored for profile default in ${configFile()}, for ${ORIGIN}\n` +
        'plants: warning: PLANTS_TOKEN is set in the environment and takes precedence over the stored token\n',
    );
  });
});

describe('auth logout', () => {
  it('removes the stored token of the selected profile only, saying so on a terminal', async () => {
    saved({
      profiles: {
        default: { token: 'a', 'token-origin': 'https://a.test' },
        staging: { 'base-url': 'https://b.test', token: 'b', 'token-origin': 'https://b.test' },
      },
    });
    const r = await plants(['--profile', 'staging', 'auth', 'logout'], { tty: true, env: noEnv });
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toBe(`✓ Removed the token of profile staging from ${configFile()}\n`);
    expect(stored()).toEqual({
      profiles: {
        default: { token: 'a', 'token-origin': 'https://a.test' },
        staging: { 'base-url': 'https://b.test' },
      },
    });
  });

  it('is silent when piped', async () => {
    saved({ profiles: { default: { token: 'a' } } });
    const r = await plants(['auth', 'logout'], { env: noEnv });
    expect(r.code).toBe(0);
    expect(r.stdout() + r.stderr()).toBe('');
    expect(stored()).toEqual({ profiles: { default: {} } });
  });

  it('says when no token is stored, even when piped, and changes nothing', async () => {
    saved({ profiles: { default: { 'base-url': 'https://a.test' } } });
    const r = await plants(['auth', 'logout'], { env: noEnv });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('No token is stored for profile default\n');
    expect(stored()).toEqual({ profiles: { default: { 'base-url': 'https://a.test' } } });
  });

  it('removes the temporary files a killed run left (copies of the file, token and all), even with no token stored', async () => {
    saved({ profiles: { default: { 'base-url': 'https://a.test' } } });
    // Of a run that has ended: above the largest pid Linux hands out.
    const leftovers = [`${configFile()}.4194305.k3x9q2ab.tmp`, `${configFile()}.4194305.p0d7.tmp`];
    for (const file of leftovers) writeFileSync(file, '{"profiles":{"default":{"token":"left-behind"}}}');
    const r = await plants(['auth', 'logout'], { env: noEnv });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      `Removed 2 temporary files that an interrupted run left beside ${configFile()}\n` +
        'No token is stored for profile default\n',
    );
    expect(readdirSync(configDir())).toEqual(['config.json']);
  });

  it('warns that PLANTS_TOKEN is still set and will be used', async () => {
    saved({ profiles: { default: { token: 'a' } } });
    const r = await plants(['auth', 'logout']);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('plants: warning: PLANTS_TOKEN is still set in the environment and will be used\n');
    expect(stored()).toEqual({ profiles: { default: {} } });
  });
});

describe('auth status', () => {
  const accept = () =>
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(200, [{ id: 1, name: 'Aloe' }], json);

  it('shows the settings from the environment and checks them with GET /plants?limit=1', async () => {
    accept();
    const r = await plants(['auth', 'status']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe(
      [
        'Profile:  default',
        `Base URL: ${ORIGIN} (from PLANTS_BASE_URL)`,
        'Token:    set (from PLANTS_TOKEN)',
        'Store:    environment',
        'Check:    the service accepted the token (GET /plants?limit=1)',
        '',
      ].join('\n'),
    );
    expect(r.stderr()).toBe('');
  });

  it('names the profile and the file for stored values, and where the profile came from', async () => {
    saved({ profiles: { staging: { 'base-url': `${ORIGIN}/`, token: TOKEN } } });
    accept();
    const r = await plants(['auth', 'status'], { env: { ...noEnv, PLANTS_PROFILE: 'staging' } });
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe(
      [
        'Profile:  staging (from PLANTS_PROFILE)',
        `Base URL: ${ORIGIN} (from config file ${configFile()}, profile staging)`,
        `Token:    set (from config file ${configFile()}, profile staging)`,
        'Store:    file',
        `Bound to: ${ORIGIN}`,
        'Check:    the service accepted the token (GET /plants?limit=1)',
        '',
      ].join('\n'),
    );
  });

  it('masks the token where the base URL holds it as a path segment, as is or percent-encoded', async () => {
    for (const segment of [TOKEN, encodeURIComponent(TOKEN).replaceAll('-', '%2D')]) {
      service()
        .intercept({ path: `/${segment}/plants`, method: 'GET', query: { limit: '1' } })
        .reply(200, [], json);
      const r = await plants(['auth', 'status'], { env: { PLANTS_BASE_URL: `${ORIGIN}/${segment}` } });
      expect(r.code).toBe(0);
      expect(r.stdout()).toContain(`Base URL: ${ORIGIN}/*** (from PLANTS_BASE_URL)\n`);
    }
  });

  it('a --base-url flag wins, and is named', async () => {
    service()
      .intercept({ path: '/v2/plants', method: 'GET', query: { limit: '1' } })
      .reply(200, [], json);
    const r = await plants(['--base-url', `${ORIGIN}/v2`, 'auth', 'status']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toMatch(/^Base URL: https:\/\/plants\.test\/v2 \(from --base-url\)$/m);
  });

  it('shows what is missing, then fails the check with the exit code of the failure', async () => {
    const r = await plants(['auth', 'status'], { env: noEnv });
    expect(r.code).toBe(2);
    expect(r.stdout()).toBe('Profile:  default\nBase URL: not set\nToken:    not set\n');
    expect(r.stderr()).toMatch(/^plants: no base URL configured/);
  });

  it('a PLANTS_TOKEN it cannot use is said to be set, but not usable, not "not set"', async () => {
    const r = await plants(['auth', 'status'], { env: { PLANTS_TOKEN: 'tok secret' } });
    expect(r.code).toBe(2);
    expect(r.stdout()).toContain('Token:    set (from PLANTS_TOKEN), but not usable (see below)\n');
    expect(r.stderr()).toMatch(/^plants: the token from PLANTS_TOKEN contains whitespace/);
    const j = await plants(['auth', 'status', '--json'], { env: { PLANTS_TOKEN: 'tok secret' } });
    expect(JSON.parse(j.stdout())).toMatchObject({ token_source: 'PLANTS_TOKEN', token_store: null, accepted: false });
  });

  it('never echoes an invalid base URL, which may hold credentials', async () => {
    const r = await plants(['auth', 'status'], { env: { PLANTS_BASE_URL: 'ftp://user:hunter2@x' } });
    expect(r.code).toBe(2);
    expect(r.stdout()).toMatch(/^Base URL: invalid \(from PLANTS_BASE_URL\)$/m);
    expect(r.stdout() + r.stderr()).not.toContain('hunter2');
  });

  it('exits 4 when the service refuses the token, after showing the settings', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET', query: { limit: '1' } })
      .reply(401, { error: 401, message: 'bad token' }, json);
    const r = await plants(['auth', 'status']);
    expect(r.code).toBe(4);
    expect(r.stdout()).toMatch(/^Token: {4}set \(from PLANTS_TOKEN\)$/m);
    expect(r.stdout()).not.toContain('Check:');
    expect(r.stderr()).toMatch(/401 Unauthorized: bad token/);
  });
});

describe('plants auth', () => {
  it('names its subcommands in its help', async () => {
    const r = await plants(['auth', '--help']);
    expect(r.code).toBe(0);
    for (const verb of ['login', 'logout', 'status']) expect(r.stdout()).toMatch(new RegExp(`^  ${verb} `, 'm'));
  });
});
