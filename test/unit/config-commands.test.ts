import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcess } from '../helpers/in-process.js';

const TOKEN = 'config-commands-test-token';
const { plants, configDir } = inProcess(TOKEN);

const configFile = () => join(configDir(), 'config.json');
const saved = (config: object) => writeFileSync(configFile(), JSON.stringify(config), { mode: 0o600 });
const stored = (): unknown => JSON.parse(readFileSync(configFile(), 'utf8'));
/** The commands below read only the file: no base URL or token from the environment. */
const fileOnly = { env: { PLANTS_BASE_URL: undefined, PLANTS_TOKEN: undefined } };

describe('config set', () => {
  it('stores the normalised base URL and says so on a terminal', async () => {
    const r = await plants(['config', 'set', 'base-url', 'https://plants.example.com/api/'], {
      tty: true,
      ...fileOnly,
    });
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toBe('✓ Set base-url of profile default to https://plants.example.com/api\n');
    expect(stored()).toEqual({ profiles: { default: { 'base-url': 'https://plants.example.com/api' } } });
  });

  it('is silent when piped', async () => {
    const r = await plants(['config', 'set', 'base-url', 'http://127.0.0.1:8080'], fileOnly);
    expect(r.code).toBe(0);
    expect(r.stdout() + r.stderr()).toBe('');
    expect(stored()).toEqual({ profiles: { default: { 'base-url': 'http://127.0.0.1:8080' } } });
  });

  it('says when PLANTS_BASE_URL will be used instead, as auth login does of PLANTS_TOKEN', async () => {
    const r = await plants(['config', 'set', 'base-url', 'https://s.test'], {
      env: { PLANTS_BASE_URL: 'https://env.test' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      'plants: warning: PLANTS_BASE_URL is set in the environment and takes precedence over the stored base-url\n',
    );
    // Another key: nothing to say. A blank variable counts as unset.
    const other = await plants(['config', 'set', 'max-deletes', '5'], { env: { PLANTS_BASE_URL: 'https://env.test' } });
    expect(other.stderr()).toBe('');
    const unset = await plants(['config', 'set', 'base-url', 'https://s.test'], { env: { PLANTS_BASE_URL: '  ' } });
    expect(unset.stderr()).toBe('');
  });

  it('writes to the profile chosen with --profile, and names it', async () => {
    saved({ profiles: { staging: {} } });
    const r = await plants(['--profile', 'staging', 'config', 'set', 'base-url', 'https://s.test'], {
      tty: true,
      ...fileOnly,
    });
    expect(r.stderr()).toBe('✓ Set base-url of profile staging to https://s.test\n');
    expect(stored()).toEqual({ profiles: { staging: { 'base-url': 'https://s.test' } } });
  });

  it.each([
    [
      ['token', 'x'],
      "plants: the token is not a config key: store it with 'plants auth login', remove it with 'plants auth logout', check it with 'plants auth status'\n",
    ],
    [['colour', 'x'], 'plants: unknown config key "colour"; known keys: base-url, max-deletes\n'],
  ])('refuses the key of %j with exit 2 and writes nothing', async (args, message) => {
    const r = await plants(['config', 'set', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(message);
    expect(existsSync(configFile())).toBe(false);
  });

  it('refuses a URL that is not absolute http(s), writing nothing', async () => {
    const r = await plants(['config', 'set', 'base-url', 'ftp://plants.test']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(/^plants: .*http/);
    expect(existsSync(configFile())).toBe(false);
  });
});

describe('config get', () => {
  it('prints the stored value of the selected profile', async () => {
    saved({ profiles: { default: { 'base-url': 'https://a.test' }, staging: { 'base-url': 'https://b.test/v1' } } });
    expect((await plants(['config', 'get', 'base-url'])).stdout()).toBe('https://a.test\n');
    const r = await plants(['--profile', 'staging', 'config', 'get', 'base-url']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('https://b.test/v1\n');
    expect(r.stderr()).toBe('');
  });

  it('masks credentials in a value edited into the file by hand', async () => {
    saved({ profiles: { default: { 'base-url': 'https://user:secret@a.test/' } } });
    const r = await plants(['config', 'get', 'base-url']);
    expect(r.code).toBe(0);
    expect(r.stdout()).not.toContain('secret');
    expect(r.stdout()).toMatch(/^https:\/\/.*a\.test/);
  });

  it('refuses an unknown key with exit 2', async () => {
    const r = await plants(['config', 'get', 'colour']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe('plants: unknown config key "colour"; known keys: base-url, max-deletes\n');
  });
});

describe('a token in a stored base URL (a path segment)', () => {
  const OWN = 'TOP+SECRET/abc=def==';
  const OTHER = 'staging-token-4f9a';
  /** The default profile's URL holds its own token, staging's its own, percent-encoded. */
  const withTokens = () =>
    saved({
      profiles: {
        default: { 'base-url': `https://plants.example.com/${OWN}`, token: OWN },
        staging: { 'base-url': `https://s.test/api/${encodeURIComponent(OTHER)}`, token: OTHER },
      },
    });
  const expectNone = (text: string) => {
    for (const token of [OWN, OTHER, encodeURIComponent(OWN), 'SECRET', 'f9a']) expect(text).not.toContain(token);
  };

  it('is masked by config get, config list (and --json) and config profiles, whichever profile holds it', async () => {
    withTokens();
    const get = await plants(['config', 'get', 'base-url'], fileOnly);
    expect(get.stdout()).toBe('https://plants.example.com/***\n');
    const staging = await plants(['--profile', 'staging', 'config', 'get', 'base-url'], fileOnly);
    expect(staging.stdout()).toBe('https://s.test/api/***\n');
    const list = await plants(['config', 'list'], fileOnly);
    expect(list.stdout()).toContain('base-url=https://plants.example.com/***\n');
    const json = await plants(['config', 'list', '--json'], fileOnly);
    expect(JSON.parse(json.stdout())).toMatchObject({ base_url: 'https://plants.example.com/***' });
    const profiles = await plants(['config', 'profiles'], fileOnly);
    expect(profiles.stdout()).toMatch(/default +https:\/\/plants\.example\.com\/\*\*\* +token set\n/);
    expect(profiles.stdout()).toMatch(/staging +https:\/\/s\.test\/api\/\*\*\* +token set\n/);
    for (const r of [get, staging, list, json, profiles]) expectNone(r.stdout() + r.stderr());
  });

  it('is masked by config set, and by config get when the token comes from PLANTS_TOKEN', async () => {
    withTokens();
    const set = await plants(
      ['config', 'set', 'base-url', `https://plants.example.com/v2/${encodeURIComponent(OWN)}`],
      {
        ...fileOnly,
        tty: true,
      },
    );
    expect(set.stderr()).toBe('✓ Set base-url of profile default to https://plants.example.com/v2/***\n');
    saved({ profiles: { default: { 'base-url': `https://plants.example.com/${TOKEN}` } } });
    const get = await plants(['config', 'get', 'base-url'], { env: { PLANTS_BASE_URL: undefined } });
    expect(get.stdout()).toBe('https://plants.example.com/***\n');
    expectNone(set.stdout() + set.stderr());
  });
});

describe('config unset', () => {
  it('removes the value from the selected profile only, and says so on a terminal', async () => {
    saved({
      profiles: { default: { 'base-url': 'https://a.test', token: TOKEN }, staging: { 'base-url': 'https://b.test' } },
    });
    const r = await plants(['config', 'unset', 'base-url'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('✓ Unset base-url of profile default\n');
    // The token, stored before tokens were bound, was bound to the base URL's origin when the file was read; it stays so.
    expect(stored()).toEqual({
      profiles: {
        default: { token: TOKEN, 'token-origin': 'https://a.test' },
        staging: { 'base-url': 'https://b.test' },
      },
    });
    const get = await plants(['config', 'get', 'base-url'], fileOnly);
    expect(get.code).toBe(1);
  });

  it('is silent when piped, and a no-op when nothing is stored', async () => {
    const r = await plants(['config', 'unset', 'base-url']);
    expect(r.code).toBe(0);
    expect(r.stdout() + r.stderr()).toBe('');
  });

  it('refuses the token with a pointer to auth logout', async () => {
    saved({ profiles: { default: { token: TOKEN, 'token-origin': 'https://a.test' } } });
    const r = await plants(['config', 'unset', 'token']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(/remove it with 'plants auth logout'/);
    expect(stored()).toEqual({ profiles: { default: { token: TOKEN, 'token-origin': 'https://a.test' } } });
  });
});

describe('config list', () => {
  it('prints the stored settings of the selected profile, the token only as set', async () => {
    saved({ profiles: { default: {}, staging: { 'base-url': 'https://b.test', token: TOKEN } } });
    const r = await plants(['--profile', 'staging', 'config', 'list'], fileOnly);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('profile=staging\nbase-url=https://b.test\ntoken=(set)\nmax-deletes=(not set)\n');
    expect(r.stderr()).toBe('');
  });

  it('shows what is stored, not what the environment says', async () => {
    saved({ profiles: { default: { 'base-url': 'https://a.test' } } });
    const r = await plants(['config', 'list']);
    expect(r.stdout()).toBe('profile=default\nbase-url=https://a.test\ntoken=(not set)\nmax-deletes=(not set)\n');
  });
});

describe('config profiles', () => {
  it('marks the profile selected with --profile', async () => {
    saved({ profiles: { default: { token: TOKEN }, staging: { 'base-url': 'https://b.test' } } });
    const r = await plants(['--profile', 'staging', 'config', 'profiles']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe(
      ['  default  (no base-url)   token set', '* staging  https://b.test  no token', ''].join('\n'),
    );
  });

  it('lists the profiles in name order, the default among them when it is not stored', async () => {
    saved({ profiles: { staging: {}, alpha: { token: TOKEN } } });
    const r = await plants(['config', 'profiles']);
    expect(r.stdout()).toBe(
      [
        '  alpha    (no base-url)  token set',
        '* default  (no base-url)  no token',
        '  staging  (no base-url)  no token',
        '',
      ].join('\n'),
    );
  });

  it('aligns the columns by the measure tables use: an emoji newer than cli-table3 knows takes two columns', async () => {
    saved({ profiles: { default: { 'base-url': 'https://b.test/🪴' }, staging: { 'base-url': 'https://b.test' } } });
    const r = await plants(['config', 'profiles']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe(
      ['* default  https://b.test/🪴  no token', '  staging  https://b.test     no token', ''].join('\n'),
    );
  });

  it('on a fresh install shows the default profile', async () => {
    const r = await plants(['config', 'profiles']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('* default  (no base-url)  no token\n');
  });
});

describe('config use', () => {
  it('makes an existing profile the one used, then default again', async () => {
    saved({ profiles: { default: { 'base-url': 'https://a.test' }, staging: { 'base-url': 'https://b.test' } } });
    const use = await plants(['config', 'use', 'staging'], { tty: true });
    expect(use.code).toBe(0);
    expect(use.stderr()).toBe('✓ Using profile staging\n');
    expect(stored()).toMatchObject({ profile: 'staging' });
    expect((await plants(['config', 'get', 'base-url'])).stdout()).toBe('https://b.test\n');

    const back = await plants(['config', 'use', 'default'], { tty: true });
    expect(back.stderr()).toBe('✓ Using profile default\n');
    expect(stored()).not.toHaveProperty('profile');
    expect((await plants(['config', 'get', 'base-url'])).stdout()).toBe('https://a.test\n');
  });

  it('goes back to default even when no default profile is stored', async () => {
    saved({ profiles: { staging: {} }, profile: 'staging' });
    const r = await plants(['config', 'use', 'default']);
    expect(r.code).toBe(0);
    expect(r.stdout() + r.stderr()).toBe('');
    expect(stored()).toEqual({ profiles: { staging: {} } });
  });

  it('refuses a profile that does not exist, listing those that can be used', async () => {
    saved({ profiles: { staging: {} } });
    const r = await plants(['config', 'use', 'stagign']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      "plants: no profile named stagign (profiles: default, staging); create one with 'plants --profile stagign config set base-url <url>'\n",
    );
    expect(stored()).toEqual({ profiles: { staging: {} } });
  });

  it('refuses a name that cannot be a profile, naming the argument', async () => {
    const r = await plants(['config', 'use', 'a b']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(/^plants: invalid profile name "a b" \(the argument\)/);
  });
});

describe('config delete-profile', () => {
  it('removes a profile and its token, and says so on a terminal', async () => {
    saved({ profiles: { default: { 'base-url': 'https://a.test' }, staging: { token: TOKEN } } });
    const r = await plants(['config', 'delete-profile', 'staging'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('✓ Deleted profile staging\n');
    expect(stored()).toEqual({ profiles: { default: { 'base-url': 'https://a.test' } } });
  });

  it('of the profile in use: says that default is used again', async () => {
    saved({ profiles: { staging: {} }, profile: 'staging' });
    const r = await plants(['config', 'delete-profile', 'staging'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('✓ Deleted profile staging; using profile default\n');
    expect(stored()).toEqual({ profiles: {} });
  });

  it('of default: says what went, and that default stays, empty (not "using profile default")', async () => {
    saved({ profiles: { default: { 'base-url': 'https://a.test', protected: { ids: ['7'] } } }, profile: 'default' });
    const r = await plants(['config', 'delete-profile', 'default'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      '✓ Deleted profile default: its base URL, token, max-deletes and protections are gone (default stays, empty)\n',
    );
    expect(stored()).toEqual({ profiles: {} });
  });

  it('refuses a profile that is not stored, listing the stored ones', async () => {
    saved({ profiles: { staging: {} } });
    const r = await plants(['config', 'delete-profile', 'default']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      "plants: no profile named default (profiles: staging); create one with 'plants --profile default config set base-url <url>'\n",
    );
    expect(stored()).toEqual({ profiles: { staging: {} } });
  });
});

describe('config path', () => {
  it('prints the path of the config file in PLANTS_CONFIG_DIR, without creating it', async () => {
    const r = await plants(['config', 'path']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe(`${configFile()}\n`);
    expect(r.stderr()).toBe('');
    expect(existsSync(configFile())).toBe(false);
  });

  it('follows XDG_CONFIG_HOME when PLANTS_CONFIG_DIR is not set', async () => {
    const r = await plants(['config', 'path'], { env: { PLANTS_CONFIG_DIR: undefined, XDG_CONFIG_HOME: '/xdg' } });
    expect(r.stdout()).toBe('/xdg/plants/config.json\n');
  });
});

describe('plants config', () => {
  it.each([['use'], ['delete-profile']])('config %s without a name: exit 2, naming the argument', async (verb) => {
    const r = await plants(['config', verb]);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe("plants: missing required argument 'name' (see --help)\n");
  });

  it('names its subcommands in its help', async () => {
    const r = await plants(['config', '--help']);
    expect(r.code).toBe(0);
    for (const verb of ['set', 'get', 'unset', 'list', 'profiles', 'use', 'delete-profile', 'path']) {
      expect(r.stdout()).toMatch(new RegExp(`^  ${verb} `, 'm'));
    }
  });
});

describe('--json on the config commands that print information', () => {
  it('config get --json: the profile, the key and the value; an unset key still exits 1 with the JSON error line', async () => {
    saved({ profiles: { default: { 'base-url': 'https://a.test/api', 'max-deletes': '10%' } } });
    const r = await plants(['config', 'get', 'base-url', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout())).toEqual({ profile: 'default', key: 'base-url', value: 'https://a.test/api' });
    expect(JSON.parse((await plants(['config', 'get', 'max-deletes', '--json'])).stdout())).toMatchObject({
      value: '10%',
    });
    saved({ profiles: { default: {} } });
    const unset = await plants(['config', 'get', 'base-url', '--json']);
    expect(unset.code).toBe(1);
    expect(unset.stdout()).toBe('');
    expect(JSON.parse(unset.stderr().trimEnd().split('\n').at(-1)!)).toMatchObject({ error: { code: 'config' } });
  });

  it('config profiles --json: each profile, the one in use, never a token', async () => {
    saved({
      profile: 'staging',
      profiles: { default: { 'base-url': 'https://a.test' }, staging: { token: TOKEN, 'token-command': 'x' } },
    });
    const r = await plants(['config', 'profiles', '--json'], fileOnly);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout())).toEqual([
      { name: 'default', in_use: false, base_url: 'https://a.test', token_set: false, token_store: null },
      { name: 'staging', in_use: true, base_url: null, token_set: true, token_store: 'command' },
    ]);
  });

  it('config path --json', async () => {
    expect(JSON.parse((await plants(['config', 'path', '--json'])).stdout())).toEqual({ path: configFile() });
  });
});
