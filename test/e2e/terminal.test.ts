import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { displayMeasure } from '../../src/output/width.js';
import { runCli, type RunOptions, type SavedConfig } from '../helpers/cli.js';
import { againstStore } from '../helpers/against-store.js';
import { plantStore, TOKEN } from '../helpers/servers.js';

const { width: displayWidth } = await displayMeasure();

// These run the CLI in a pseudo-terminal, as a person would see it.
const setup = againstStore({ seed: 3 }, { perTest: true });
const inTerminal = (args: string[], options: Omit<RunOptions, 'configDir' | 'tty'> = {}) =>
  setup.plants(args, { tty: true, ...options, env: { TERM: 'xterm-256color', ...options.env } });

describe('in a terminal', () => {
  it('list prints an aligned table with a header', async () => {
    const r = await inTerminal(['list']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\r\n')).toEqual([
      'ID  NAME                     TAG',
      '1   Monstera deliciosa       tropical',
      '2   Ficus lyrata             succulent',
      '3   Sansevieria trifasciata  fern',
      '',
    ]);
  });

  it('headers are bold and the ✓ is green when colour is allowed, plain with NO_COLOR', async () => {
    const coloured = await inTerminal(['list'], { env: { NO_COLOR: undefined } });
    expect(coloured.stdout).toContain('\u001b[1mID\u001b[22m');
    const deleted = await inTerminal(['delete', '1', '--yes'], { env: { NO_COLOR: undefined } });
    expect(deleted.stdout).toBe('\u001b[32m✓\u001b[39m Deleted plant 1\r\n');
    const plain = await inTerminal(['list']);
    expect(plain.stdout).not.toContain('\u001b[');
  });

  it('--no-color and TERM=dumb turn colour off on a terminal; FORCE_COLOR turns it on in a pipe', async () => {
    expect((await inTerminal(['list', '--no-color'], { env: { NO_COLOR: undefined } })).stdout).not.toContain(
      '\u001b[',
    );
    expect((await inTerminal(['list'], { env: { NO_COLOR: undefined, TERM: 'dumb' } })).stdout).not.toContain(
      '\u001b[',
    );
    const piped = await runCli(['list', '-o', 'table'], {
      configDir: setup.dir.path,
      env: { PLANTS_BASE_URL: setup.store.url, PLANTS_TOKEN: TOKEN, NO_COLOR: undefined, FORCE_COLOR: '1' },
    });
    expect(piped.stdout).toContain('\u001b[1mID\u001b[22m');
    const error = await runCli(['list', '--limit', 'x'], {
      configDir: setup.dir.path,
      env: { NO_COLOR: undefined, FORCE_COLOR: '1' },
    });
    expect(error.stderr).toBe(
      '\u001b[31mplants: invalid --limit "x": expected a whole number of plants from 0 to 2147483647\u001b[39m\n',
    );
  });

  it("help is wrapped at a terminal's width, and at 80 columns in a pipe whatever the terminal", async () => {
    const widest = (text: string) => Math.max(...text.split(/\r?\n/).map((line) => line.length));
    // (Below about 70 columns commander leaves option descriptions unwrapped: too narrow to wrap them.)
    const narrow = await inTerminal(['--help'], { columns: 90 });
    expect(narrow.code).toBe(0);
    expect(narrow.stdout).toMatch(/^Usage: plants/);
    expect(widest(narrow.stdout)).toBeGreaterThan(80);
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(90);
    const wide = await inTerminal(['list', '--help'], { columns: 150 });
    expect(widest(wide.stdout)).toBeGreaterThan(90);
    expect(widest(wide.stdout)).toBeLessThanOrEqual(150);
    const piped = await setup.plants(['--help'], { env: { COLUMNS: '150' } });
    expect(piped.stdout).toMatch(/^Usage: plants/);
    expect(widest(piped.stdout)).toBeLessThanOrEqual(80);
  });

  it('list --json is pretty-printed', async () => {
    const r = await inTerminal(['list', '--json', '--limit', '1']);
    expect(r.stdout.replaceAll('\r\n', '\n')).toBe(`${JSON.stringify(setup.store.store.list(1), null, 2)}\n`);
  });

  it('an empty list says so', async () => {
    const r = await inTerminal(['list', '--limit', '0']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('No plants found\r\n');
  });

  it('delete asks first and deletes on y', async () => {
    const r = await inTerminal(['delete', '2'], { answers: [{ when: '[y/N]', send: 'y\r' }] });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Delete plant 2 from 127\.0\.0\.1:\d+ \(profile default\)\? \[y\/N\]/);
    expect(r.stdout).toContain('✓ Deleted plant 2');
    expect(setup.store.store.size).toBe(2);
  });

  it('delete sends nothing on n, and exits 2', async () => {
    const r = await inTerminal(['delete', '2'], { answers: [{ when: '[y/N]', send: 'n\r' }] });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('cancelled; nothing was deleted');
    expect(setup.store.requests.filter((q) => q.method === 'DELETE')).toEqual([]);
  });

  it('delete --yes does not ask', async () => {
    const r = await inTerminal(['delete', '3', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('✓ Deleted plant 3\r\n');
  });

  it('a token command prompts on the terminal, and what it prints is the token, never shown', async () => {
    // The command asks as `pass` or `op` would: on stderr, reading the answer from the terminal.
    const command = `read -r -p 'Vault passphrase: ' answer; [ "$answer" = open-sesame ] && echo ${TOKEN}`;
    const login = await inTerminal(['auth', 'login', '--token-command', command], {
      env: { PLANTS_TOKEN: undefined },
      answers: [{ when: 'Vault passphrase: ', send: 'open-sesame\r' }],
    });
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(/✓ Token stored for profile default as a token command \(read …\)/);
    const list = await inTerminal(['list'], {
      env: { PLANTS_TOKEN: undefined },
      answers: [{ when: 'Vault passphrase: ', send: 'open-sesame\r' }],
    });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('Monstera deliciosa');
    const wrong = await inTerminal(['list'], {
      env: { PLANTS_TOKEN: undefined },
      answers: [{ when: 'Vault passphrase: ', send: 'guess\r' }],
    });
    expect(wrong.code).toBe(4);
    expect(wrong.stdout).toMatch(
      /the token command of profile default \(read …\) exited with status 1(: [^\n]*)?; no token/,
    );
  });

  it('auth login reads the token without echoing it', async () => {
    const r = await inTerminal(['auth', 'login'], {
      env: { PLANTS_TOKEN: undefined },
      answers: [{ when: 'Paste your token: ', send: `${TOKEN}\r` }],
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ Token stored for profile default in/);
    expect(
      (JSON.parse(readFileSync(join(setup.dir.path, 'config.json'), 'utf8')) as SavedConfig).profiles.default.token,
    ).toBe(TOKEN);
  });
});

describe('in a terminal, interrupted or misused', () => {
  it('Ctrl-C at the confirmation exits 130 and deletes nothing', async () => {
    const r = await inTerminal(['delete', '2'], { answers: [{ when: '[y/N]', send: '\u0003' }] });
    expect(r.code).toBe(130);
    expect(setup.store.store.size).toBe(3);
  });

  it('Ctrl-C at the hidden token prompt exits 130 and stores nothing', async () => {
    const r = await inTerminal(['auth', 'login'], { answers: [{ when: 'Paste your token: ', send: 'abc\u0003' }] });
    expect(r.code).toBe(130);
    expect(r.stdout).not.toContain('abc');
    const file = join(setup.dir.path, 'config.json');
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '{"profiles":{"default":{}}}';
    expect((JSON.parse(text) as SavedConfig).profiles.default.token).toBeUndefined();
    expect(text).not.toContain('abc');
  });

  it('auth login --with-token refuses to read a terminal, where the token would be echoed', async () => {
    const r = await inTerminal(['auth', 'login', '--with-token']);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/--with-token reads the token from a pipe/);
  });
});

describe('bulk delete in a terminal', () => {
  it('asks once for the batch, shows progress, then a summary', async () => {
    const many = await plantStore({ seed: 30 });
    try {
      const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
      const r = await runCli(['delete', ...ids], {
        configDir: setup.dir.path,
        tty: true,
        env: { PLANTS_BASE_URL: many.url, PLANTS_TOKEN: TOKEN, TERM: 'xterm-256color' },
        answers: [{ when: '[y/N]', send: 'y\r' }],
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/ID {2}NAME +TAG\r\n1 {3}Monstera/);
      // readline moves the cursor to the start of the line before the question.
      expect(r.stdout).toMatch(
        // eslint-disable-next-line no-control-regex
        /10 {2}Pilea peperomioides\r\n… and 2 more\r\n(\x1b\[[0-9;]*[A-Za-z])*Delete these 12 plants from 127\.0\.0\.1:\d+ \(profile default\)\? \[y\/N\]/,
      );
      expect(r.stdout).toContain('Deleting [------------------------------] 0/12');
      expect(r.stdout).toContain('Deleting [##############################] 12/12');
      expect(r.stdout).toMatch(/Deleted 12\r\n$/);
      expect(many.store.size).toBe(18);
    } finally {
      await many.close();
    }
  });

  it('prune asks too, and deletes nothing on no', async () => {
    const r = await inTerminal(['prune', '--all'], { answers: [{ when: '[y/N]', send: 'n\r' }] });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(
      // eslint-disable-next-line no-control-regex
      /ID +NAME +TAG\r\n1 +\S[\s\S]*\r\n3 +\S[^\r]*\r\n(\x1b\[[0-9;]*[A-Za-z])*Delete these 3 plants from 127\.0\.0\.1:\d+ \(profile default\)\? \[y\/N\]/,
    );
    expect(setup.store.store.size).toBe(3);
  });
});

describe('tables fit the terminal', () => {
  const UUID = '3f2a9c1e-7b4d-4e8a-9c6f-2d1b0a9e8f7c';
  // 1 MiB, with wide characters and emoji in it.
  const HUGE = 'Ficus lyrata 植物 🌱 '.repeat(Math.ceil(2 ** 20 / 18)).slice(0, 2 ** 20);
  const PLANTS = [
    { id: UUID, name: HUGE, tag: 'tropical' },
    { id: 2, name: '観葉植物 Monstera deliciosa 🪴 e\u0301te\u0301', tag: '観葉植物' },
    { id: 3, name: 'Cactus', tag: 'succulent' },
    { id: 4, name: 'Sal\u202evia officinalis, the common sage', tag: 'herb' },
  ];
  let store: Awaited<ReturnType<typeof plantStore>>;
  beforeEach(async () => {
    store = await plantStore({ plants: PLANTS });
  });
  afterEach(async () => {
    await store.close();
  });
  const plants = (args: string[], options: Omit<RunOptions, 'configDir'> = {}) =>
    runCli(args, {
      ...options,
      configDir: setup.dir.path,
      env: { PLANTS_BASE_URL: store.url, PLANTS_TOKEN: TOKEN, TERM: 'xterm-256color', ...options.env },
    });
  const lines = (stdout: string) => stdout.split('\r\n').slice(0, -1);

  it('at 60 columns: every line fits, ids whole, long names cut with … between characters', async () => {
    const r = await plants(['list'], { tty: true, columns: 60 });
    expect(r.code).toBe(0);
    for (const line of lines(r.stdout)) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(lines(r.stdout)).toEqual([
      'ID                                    NAME         TAG',
      `${UUID}  Ficus lyra…  tropical`,
      '2                                     観葉植物 M…  観葉植物',
      '3                                     Cactus       succulent',
      '4                                     Sal\\u202ev…  herb',
    ]);
  });

  it('at 200 columns: names cut only as far as needed, wide characters and marks kept whole', async () => {
    const r = await plants(['list'], { tty: true, columns: 200 });
    const shown = lines(r.stdout);
    expect(shown).toHaveLength(5);
    for (const line of shown) expect(displayWidth(line)).toBeLessThanOrEqual(200);
    // As wide as the terminal, or one column less where a wide character did not fit.
    expect(displayWidth(shown[1]!)).toBeGreaterThanOrEqual(199);
    expect(shown[1]).toMatch(new RegExp(`^${UUID}  Ficus lyrata 植物 🌱 Ficus lyrata 植物 🌱 .*… +tropical$`));
    expect(shown[2]).toMatch(/^2 +観葉植物 Monstera deliciosa 🪴 e\u0301te\u0301 +観葉植物$/);
    expect(shown[4]).toMatch(/^4 +Sal\\u202evia officinalis, the common sage +herb$/);
  });

  it('a table exactly as wide as the terminal is left as it is; one column narrower cuts the names', async () => {
    const seeded = (columns: number) => setup.plants(['list'], { tty: true, columns });
    const whole = [
      'ID  NAME                     TAG',
      '1   Monstera deliciosa       tropical',
      '2   Ficus lyrata             succulent',
      '3   Sansevieria trifasciata  fern',
    ];
    expect(lines((await seeded(38)).stdout)).toEqual(whole);
    expect(lines((await seeded(37)).stdout)).toEqual([
      'ID  NAME                    TAG',
      '1   Monstera deliciosa      tropical',
      '2   Ficus lyrata            succulent',
      '3   Sansevieria trifascia…  fern',
    ]);
  });

  it('the dry run and the table before the question fit too, ids whole', async () => {
    const dry = await plants(['prune', '--all', '--dry-run'], { tty: true, columns: 60 });
    expect(dry.code).toBe(0);
    const table = lines(dry.stdout).slice(0, 5);
    for (const line of table) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(table[1]).toBe(`${UUID}  Ficus lyra…  tropical`);
    const asked = await plants(['delete', UUID, '3'], {
      tty: true,
      columns: 60,
      answers: [{ when: '[y/N]', send: 'n\r' }],
    });
    expect(asked.code).toBe(2);
    for (const line of lines(asked.stdout).slice(0, 3)) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(asked.stdout).toContain(
      `ID                                    NAME         TAG\r\n${UUID}  Ficus lyra…  tropical\r\n3 `,
    );
    expect(store.store.size).toBe(4);
  });

  it('COLUMNS narrows a table on a terminal, but never piped output (-o table | cat, tsv, csv, json)', async () => {
    const narrowed = await plants(['list'], { tty: true, columns: 200, env: { COLUMNS: '60' } });
    for (const line of lines(narrowed.stdout)) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(lines(narrowed.stdout)[1]).toBe(`${UUID}  Ficus lyra…  tropical`);
    for (const format of ['table', 'tsv', 'csv', 'json', 'ndjson']) {
      const piped = await plants(['list', '-o', format], { env: { COLUMNS: '20' } });
      expect(piped.code).toBe(0);
      expect(piped.stdout).toContain(HUGE);
      expect(piped.stdout).not.toContain('…');
    }
  });
});
