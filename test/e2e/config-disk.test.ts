import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statfsSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDir, type JsonError } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';
import { runCommand } from '../helpers/command.js';

/*
 * The config file on a full disk, a read-only file system, and when it is
 * something plants must not read. Full and read-only are real: a small tmpfs
 * (the tests run as root; root ignores permission bits, so a read-only
 * mount stands in for an unwritable directory). The code cache is off: it
 * would spend the tmpfs's space before the config does.
 */

const NO_CODE_CACHE = { PLANTS_CODE_CACHE: '0' };

/** Why a tmpfs cannot be mounted here, found by trying once; undefined when it can. */
function whyNoTmpfs(): string | undefined {
  if (process.platform !== 'linux') return 'tmpfs mounts need Linux';
  const probe = mkdtempSync(join(tmpdir(), 'plants-tmpfs-probe-'));
  try {
    runCommand('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]);
    runCommand('umount', [probe]);
    return undefined;
  } catch (err) {
    const said = String((err as { stderr?: Buffer }).stderr ?? (err as Error).message)
      .trim()
      .split('\n')[0];
    return `cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN): ${said}`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
const noTmpfs = whyNoTmpfs();

const mounted: string[] = [];

/** A fresh tmpfs of `pages` pages, unmounted after the test whatever happens. */
function smallTmpfs(pages = 16): { path: string; page: number } {
  const path = mkdtempSync(join(tmpdir(), 'plants-tmpfs-'));
  runCommand('mount', ['-t', 'tmpfs', '-o', `nr_blocks=${pages},mode=0700`, 'tmpfs', path]);
  mounted.push(path);
  return { path, page: statfsSync(path).bsize };
}

afterEach(() => {
  for (const path of mounted.splice(0)) {
    try {
      runCommand('umount', [path]);
    } catch {
      runCommand('umount', ['-l', path]);
    }
    rmdirSync(path);
  }
});

/** Fill the file system at `dir`, then free `leave` bytes (whole pages) by shortening the filler. */
function fill(dir: string, leave: number): void {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  const page = Buffer.alloc(statfsSync(dir).bsize, 0x2e);
  try {
    for (;;) writeSync(fd, page);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  truncateSync(filler, statSync(filler).size - leave);
  const free = statfsSync(dir);
  expect(free.bavail * free.bsize, 'free space after filling').toBe(leave);
}

/** Run plants, killing it after `ms`: a regression here is a run that never ends. */
async function plantsWithin(ms: number, args: string[], configDir: string) {
  const run = spawnCli(args, { configDir, env: { NO_COLOR: '1', ...NO_CODE_CACHE } });
  const deadline = setTimeout(() => run.child.kill('SIGKILL'), ms);
  const code = await run.exit;
  clearTimeout(deadline);
  return { code, signal: run.child.signalCode, ...run.out };
}

describe('on a small tmpfs', () => {
  beforeEach((ctx) => {
    if (noTmpfs) ctx.skip(noTmpfs);
  });

  it.each([
    ['no page left', 0],
    ['one page left: the write is short, then the disk is full', 1],
  ])(
    'on a full disk (%s), config set and auth login fail with exit 2 and keep the file, tokens and all',
    async (_case, pagesLeft) => {
      const { path: mount, page } = smallTmpfs();
      const configDir = join(mount, 'plants');
      const file = join(configDir, 'config.json');
      const plants = (args: string[], input?: string) => runCli(args, { configDir, env: NO_CODE_CACHE, input });
      // Longer than a page, so the one page left takes part of it.
      const token = `tok-${'x'.repeat(Math.ceil(page * 1.5))}`;
      expect((await plants(['config', 'set', 'base-url', 'https://plants.example.com/api'])).code).toBe(0);
      expect((await plants(['auth', 'login', '--with-token', '--no-verify'], token)).code).toBe(0);
      expect((await plants(['--profile', 'staging', 'config', 'set', 'base-url', 'https://s.example.com'])).code).toBe(
        0,
      );
      expect(
        (await plants(['--profile', 'staging', 'auth', 'login', '--with-token', '--no-verify'], 'staging-token')).code,
      ).toBe(0);
      const before = readFileSync(file);
      expect(before.length).toBeGreaterThan(page);

      fill(mount, pagesLeft * page);
      const noSpace = `plants: cannot write the config file ${file}: no space left on device (ENOSPC); nothing was changed\n`;
      const set = await plants(['config', 'set', 'base-url', 'https://other.example.com']);
      expect(set).toMatchObject({ code: 2, stdout: '', stderr: noSpace });
      const login = await plants(['auth', 'login', '--with-token', '--no-verify'], `new-${token}`);
      expect(login).toMatchObject({ code: 2, stdout: '', stderr: noSpace });

      expect(readFileSync(file).equals(before), 'config.json changed').toBe(true);
      expect(readdirSync(configDir)).toEqual(['config.json']);
      // Reading needs no space.
      const list = await plants(['config', 'list']);
      expect(list).toMatchObject({
        code: 0,
        stdout: 'profile=default\nbase-url=https://plants.example.com/api\ntoken=(set)\nmax-deletes=(not set)\n',
      });
      rmSync(join(mount, 'filler'));
      expect((await plants(['config', 'set', 'base-url', 'https://other.example.com'])).code).toBe(0);
    },
  );

  it('on a read-only file system, changes fail with exit 2 naming the file; reading still works', async () => {
    const { path: mount } = smallTmpfs();
    const configDir = join(mount, 'plants');
    const file = join(configDir, 'config.json');
    const plants = (args: string[], options: { dir?: string; input?: string } = {}) =>
      runCli(args, { configDir: options.dir ?? configDir, env: NO_CODE_CACHE, input: options.input });
    expect((await plants(['config', 'set', 'base-url', 'https://plants.example.com/api'])).code).toBe(0);
    expect((await plants(['auth', 'login', '--with-token', '--no-verify'], { input: 'the-token' })).code).toBe(0);
    const before = readFileSync(file);
    runCommand('mount', ['-o', 'remount,ro', mount]);

    const readOnly = `plants: cannot write the config file ${file}: cannot create its lock file ${file}.lock: read-only file system (EROFS); nothing was changed\n`;
    expect(await plants(['config', 'set', 'base-url', 'https://other.example.com'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: readOnly,
    });
    expect(await plants(['auth', 'login', '--with-token', '--no-verify'], { input: 'new-token' })).toMatchObject({
      code: 2,
      stderr: readOnly,
    });
    expect(await plants(['auth', 'logout'])).toMatchObject({ code: 2, stderr: readOnly });
    expect(readFileSync(file).equals(before)).toBe(true);
    expect((await plants(['config', 'get', 'base-url'])).stdout).toBe('https://plants.example.com/api\n');

    // A config directory still to be made there: the JSON error line says `config`.
    const missing = join(mount, 'elsewhere', 'plants');
    const cannotMake = `cannot create the config directory ${missing}: read-only file system (EROFS)`;
    const list = await plants(['list', '--json'], { dir: missing });
    expect(list.code).toBe(2);
    expect(list.stderr).toBe(
      `plants: ${cannotMake}\n${JSON.stringify({ error: { code: 'config', status: null, message: cannotMake, request_id: null } })}\n`,
    );
  });
});

describe('the deletion journal on a small tmpfs: nothing is deleted that cannot be recorded', () => {
  let server: RawServer | undefined;
  let home: ReturnType<typeof tempDir>;
  beforeEach((ctx) => {
    if (noTmpfs) ctx.skip(noTmpfs);
    home = tempDir();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    home.remove();
  });

  /** `delete 1 2 --yes --json` with the journal in `stateDir`: what it said, and what the service saw. */
  async function deleteWithJournalIn(stateDir: string) {
    server ??= await rawServer((_req, res) => res.writeHead(204).end());
    const r = await runCli(['delete', '1', '2', '--yes', '--json'], {
      configDir: home.path,
      env: { ...NO_CODE_CACHE, PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN, PLANTS_STATE_DIR: stateDir },
    });
    const error = (JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as JsonError).error;
    return { ...r, error, deletes: server.requests.filter((q) => q.method === 'DELETE') };
  }

  it('read-only, with the journal there or still to be made: exit 2 before any DELETE, naming the path and the way on', async () => {
    const { path: mount } = smallTmpfs();
    const existing = join(mount, 'state');
    mkdirSync(existing);
    writeFileSync(join(existing, 'deletions.jsonl'), '');
    runCommand('mount', ['-o', 'remount,ro', mount]);
    for (const [dir, what] of [
      [existing, `cannot write the deletion journal ${join(existing, 'deletions.jsonl')}`],
      [join(mount, 'new', 'state'), `cannot make the directory of the deletion journal ${join(mount, 'new', 'state')}`],
    ] as const) {
      const r = await deleteWithJournalIn(dir);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.error.code).toBe('journal');
      expect(r.error.message).toBe(
        `${what}: read-only file system (EROFS); nothing was deleted; run with --no-journal (or PLANTS_JOURNAL=off) to delete without a record`,
      );
      expect(r.deletes).toEqual([]);
    }
  });

  it('full: exit 2 before any DELETE; with space again, the run goes through and is on record', async () => {
    const { path: mount } = smallTmpfs();
    const state = join(mount, 'state');
    mkdirSync(state);
    fill(mount, 0);
    const full = await deleteWithJournalIn(state);
    expect(full.code).toBe(2);
    expect(full.error.code).toBe('journal');
    expect(full.error.message).toMatch(
      /^cannot write the deletion journal .*deletions\.jsonl: no space left on device \(ENOSPC\); nothing was deleted; run with --no-journal/,
    );
    expect(full.deletes).toEqual([]);
    rmSync(join(mount, 'filler'));
    const after = await runCli(['delete', '1', '--yes'], {
      configDir: home.path,
      env: { ...NO_CODE_CACHE, PLANTS_BASE_URL: server!.url, PLANTS_TOKEN: TOKEN, PLANTS_STATE_DIR: state },
    });
    expect(after.code).toBe(0);
    const records = readFileSync(join(state, 'deletions.jsonl'), 'utf8').trimEnd().split('\n');
    expect(records.map((line) => (JSON.parse(line) as { event: string }).event)).toEqual([
      'start',
      'intent',
      'outcome',
    ]);
  });
});

describe('a config.json plants must not read', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());
  const file = () => join(dir.path, 'config.json');

  it.each([
    [
      '2 MiB of valid JSON',
      () => writeFileSync(file(), `{"profile": "default"${' '.repeat(2 * 1024 * 1024 - 22)}}`),
      2 * 1024 * 1024,
    ],
    ['8 GiB (sparse)', () => truncateSync((writeFileSync(file(), ''), file()), 8 * 1024 ** 3), 8 * 1024 ** 3],
  ])('refuses one of %s unread: exit 2, one line, JSON code config', async (_case, make, size) => {
    make();
    // Reading 8 GiB would take long past the test's time limit: end the run rather than leave it reading.
    const r = await plantsWithin(10_000, ['list', '--json'], dir.path);
    const message = `cannot read the config file ${file()}: it is ${size} bytes, more than the 1 MiB (1048576 bytes) a config file may hold; fix it, or remove it and configure again`;
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `plants: ${message}\n${JSON.stringify({ error: { code: 'config', status: null, message, request_id: null } })}\n`,
    );
    expect(statSync(file()).size).toBe(size);
  });

  it.each([
    ['100,000 [', '['.repeat(100_000)],
    ['a valid value nested 100,000 deep', `{"profiles":{"default":{"x":${'['.repeat(1e5)}${']'.repeat(1e5)}}}}`],
  ])(
    'refuses a file nested too deeply (%s): exit 2, code config, never internal, reading or writing',
    async (_case, text) => {
      writeFileSync(file(), text);
      const message = `cannot read the config file ${file()}: it is nested more than 32 levels deep (a config file needs 4); fix it, or remove it and configure again`;
      // Writing it back would overflow the stack: it was an internal error (exit 1).
      const set = await runCli(['config', 'set', 'base-url', 'https://plants.example.com'], {
        configDir: dir.path,
        env: NO_CODE_CACHE,
      });
      expect(set).toMatchObject({ code: 2, stdout: '', stderr: `plants: ${message}\n` });
      const list = await runCli(['config', 'list', '--json'], { configDir: dir.path, env: NO_CODE_CACHE });
      expect(list).toMatchObject({ code: 2, stdout: '' });
      expect(list.stderr).toBe(
        `plants: ${message}\n${JSON.stringify({ error: { code: 'config', status: null, message, request_id: null } })}\n`,
      );
      expect(readFileSync(file(), 'utf8')).toBe(text);
    },
  );

  it('reads a file saved with a UTF-8 byte order mark (as Windows editors save it)', async () => {
    writeFileSync(file(), '\uFEFF{"profiles": {"default": {"base-url": "https://bom.example.com"}}}', { mode: 0o600 });
    const r = await runCli(['config', 'get', 'base-url'], { configDir: dir.path, env: NO_CODE_CACHE });
    expect(r).toMatchObject({ code: 0, stdout: 'https://bom.example.com\n', stderr: '' });
  });

  it('refuses a directory named config.json', async () => {
    mkdirSync(file());
    const r = await runCli(['config', 'set', 'base-url', 'https://plants.example.com'], {
      configDir: dir.path,
      env: NO_CODE_CACHE,
    });
    expect(r).toMatchObject({
      code: 2,
      stderr: `plants: cannot read the config file ${file()}: it is a directory; fix it, or remove it and configure again\n`,
    });
  });

  it('refuses a FIFO named config.json instead of waiting on it for ever', async () => {
    runCommand('mkfifo', [file()]);
    const r = await plantsWithin(10_000, ['config', 'list'], dir.path);
    expect(r).toMatchObject({
      code: 2,
      stderr: `plants: cannot read the config file ${file()}: it is not a regular file; fix it, or remove it and configure again\n`,
    });
  });

  it('gives up on a stale lock it cannot remove instead of spinning for ever', async () => {
    expect(
      (
        await runCli(['config', 'set', 'base-url', 'https://plants.example.com'], {
          configDir: dir.path,
          env: NO_CODE_CACHE,
        })
      ).code,
    ).toBe(0);
    const before = readFileSync(file());
    // A directory where the lock file goes: old, so taken for a dead run's lock, and unlink cannot remove it.
    mkdirSync(`${file()}.lock`);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(`${file()}.lock`, anHourAgo, anHourAgo);
    const r = await plantsWithin(10_000, ['config', 'set', 'base-url', 'https://other.example.com'], dir.path);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^plants: cannot write the config file ${file()}: cannot remove the stale lock file ${file()}\\.lock: [^\\n]+; nothing was changed\\n$`,
      ),
    );
    expect(readFileSync(file()).equals(before)).toBe(true);
  });
});

describe('what a run killed mid-write leaves behind', () => {
  /** Above the largest pid Linux hands out (pid_max is at most 2^22): a run that has ended. */
  const ENDED_PID = 2 ** 22 + 1;
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it('20 runs at once find the fresh lock of a run that has ended: one takes it over at once, and no update is lost', async () => {
    const file = join(dir.path, 'config.json');
    expect(
      (await runCli(['config', 'set', 'base-url', 'https://default.example.com'], { configDir: dir.path })).code,
    ).toBe(0);
    // What kill -9 during `auth login` leaves: its lock, and its copy of the file with the token.
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: ENDED_PID, host: hostname(), id: 'killed-run' }));
    writeFileSync(`${file}.${ENDED_PID}.k3x9q2ab.tmp`, JSON.stringify({ profiles: { default: { token: TOKEN } } }));
    const names = Array.from({ length: 20 }, (_, i) => `p${i + 1}`);
    const runs = names.map((name) =>
      spawnCli(['--debug', '--profile', name, 'config', 'set', 'base-url', `https://${name}.example.com`], {
        configDir: dir.path,
        env: { NO_COLOR: '1' },
      }),
    );
    // A run that waited for the lock by its age would give up after 5 s (exit 2), long before it turned 10 s old.
    expect(await Promise.all(runs.map((run) => run.exit))).toEqual(names.map(() => 0));
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, unknown> };
    expect(saved.profiles).toEqual({
      default: { 'base-url': 'https://default.example.com' },
      ...Object.fromEntries(names.map((name) => [name, { 'base-url': `https://${name}.example.com` }])),
    });
    // Exactly one run removed the dead run's lock, because its owner had ended (not by age).
    const takeovers = runs.flatMap((run) => run.out.stderr.split('\n').filter((line) => line.includes(' removed ')));
    expect(takeovers).toEqual([`plants: debug: removed ${file}.lock, the lock of run ${ENDED_PID}, which has ended`]);
    expect(readdirSync(dir.path).filter((name) => name.startsWith('config.json'))).toEqual(['config.json']);
  });
});
