import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PLANTS_BIN, runCli, tempDir } from '../helpers/cli.js';
import { plantStore, TOKEN } from '../helpers/servers.js';
import { interactiveShell, shellMissing, type ShellName } from '../helpers/shell.js';

// Ids and names a hostile service could send: completion must neither run them
// nor let their escape sequences reach the terminal.
const SEMICOLON = 'zz1;touch x;#';
// No backslash: plants refuses to send an id with one (a server may take it for a slash).
const EVERYTHING = 'zz2 $(touch y) `touch z` "dq" \'sq\' * ? [a] ~ !! {a,b} | & <> end';
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

const deletes = () => store.requests.filter((r) => r.method === 'DELETE');

describe('plants __complete with hostile data', () => {
  const complete = (words: string[]) => runCli(['__complete', '--', ...words], { configDir: home.path, env });

  it('offers no id with control characters (one line each, shown as it is), and escapes them in names', async () => {
    const r = await complete(['delete', '']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'osc1\tEvil \\u001b]52;c;aGVsbG8=\\u0007 \\u001b]0;pwned\\u0007 \\u009b31m end',
        'osc2\tPlain',
        `${SEMICOLON}\tsemicolon`,
        `${EVERYTHING}\teverything`,
        '',
      ].join('\n'),
    );
  });

  it('offers ids that start with a dash only after --, and never -', async () => {
    expect((await complete(['delete', '1', ''])).stdout).not.toMatch(/^-/m);
    expect((await complete(['delete', '--', ''])).stdout).toMatch(/^--yes\ta flag$/m);
    expect((await complete(['delete', '--', ''])).stdout).not.toMatch(/^-\t/m);
    // A flag's prefix still completes the flags.
    expect((await complete(['delete', '--y'])).stdout).toBe(
      '--yes\tdo not ask for confirmation (required when stdin is not a terminal)\n',
    );
  });
});

const SHELLS: ShellName[] = ['bash', 'zsh', 'fish'];

describe.each(SHELLS)('in an interactive %s', { timeout: 60_000 }, (shell) => {
  const start = () => interactiveShell(shell, { cwd: work, home: home.path, env });

  it.skipIf(shellMissing(shell))(
    'inserts hostile ids as one literal word each: Tab, Enter, and only plants runs',
    async () => {
      const sh = await start();
      try {
        sh.type('plants delete --yes zz1\t');
        await sh.waitFor(/zz1\\?;touch\\? x\\?;\\?# /, 'the completed id');
        await sh.enter();
        sh.type('plants delete --yes zz2\t');
        await sh.waitFor(/zz2.*end /, 'the completed id');
        await sh.enter();
      } finally {
        await sh.close();
      }
      expect(sh.output).not.toContain(TOKEN);
      // No touch ran: no x, y, z or w.
      expect(readdirSync(work)).toEqual([]);
      expect(deletes()).toEqual([
        { method: 'DELETE', path: '/plants/zz1%3Btouch%20x%3B%23', status: 204 },
        { method: 'DELETE', path: expect.any(String) as string, status: 204 },
      ]);
      expect(decodeURIComponent(deletes()[1]!.path.slice('/plants/'.length))).toBe(EVERYTHING);
    },
  );

  it.skipIf(shellMissing(shell))('completes a word typed with its quoting, as completion inserts it', async () => {
    const sh = await start();
    try {
      sh.type('plants delete zz1\\;t\t');
      await sh.waitFor(/zz1\\;touch\\ x\\;\\?# /, 'the completed id');
    } finally {
      await sh.close();
    }
    expect(deletes()).toEqual([]);
  });

  // bash lists the values only, not the names.
  if (shell === 'bash') return;
  it.skipIf(shellMissing(shell))('shows names with escape sequences escaped, never raw', async () => {
    const sh = await start();
    try {
      sh.type('plants delete osc\t');
      // zsh lists `osc2  -- Plain`, fish `osc2  (Plain)`.
      await sh.waitFor((shown) => /osc1\W+Evil/.test(shown) && /osc2\W+Plain/.test(shown), 'both names');
    } finally {
      await sh.close();
    }
    // The name's sequences never reached the terminal raw: no OSC 52 (clipboard), no title, no C1 CSI.
    expect(sh.output).not.toContain('\u001b]52');
    expect(sh.output).not.toContain('\u001b]0;pwned');
    expect(sh.output).not.toContain('\u009b');
    expect(sh.output).toContain('Evil \\u001b]52;c;aGVsbG8=\\u0007 \\u001b]0;pwned\\u0007 \\u009b31m end');
    expect(deletes()).toEqual([]);
  });
});
