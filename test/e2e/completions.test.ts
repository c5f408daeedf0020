import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANTS_BIN, ROOT, runCli, tempDir } from '../helpers/cli.js';
import { plantStore, TOKEN } from '../helpers/servers.js';
import { interactiveShell, shellMissing, type ShellName } from '../helpers/shell.js';

type Store = Awaited<ReturnType<typeof plantStore>>;
let store: Store;
let dir: ReturnType<typeof tempDir>;
let env: Record<string, string>;

beforeAll(async () => {
  dir = tempDir();
  store = await plantStore({ seed: 3 });
  // The scripts call `plants` by name, as an installed CLI would be.
  symlinkSync(PLANTS_BIN, join(dir.path, 'plants'));
  env = {
    PATH: `${dir.path}:${process.env.PATH}`,
    HOME: dir.path,
    PLANTS_CONFIG_DIR: dir.path,
    PLANTS_BASE_URL: store.url,
    PLANTS_TOKEN: TOKEN,
    NO_COLOR: '1',
  };
});
afterAll(async () => {
  await store.close();
  dir.remove();
});

const FILES = {
  bash: 'plants.bash',
  zsh: '_plants',
  fish: 'plants.fish',
} as const;

describe('checked-in completion scripts', () => {
  it.each(Object.entries(FILES))(
    'completions/%s… is what `plants completion` prints (npm run completions)',
    async (shell, file) => {
      const r = await runCli(['completion', shell], { configDir: dir.path });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(readFileSync(join(ROOT, 'completions', file), 'utf8'));
    },
  );

  it('plants completion refuses an unknown shell', async () => {
    const r = await runCli(['completion', 'tcsh'], { configDir: dir.path });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Allowed choices are bash, zsh, fish/);
  });
});

/** What a shell offers for `line` (the cursor at its end). */
function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd: ROOT });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

const bash = (words: string[]) =>
  run('bash', [
    '--norc',
    '-c',
    `source completions/plants.bash; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _plants; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ]).then((out) => out.trim().split('\n').filter(Boolean));

const fish = (line: string) =>
  run('fish', ['--no-config', '-c', `source completions/plants.fish; complete -C '${line}'`]).then((out) =>
    out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0]),
  );

describe.skipIf(shellMissing('bash'))('in bash', () => {
  it('completes commands, flags, flag values and plant ids', async () => {
    expect(await bash(['plants', 'de'])).toEqual(['delete']);
    expect(await bash(['plants', 'list', '--o'])).toEqual(['--output']);
    expect(await bash(['plants', 'list', '-o', ''])).toEqual(['table', 'json', 'ndjson', 'tsv', 'csv']);
    expect(await bash(['plants', 'delete', ''])).toEqual(['1', '2', '3']);
    expect(await bash(['plants', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(await bash(['plants', 'config', 'set', ''])).toEqual(['base-url', 'max-deletes']);
    expect(await bash(['plants', 'ap'])).toEqual(['apply', 'api']);
    // Plan files: JSON files and directories, where the word points (the repository's root here).
    expect(await bash(['plants', 'apply', 'tsc'])).toEqual(['tsconfig.json']);
    expect(await bash(['plants', 'apply', 'scr'])).toEqual(['scripts/']);
    expect(await bash(['plants', 'apply', 'README'])).toEqual([]);
    expect(await bash(['plants', 'api', '--in'])).toEqual(['--input', '--include', '--include-protected']);
    expect(await bash(['plants', 'api', '--h'])).toEqual(['--header', '--help']);
  });
});

describe.skipIf(shellMissing('fish'))('in fish', () => {
  it('completes commands, flags, flag values and plant ids', async () => {
    expect(await fish('plants de')).toEqual(['delete']);
    expect(await fish('plants list --o')).toEqual(['--output']);
    expect((await fish('plants list -o ')).sort()).toEqual(['csv', 'json', 'ndjson', 'table', 'tsv']);
    expect(await fish('plants delete ')).toEqual(['1', '2', '3']);
  });
});

describe.skipIf(shellMissing('zsh'))('in zsh', () => {
  it('completes commands, flags, flag values and plant ids', async () => {
    // zsh's own completion system, interactive in a pseudo-terminal: type the line
    // and Tab, wait for what it shows, then clear the line for the next.
    const sh = await interactiveShell('zsh', {
      cwd: dir.path,
      home: dir.path,
      env,
    });
    const offers = async (line: string, expected: RegExp[]) => {
      sh.type(`${line}\t`);
      await sh.waitFor((shown) => expected.every((re) => re.test(shown)), expected.join(' and '));
      sh.clearLine();
    };
    try {
      await offers('plants de', [/plants delete/]);
      await offers('plants list --o', [/plants list --output/]);
      await offers(
        'plants list -o ',
        ['table', 'json', 'ndjson', 'tsv', 'csv'].map((format) => new RegExp(`\\b${format}\\b`)),
      );
      await offers('plants delete ', [/1 +-- Monstera deliciosa/, /3 +-- Sansevieria trifasciata/]);
    } finally {
      await sh.close();
    }
  }, 60_000);
});

describe('plants __complete', () => {
  const complete = (words: string[], extra: Record<string, string> = {}) =>
    runCli(['__complete', '--', ...words], {
      configDir: dir.path,
      env: { ...env, ...extra },
    });

  it('offers profile names, for --profile and config use', async () => {
    await runCli(['--profile', 'staging', 'config', 'set', 'base-url', 'https://staging.example.com'], {
      configDir: dir.path,
    });
    expect((await complete(['--profile', ''])).stdout).toBe('default\t\nstaging\thttps://staging.example.com\n');
    expect((await complete(['config', 'use', 'st'])).stdout).toBe('staging\thttps://staging.example.com\n');
  });

  it('is silent and quick when the service cannot be reached', async () => {
    const started = Date.now();
    const r = await complete(['delete', ''], {
      PLANTS_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toBe('');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('is hidden from help', async () => {
    expect((await runCli(['--help'], { configDir: dir.path })).stdout).not.toContain('__complete');
  });
});

// Ids in the service's order, scrambled; each name is one word that appears nowhere else on screen.
const SCRAMBLED = [
  { id: 100, name: 'Hundred' },
  { id: 'b', name: 'Bravo' },
  { id: 10, name: 'Ten' },
  { id: 'a10', name: 'Alpha' },
  { id: 2, name: 'Two' },
  { id: 'a9', name: 'Apple' },
  { id: 9, name: 'Nine' },
];
/** Numbers by value, then text, digit runs again by value (a9 before a10). */
const NATURAL = ['2', '9', '10', '100', 'a9', 'a10', 'b'];

describe('plant ids in interactive shells', () => {
  let ids: Store;
  let home: ReturnType<typeof tempDir>;
  let work: string;
  let idsEnv: Record<string, string>;

  beforeAll(async () => {
    ids = await plantStore({ plants: SCRAMBLED });
    home = tempDir();
    // The shells' working directory, with a file whose name starts like no id.
    work = join(home.path, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'zz-file'), '');
    mkdirSync(join(home.path, 'bin'));
    symlinkSync(PLANTS_BIN, join(home.path, 'bin', 'plants'));
    idsEnv = {
      ...env,
      PATH: `${join(home.path, 'bin')}:${process.env.PATH}`,
      PLANTS_BASE_URL: ids.url,
    };
  });
  afterAll(async () => {
    await ids.close();
    home.remove();
  });

  const start = (shell: ShellName) => interactiveShell(shell, { cwd: work, home: home.path, env: idsEnv });

  it.skipIf(shellMissing('bash'))('bash offers no file name where an id is expected', { timeout: 60_000 }, async () => {
    const sh = await start('bash');
    try {
      // No id starts with zz; zz-file is in the working directory. The `#`
      // typed after Tab shows on screen once the completion is done.
      sh.type('plants delete zz\t#');
      const shown = await sh.waitFor(/zz\S*\s*#/, 'the line after Tab');
      expect(shown).not.toContain('zz-file');
      expect(shown).toMatch(/plants delete zz\W*#/);
    } finally {
      await sh.close();
    }
  });

  it('plants __complete gives numbers by value first, then the rest in natural order', async () => {
    const r = await runCli(['__complete', '--', 'delete', ''], {
      configDir: home.path,
      env: idsEnv,
    });
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t')[0]),
    ).toEqual(NATURAL);
    const a = await runCli(['__complete', '--', 'delete', 'a'], {
      configDir: home.path,
      env: idsEnv,
    });
    expect(a.stdout).toBe('a9\tApple\na10\tAlpha\n');
  });

  /**
   * The words of a listing, in the order it shows them: down each column,
   * then the next column (how bash, zsh and fish lay out several rows). Whole
   * words only; the first line is the command line being completed.
   */
  const listedOrder = (shown: string, words: string[]) => {
    const found = new Map<string, { line: number; column: number }>();
    shown
      .split('\n')
      .slice(1)
      .forEach((text, line) => {
        for (const word of text.matchAll(/(?<=^|\s)\S+(?=\s|$)/g)) {
          if (words.includes(word[0]) && !found.has(word[0])) found.set(word[0], { line, column: word.index });
        }
      });
    return [...found].sort(([, a], [, b]) => a.column - b.column || a.line - b.line).map(([word]) => word);
  };

  describe.each(['bash', 'zsh', 'fish'] as const)('%s', { timeout: 60_000 }, (shell) => {
    /** The words, in the order the listing for `line` shows them (bash lists on the second Tab). */
    const listing = async (line: string, words: string[]) => {
      const sh = await start(shell);
      try {
        sh.type(`${line}${shell === 'bash' ? '\t\t' : '\t'}`);
        const shown = await sh.waitFor((s) => listedOrder(s, words).length === words.length, words.join(' '));
        return { order: listedOrder(shown, words), shown };
      } finally {
        await sh.close();
      }
    };

    it.skipIf(shellMissing(shell))('lists ids in natural order', async () => {
      const { order, shown } = await listing('plants delete ', NATURAL);
      expect(order, shown).toEqual(NATURAL);
    });

    it.skipIf(shellMissing(shell))('lists commands in the order help shows them', async () => {
      const commands = ['list', 'delete', 'prune', 'config', 'auth', 'completion', 'help'];
      const { order, shown } = await listing('plants ', commands);
      expect(order, shown).toEqual(commands);
    });
  });
});

// bash splits words at = and : (COMP_WORDBREAKS); plants must see the words as typed.
describe('words with = and :', () => {
  let colons: Store;
  let home: ReturnType<typeof tempDir>;
  let colonsEnv: Record<string, string>;

  beforeAll(async () => {
    colons = await plantStore({
      plants: [
        { id: 'urn:plant:7', name: 'Colon' },
        { id: 'other', name: 'Other' },
      ],
    });
    home = tempDir();
    mkdirSync(join(home.path, 'bin'));
    symlinkSync(PLANTS_BIN, join(home.path, 'bin', 'plants'));
    colonsEnv = {
      ...env,
      PATH: `${join(home.path, 'bin')}:${process.env.PATH}`,
      PLANTS_CONFIG_DIR: home.path,
      // Nothing listens there: ids come only from the --base-url on the line.
      PLANTS_BASE_URL: 'http://127.0.0.1:9',
      PLANTS_RETRIES: '0',
    };
    await runCli(['--profile', 'staging', 'config', 'set', 'base-url', colons.url], {
      configDir: home.path,
      env: colonsEnv,
    });
  });
  afterAll(async () => {
    await colons.close();
    home.remove();
  });

  it('plants __complete completes --name=value as one word', async () => {
    const complete = (words: string[]) =>
      runCli(['__complete', '--', ...words], { configDir: home.path, env: colonsEnv }).then((r) => r.stdout);
    expect(await complete(['--profile=st'])).toBe(`--profile=staging\t${colons.url}\n`);
    expect(await complete(['list', '--output=t'])).toBe('--output=table\t\n--output=tsv\t\n');
    expect(await complete(['list', '--nope='])).toBe('');
    expect(await complete([`--base-url=${colons.url}`, 'delete', 'urn:'])).toBe('urn:plant:7\tColon\n');
  });

  describe.each(['bash', 'zsh', 'fish'] as const)('in %s', { timeout: 60_000 }, (shell) => {
    const completes = async (line: string, expected: string) => {
      const sh = await interactiveShell(shell, { cwd: home.path, home: home.path, env: colonsEnv });
      try {
        sh.type(`${line}\t`);
        await sh.waitFor((shown) => shown.includes(expected), JSON.stringify(expected));
      } finally {
        await sh.close();
      }
    };

    it.skipIf(shellMissing(shell))('completes --profile=st', async () => {
      await completes('plants --profile=st', 'plants --profile=staging ');
    });

    it.skipIf(shellMissing(shell))('completes an id with colons, after --base-url=http://host:port', async () => {
      await completes(`plants --base-url=${colons.url} delete urn:p`, ` delete urn:plant:7 `);
    });

    it.skipIf(shellMissing(shell))('completes an id after a colon', async () => {
      await completes(`plants --base-url ${colons.url} delete urn:plant:`, ` delete urn:plant:7 `);
    });
  });
});
