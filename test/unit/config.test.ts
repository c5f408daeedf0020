import { homedir } from 'node:os';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkToken,
  resolveBaseUrl,
  resolveProfile,
  resolveToken,
  type TokenReaders,
} from '../../src/config/settings.js';
import { openConfigStore } from '../../src/config/open.js';
import { checkConfigFile, configDir } from '../../src/config/config-file.js';
import { CHOSEN_BY_USE, noSuchProfile } from '../../src/config/profile-names.js';
import { AuthError, ConfigError, UsageError } from '../../src/shared/errors.js';
import { tempDir } from '../helpers/cli.js';
import { runCommand } from '../helpers/command.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

/** Tokens here are in the environment or the file (for http://config.test): the keyring and token commands must not be asked. */
const readers: TokenReaders = {
  keyring: () => Promise.reject(new Error('the keyring was asked')),
  command: () => Promise.reject(new Error('a token command was run')),
  baseUrl: () => Promise.resolve({ value: new URL('http://config.test'), source: 'test', profile: 'default' }),
};

describe('configDir', () => {
  it('prefers PLANTS_CONFIG_DIR, then XDG_CONFIG_HOME', () => {
    expect(configDir({ PLANTS_CONFIG_DIR: '/a', XDG_CONFIG_HOME: '/b' })).toBe('/a');
    expect(configDir({ XDG_CONFIG_HOME: '/b' })).toBe(join('/b', 'plants'));
  });

  it('makes a relative PLANTS_CONFIG_DIR absolute', () => {
    expect(configDir({ PLANTS_CONFIG_DIR: 'rel/cfg' })).toBe(join(process.cwd(), 'rel', 'cfg'));
  });

  it('ignores a relative XDG_CONFIG_HOME, as the XDG spec says, using ~/.config/plants', () => {
    expect(configDir({ XDG_CONFIG_HOME: 'rel/xdg' })).toBe(join(homedir(), '.config', 'plants'));
    expect(configDir({ XDG_CONFIG_HOME: './xdg' })).toBe(join(homedir(), '.config', 'plants'));
  });
});

describe('ConfigStore', () => {
  it('creates the file 0600 in a 0700 directory', async () => {
    const where = join(dir.path, 'nested', 'plants');
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: where });
    store.set('default', 'token', 'abc');
    expect(store.path).toBe(join(where, 'config.json'));
    expect(statSync(where).mode & 0o777).toBe(0o700);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({ profiles: { default: { token: 'abc' } } });
  });

  it('reads what another instance wrote, and deletes keys', async () => {
    const env = { PLANTS_CONFIG_DIR: dir.path };
    (await openConfigStore(env)).set('default', 'base-url', 'http://x');
    const again = await openConfigStore(env);
    expect(again.get('default', 'base-url')).toBe('http://x');
    again.delete('default', 'base-url');
    expect((await openConfigStore(env)).get('default', 'base-url')).toBeUndefined();
  });

  it('keeps profiles apart, and remembers the one in use', async () => {
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    store.set('default', 'base-url', 'http://a');
    store.set('staging', 'base-url', 'http://b');
    store.set('staging', 'token', 't');
    expect(store.profileNames()).toEqual(['default', 'staging']);
    expect(store.currentProfile).toBe('default');
    store.use('staging');
    const again = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    expect(again.currentProfile).toBe('staging');
    expect(again.get('staging', 'token')).toBe('t');
    expect(again.get('default', 'token')).toBeUndefined();
    again.deleteProfile('staging');
    expect(again.currentProfile).toBe('default');
    expect(again.profileNames()).toEqual(['default']);
  });

  it('moves a file from before profiles into the default profile, losing nothing', async () => {
    const file = join(dir.path, 'config.json');
    writeFileSync(file, JSON.stringify({ 'base-url': 'http://old', token: 'old-token' }));
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    expect(store.get('default', 'base-url')).toBe('http://old');
    expect(store.get('default', 'token')).toBe('old-token');
    // ...and its token, bound to no origin before, is bound to the base URL's.
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: { default: { 'base-url': 'http://old', token: 'old-token', 'token-origin': 'http://old' } },
    });
  });

  it('refuses a corrupted file without wiping it, naming its path', async () => {
    const file = join(dir.path, 'config.json');
    writeFileSync(file, '{"base-url": "http://x",', { mode: 0o600 });
    const err = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toMatch(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{"base-url": "http://x",');
  });

  it.each(['[1,2]', '42', 'null', '"text"'])(
    'refuses %s, which is JSON but not an object, and leaves it alone',
    async (text) => {
      const file = join(dir.path, 'config.json');
      writeFileSync(file, text);
      await expect(openConfigStore({ PLANTS_CONFIG_DIR: dir.path })).rejects.toThrow(
        `cannot read the config file ${file}: it is not a JSON object`,
      );
      expect(readFileSync(file, 'utf8')).toBe(text);
    },
  );

  it('reads a file saved with a UTF-8 byte order mark as if it were not there; the next write leaves it out', async () => {
    const file = join(dir.path, 'config.json');
    writeFileSync(file, '\uFEFF{"profiles": {"default": {"base-url": "http://bom"}}}', { mode: 0o600 });
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    expect(store.get('default', 'base-url')).toBe('http://bom');
    store.set('default', 'token', 't');
    expect(readFileSync(file, 'utf8').startsWith('{')).toBe(true);
    expect(store.get('default', 'base-url')).toBe('http://bom');
  });

  it('refuses a file saved as UTF-16, saying so', async () => {
    const file = join(dir.path, 'config.json');
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{}', 'utf16le')]));
    await expect(openConfigStore({ PLANTS_CONFIG_DIR: dir.path })).rejects.toThrow(
      new ConfigError(
        `cannot read the config file ${file}: it is saved as UTF-16 (it starts with a UTF-16 byte order mark), not as UTF-8; fix it, or remove it and configure again`,
      ),
    );
  });

  it.each([
    ['100,000 [ (not even JSON)', '['.repeat(100_000)],
    ['a valid value nested 100,000 deep in a profile', `{"profiles":{"x":{"y":${'['.repeat(1e5)}${']'.repeat(1e5)}}}}`],
    ['33 levels', `${'['.repeat(33)}${']'.repeat(33)}`],
  ])('refuses a file nested too deeply (%s) before parsing it, and leaves it alone', async (_case, text) => {
    const file = join(dir.path, 'config.json');
    writeFileSync(file, text);
    await expect(openConfigStore({ PLANTS_CONFIG_DIR: dir.path })).rejects.toThrow(
      new ConfigError(
        `cannot read the config file ${file}: it is nested more than 32 levels deep (a config file needs 4); fix it, or remove it and configure again`,
      ),
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  // JSON.parse keeps the last of two keys alike: a second "protected" block would drop the first one's
  // rules unsaid, and the next write would drop them from the file.
  it.each([
    [
      '"protected"',
      '{"profiles":{"default":{"protected":{"ids":["42"]},"base-url":"http://x","protected":{"tags":["t"]}}}}',
    ],
    ['"ids"', '{"profiles":{"default":{"protected":{"ids":["42"],"ids":["43"]}}}}'],
    ['"default"', '{"profiles":{"default":{"max-deletes":"5"},"default":{}}}'],
    ['"base-url"', '{"profiles":{"p":{"base-url":"http://a","base-url":"http://b"}}}'],
    ['"max-deletes"', '{"profiles":{"p":{"max-deletes":"5","max\\u002ddeletes":"500"}}}'],
  ])('refuses a key written twice in one object (%s), and leaves the file alone', async (key, text) => {
    const file = join(dir.path, 'config.json');
    writeFileSync(file, text);
    await expect(openConfigStore({ PLANTS_CONFIG_DIR: dir.path })).rejects.toThrow(
      new ConfigError(
        `cannot read the config file ${file}: it has the key ${key} twice in one object, and only the last would be read; fix it, or remove it and configure again`,
      ),
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('takes the same key in different objects, and text that only looks like keys', async () => {
    writeFileSync(
      join(dir.path, 'config.json'),
      JSON.stringify({
        profiles: {
          a: { 'base-url': 'http://a', protected: { ids: ['1', '1'] } },
          b: { 'base-url': 'http://b,"base-url":"x"', protected: { ids: ['1'] } },
        },
      }),
    );
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    expect(store.get('b', 'base-url')).toBe('http://b,"base-url":"x"');
  });

  it('takes a value that is the same text as a key of its object', async () => {
    writeFileSync(join(dir.path, 'config.json'), '{"profile":"profile","profiles":{"profile":{"max-deletes":"5"}}}');
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    expect(store.get('profile', 'max-deletes')).toBe('5');
  });

  it('counts only brackets outside strings when measuring how deep a file nests', async () => {
    writeFileSync(
      join(dir.path, 'config.json'),
      JSON.stringify({ profiles: { default: { 'base-url': `http://x/${'[{'.repeat(100)}"\\` } } }),
    );
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    expect(store.get('default', 'base-url')).toBe(`http://x/${'[{'.repeat(100)}"\\`);
  });

  it('refuses values of the wrong type', async () => {
    writeFileSync(join(dir.path, 'config.json'), '{"base-url": 5}');
    await expect(openConfigStore({ PLANTS_CONFIG_DIR: dir.path })).rejects.toThrow(/"base-url" must be a string/);
    writeFileSync(join(dir.path, 'config.json'), '{"profiles": {"x": {"token": 1}}}');
    await expect(openConfigStore({ PLANTS_CONFIG_DIR: dir.path })).rejects.toThrow(
      /"token" of profile "x" must be a string/,
    );
  });

  it('explains an unusable directory', async () => {
    // A regular file where a directory must go stops even root.
    writeFileSync(join(dir.path, 'file'), '');
    const where = join(dir.path, 'file', 'plants');
    await expect(openConfigStore({ PLANTS_CONFIG_DIR: where })).rejects.toThrow(/cannot create the config directory/);
  });
});

describe('precedence: flag > environment > config file', () => {
  const profile = () => Promise.resolve('default');

  async function storeWith(values: Record<string, string>) {
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    for (const [key, value] of Object.entries(values)) store.set('default', key as 'token', value);
    return () => Promise.resolve(store);
  }

  it('resolves the base URL from each source in order', async () => {
    const store = await storeWith({ 'base-url': 'http://config.test' });
    const env = { PLANTS_BASE_URL: 'http://env.test' };
    expect((await resolveBaseUrl('http://flag.test', env, store, profile)).value.host).toBe('flag.test');
    expect((await resolveBaseUrl(undefined, env, store, profile)).source).toBe('PLANTS_BASE_URL');
    const fromFile = await resolveBaseUrl(undefined, {}, store, profile);
    expect(fromFile.value.host).toBe('config.test');
    expect(fromFile.source).toMatch(/^config file .*config\.json, profile default$/);
  });

  it('treats an empty or blank environment variable as unset', async () => {
    const store = await storeWith({ 'base-url': 'http://config.test', token: 'file-token' });
    for (const blank of ['', ' ', '\n']) {
      expect((await resolveBaseUrl(undefined, { PLANTS_BASE_URL: blank }, store, profile)).value.host).toBe(
        'config.test',
      );
      expect((await resolveToken({ PLANTS_TOKEN: blank }, store, profile, readers)).value).toBe('file-token');
    }
  });

  it('says how to fix an invalid token, by where it came from', async () => {
    const store = await storeWith({ 'base-url': 'http://config.test', token: 'two words' });
    await expect(resolveToken({ PLANTS_TOKEN: 'a b' }, store, profile, readers)).rejects.toThrow(
      /PLANTS_TOKEN .*correct the PLANTS_TOKEN variable/,
    );
    await expect(resolveToken({}, store, profile, readers)).rejects.toThrow(
      /config file .*store it again with 'plants auth login'/,
    );
  });

  it('says how to set a missing base URL (usage) and a missing token (auth)', async () => {
    const store = await storeWith({});
    await expect(resolveBaseUrl(undefined, {}, store, profile)).rejects.toThrow(ConfigError);
    await expect(resolveBaseUrl(undefined, {}, store, profile)).rejects.toThrow(
      /plants config set base-url.*PLANTS_BASE_URL/,
    );
    await expect(resolveToken({}, store, profile, readers)).rejects.toThrow(AuthError);
    await expect(resolveToken({}, store, profile, readers)).rejects.toThrow(/plants auth login.*PLANTS_TOKEN/);
  });

  it('prefers PLANTS_TOKEN over the stored token', async () => {
    const store = await storeWith({ token: 'file-token' });
    expect(await resolveToken({ PLANTS_TOKEN: 'env-token' }, store, profile, readers)).toMatchObject({
      value: 'env-token',
      source: 'PLANTS_TOKEN',
    });
  });

  it('names the source of an invalid base URL: configuration, or usage for the flag', async () => {
    const store = await storeWith({ 'base-url': 'not a url' });
    await expect(resolveBaseUrl(undefined, {}, store, profile)).rejects.toThrow(ConfigError);
    await expect(resolveBaseUrl(undefined, {}, store, profile)).rejects.toThrow(/config file .*config\.json/);
    await expect(resolveBaseUrl(undefined, { PLANTS_BASE_URL: 'ftp://x' }, store, profile)).rejects.toThrow(
      ConfigError,
    );
    await expect(resolveBaseUrl('ftp://x', {}, store, profile)).rejects.toThrow(UsageError);
  });
});

describe('resolveProfile: --profile > PLANTS_PROFILE > config use > default', () => {
  it('takes each source in turn', async () => {
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    const opener = () => Promise.resolve(store);
    expect(await resolveProfile(undefined, {}, opener)).toEqual({ value: 'default', source: '' });
    store.set('prod', 'base-url', 'http://p');
    store.use('prod');
    expect(await resolveProfile(undefined, {}, opener)).toEqual({ value: 'prod', source: "'plants config use'" });
    expect(await resolveProfile(undefined, { PLANTS_PROFILE: 'ci' }, opener)).toEqual({
      value: 'ci',
      source: 'PLANTS_PROFILE',
    });
    expect(await resolveProfile('dev', { PLANTS_PROFILE: 'ci' }, opener)).toEqual({
      value: 'dev',
      source: '--profile',
    });
  });

  it('refuses a bad PLANTS_PROFILE as configuration', async () => {
    const opener = () => openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    await expect(resolveProfile(undefined, { PLANTS_PROFILE: 'a/b' }, opener)).rejects.toThrow(ConfigError);
  });
});

describe('checkToken', () => {
  it('accepts visible ASCII', () => {
    expect(() => checkToken('abc.DEF-123_~+/=', 'x', 'fix it')).not.toThrow();
  });

  it.each(['has space', 'tab\there', 'new\nline', 'nul\u0000', 'café', '“quoted”'])(
    'rejects %j without echoing it',
    (token) => {
      expect(() => checkToken(token, 'PLANTS_TOKEN', 'fix it')).toThrow(ConfigError);
      try {
        checkToken(token, 'PLANTS_TOKEN', 'fix it');
      } catch (err) {
        expect((err as Error).message).not.toContain(token);
        expect((err as Error).message).toContain('PLANTS_TOKEN');
      }
    },
  );
});

describe('messages for a profile other than the default', () => {
  const staging = () => Promise.resolve('staging');
  const emptyStore = async () => {
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    return () => Promise.resolve(store);
  };

  it('a missing base URL names the profile and the command with --profile', async () => {
    await expect(resolveBaseUrl(undefined, {}, await emptyStore(), staging)).rejects.toThrow(
      new ConfigError(
        "no base URL configured for profile staging; run 'plants --profile staging config set base-url <url>', set PLANTS_BASE_URL, or pass --base-url",
      ),
    );
  });

  it('a missing token names the profile and the login command with --profile', async () => {
    await expect(resolveToken({}, await emptyStore(), staging, readers)).rejects.toThrow(
      new AuthError(
        "no token configured for profile staging; run 'plants --profile staging auth login' or set PLANTS_TOKEN",
      ),
    );
  });

  it('a bad token from PLANTS_TOKEN says to correct the variable, whatever the profile', async () => {
    await expect(resolveToken({ PLANTS_TOKEN: 'a b' }, await emptyStore(), staging, readers)).rejects.toThrow(
      new ConfigError(
        'the token from PLANTS_TOKEN contains whitespace, control or non-ASCII characters; correct the PLANTS_TOKEN variable',
      ),
    );
  });

  it('a bad stored token says to log in again to that profile', async () => {
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    store.set('staging', 'base-url', 'http://config.test');
    store.set('staging', 'token', 'bad token');
    await expect(resolveToken({}, () => Promise.resolve(store), staging, readers)).rejects.toThrow(
      /; store it again with 'plants --profile staging auth login'$/,
    );
  });

  it('PLANTS_PROFILE is trimmed, and a bad one is named', async () => {
    const store = await emptyStore();
    expect(await resolveProfile(undefined, { PLANTS_PROFILE: ' staging ' }, store)).toEqual({
      value: 'staging',
      source: 'PLANTS_PROFILE',
    });
    await expect(resolveProfile(undefined, { PLANTS_PROFILE: 'a/b' }, store)).rejects.toThrow(/PLANTS_PROFILE/);
  });
});

describe('ConfigStore: what the file holds', () => {
  const env = () => ({ PLANTS_CONFIG_DIR: dir.path });
  const file = () => join(dir.path, 'config.json');
  const write = (data: unknown) => writeFileSync(file(), JSON.stringify(data));
  const read = () => JSON.parse(readFileSync(file(), 'utf8')) as unknown;

  it.each([
    [{ profile: 3 }, '"profile" must be a string'],
    [{ profiles: [] }, '"profiles" must be an object'],
    [{ profiles: { staging: 'x' } }, 'profile "staging" must be an object'],
    [{ profiles: { staging: { 'base-url': 1 } } }, '"base-url" of profile "staging" must be a string'],
    [{ profiles: { staging: { token: null } } }, '"token" of profile "staging" must be a string'],
    [{ 'base-url': true }, '"base-url" must be a string'],
    [{ token: 42 }, '"token" must be a string'],
    // Names --profile refuses: the profile could be used through the file, but never selected, renamed or deleted.
    [
      { profiles: { 'a b': {} } },
      'the profile name "a b" is not one plants can select (letters, digits, dot, dash or underscore, at most 64 characters)',
    ],
    [
      { profiles: { '\u001b[31mred': {} } },
      'the profile name "\\u001b[31mred" is not one plants can select (letters, digits, dot, dash or underscore, at most 64 characters)',
    ],
    [
      { profiles: { ['x'.repeat(65)]: {} } },
      `the profile name "${'x'.repeat(65)}" is not one plants can select (letters, digits, dot, dash or underscore, at most 64 characters)`,
    ],
    [
      { profile: '' },
      '"profile" names "", not a profile name plants can select (letters, digits, dot, dash or underscore, at most 64 characters)',
    ],
  ])('refuses %j, saying what is wrong and how to recover', async (data, what) => {
    write(data);
    await expect(openConfigStore(env())).rejects.toThrow(
      new ConfigError(`config file ${file()} is invalid: ${what}; fix it, or remove it and configure again`),
    );
  });

  it('moves settings from before profiles into the default profile; the profile’s own values win', async () => {
    write({
      'base-url': 'http://old',
      token: 'old-token',
      profiles: { default: { token: 'new' }, staging: { token: 's' } },
    });
    const store = await openConfigStore(env());
    expect(read()).toEqual({
      profiles: {
        default: { 'base-url': 'http://old', token: 'new', 'token-origin': 'http://old' },
        staging: { token: 's', 'token-origin': 'none' },
      },
    });
    expect(store.get('default', 'base-url')).toBe('http://old');
  });

  it.each([
    [{ token: 'only-token' }, { token: 'only-token', 'token-origin': 'none' }],
    [{ 'base-url': 'http://only' }, { 'base-url': 'http://only' }],
  ])('moves a lone old setting too: %j', async (data, settings) => {
    write(data);
    await openConfigStore(env());
    expect(read()).toEqual({ profiles: { default: settings } });
  });

  it('leaves a file without old settings untouched', async () => {
    writeFileSync(file(), '{"profiles":{"a":{}}}');
    await openConfigStore(env());
    expect(readFileSync(file(), 'utf8')).toBe('{"profiles":{"a":{}}}');
  });

  it('treats an empty stored value as unset', async () => {
    write({ profiles: { default: { token: '' } } });
    expect((await openConfigStore(env())).get('default', 'token')).toBeUndefined();
  });

  it('deleting a key keeps the rest; deleting from a missing profile creates nothing', async () => {
    const store = await openConfigStore(env());
    store.set('staging', 'token', 't');
    store.set('staging', 'base-url', 'http://s');
    store.delete('staging', 'token');
    store.delete('nowhere', 'token');
    expect(read()).toEqual({ profiles: { staging: { 'base-url': 'http://s' } } });
    expect(store.hasProfile('nowhere')).toBe(false);
    expect(store.hasProfile('staging')).toBe(true);
  });

  it('using the default profile again removes the choice from the file', async () => {
    const store = await openConfigStore(env());
    store.use('staging');
    expect(read()).toEqual({ profile: 'staging' });
    store.use('default');
    expect(read()).toEqual({});
    expect(store.currentProfile).toBe('default');
  });

  it('deleting the profile in use goes back to the default; deleting another keeps the choice', async () => {
    const store = await openConfigStore(env());
    store.set('a', 'token', '1');
    store.set('b', 'token', '2');
    store.use('a');
    store.deleteProfile('b');
    expect(read()).toEqual({ profile: 'a', profiles: { a: { token: '1' } } });
    store.deleteProfile('a');
    expect(read()).toEqual({ profiles: {} });
    expect(store.currentProfile).toBe('default');
  });

  it('reads a config file of exactly 1 MiB', async () => {
    writeFileSync(file(), `{"profiles":{}${' '.repeat(1024 * 1024 - 15)}}`);
    expect((await openConfigStore(env())).profileNames()).toEqual([]);
  });

  it('refuses a config.json that is not a regular file (a FIFO would block the read)', async () => {
    runCommand('mkfifo', [file()]);
    await expect(openConfigStore(env())).rejects.toThrow(
      new ConfigError(
        `cannot read the config file ${file()}: it is not a regular file; fix it, or remove it and configure again`,
      ),
    );
  });
});

describe('noSuchProfile: one message for a profile that does not exist', () => {
  it('a command argument or --profile is a usage error', () => {
    const err = noSuchProfile('prod', ['default', 'staging']);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe(
      "no profile named prod (profiles: default, staging); create one with 'plants --profile prod config set base-url <url>'",
    );
    expect(noSuchProfile('prod', ['default'], '--profile')).toBeInstanceOf(UsageError);
  });

  it('a variable or the file’s choice is configuration, and says where the name came from', () => {
    const err = noSuchProfile('prod', [], 'PLANTS_PROFILE');
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe(
      "no profile named prod (from PLANTS_PROFILE; there are no profiles yet); create one with 'plants --profile prod config set base-url <url>'",
    );
    expect(noSuchProfile('prod', ['default'], CHOSEN_BY_USE).message).toMatch(
      /, or go back with 'plants config use default'$/,
    );
  });
});

describe('the config directory and file, more', () => {
  it('ignores an empty XDG_CONFIG_HOME, using ~/.config/plants', () => {
    expect(configDir({ XDG_CONFIG_HOME: '' })).toBe(join(homedir(), '.config', 'plants'));
  });

  it('reports why the file cannot be looked at, other than its absence', () => {
    const notADir = join(dir.path, 'file');
    writeFileSync(notADir, '');
    expect(() => checkConfigFile(join(notADir, 'config.json'))).toThrow(/ENOTDIR/);
    expect(() => checkConfigFile(join(dir.path, 'missing.json'))).not.toThrow();
  });

  it('lists profiles sorted, the default among the selectable ones', async () => {
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    store.set('zeta', 'token', 'z');
    store.set('alpha', 'token', 'a');
    expect(store.profileNames()).toEqual(['alpha', 'zeta']);
    expect(store.selectableProfiles()).toEqual(['alpha', 'default', 'zeta']);
  });

  it('writes a config of exactly 1 MiB', async () => {
    const store = await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    const base = Buffer.byteLength(JSON.stringify({ profiles: { default: { token: '' } } }, undefined, '\t'));
    store.set('default', 'token', 'x'.repeat(1024 * 1024 - base));
    expect(statSync(store.path).size).toBe(1024 * 1024);
  });
});
