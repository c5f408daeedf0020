import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLANTS_BIN, runCli, tempDir } from '../helpers/cli.js';
import { plantStore, TOKEN } from '../helpers/servers.js';

// Ids and names a hostile service could send: completion must neither run them
// nor let their escape sequences reach the terminal.
const SEMICOLON = 'zz1;touch x;#';
const EVERYTHING = 'zz2 $(touch y) `touch z` "dq" \'sq\' * ? [a] ~ !! {a,b} \\ end';
const OSC_NAME = 'Evil \u001b]52;c;aGVsbG8=\u0007 \u001b]0;pwned\u0007 \u009b31m end';
const HOSTILE = [
  { id: SEMICOLON, name: 'semicolon' },
  { id: EVERYTHING, name: 'everything' },
  { id: 'zz3\ntouch w', name: 'newline' },
  { id: 'zz4\u001b[2J', name: 'escape' },
  { id: 'osc1', name: OSC_NAME },
  { id: 'osc2', name: 'Plain' },
  { id: '--yes', name: 'a flag' },
  { id: '-', name: 'standard input' },
];

let store: Awaited<ReturnType<typeof plantStore>>;
let home: ReturnType<typeof tempDir>;
/** The shells' working directory: whatever a hostile id could make the shell run would leave files here. */
let work: string;
let env: Record<string, string>;

beforeEach(async () => {
  store = await plantStore({ plants: HOSTILE });
  home = tempDir();
  work = join(home.path, 'work');
  mkdirSync(work);
  // The scripts call `plants` by name, as an installed CLI would be.
  mkdirSync(join(home.path, 'bin'));
  symlinkSync(PLANTS_BIN, join(home.path, 'bin', 'plants'));
  env = {
    PATH: `${join(home.path, 'bin')}:${process.env.PATH}`,
    LANG: 'C.UTF-8',
    PLANTS_CONFIG_DIR: home.path,
    PLANTS_BASE_URL: store.url,
    PLANTS_TOKEN: TOKEN,
    PLANTS_RETRIES: '0',
    NO_COLOR: '1',
  };
});
afterEach(async () => {
  await store.close();
  home.remove();
});

describe('plants __complete with hostile data', () => {
  const complete = (words: string[]) => runCli(['__complete', '--', ...words], { configDir: home.path, env });

  it('offers no id with control characters (one line each, shown as it is), and escapes them in names', async () => {
    const r = await complete(['delete', '']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `${SEMICOLON}\tsemicolon`,
        `${EVERYTHING}\teverything`,
        'osc1\tEvil \\u001b]52;c;aGVsbG8=\\u0007 \\u001b]0;pwned\\u0007 \\u009b31m end',
        'osc2\tPlain',
        '',
      ].join('\n'),
    );
  });

  it('offers ids that start with a dash only after --, and never -', async () => {
    expect((await complete(['delete', '1', ''])).stdout).not.toMatch(/^-/m);
    expect((await complete(['delete', '--', ''])).stdout).toMatch(/^--yes\ta flag$/m);
    expect((await complete(['delete', '--', ''])).stdout).not.toMatch(/^-\t/m);
    // A flag's prefix still completes the flags.
    expect((await complete(['delete', '--y'])).stdout).toBe('--yes\tdo not ask for confirmation (required when stdin is not a terminal)\n');
  });
});
