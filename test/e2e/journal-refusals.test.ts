import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, type RunOptions } from '../helpers/cli.js';
import { runCommand } from '../helpers/command.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';

// A journal the run could not write is refused before anything is read,
// listed, asked or sent (docs/scripting.md, "The deletion journal"): the
// service sees no request at all, not even the GET /plants of a prune or of
// a preview, and a person at a terminal is asked nothing.

let dir: ReturnType<typeof tempDir>;
let server: RawServer;
let state: string;
beforeEach(async () => {
  dir = tempDir();
  state = join(dir.path, 'state');
  mkdirSync(state, { mode: 0o700 });
  server = await rawServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ id: 1, name: 'Fern', tag: 'weed' }]));
    } else res.writeHead(204).end();
  });
});
/** A directory a test made immutable (chattr +i), made mutable again before it is removed. */
let immutable: string | undefined;
afterEach(async () => {
  if (immutable !== undefined) runCommand('chattr', ['-i', immutable]);
  immutable = undefined;
  chmodSync(state, 0o700);
  await server.close();
  dir.remove();
});

const plants = (args: string[], options: Partial<RunOptions> = {}) =>
  runCli(args, {
    configDir: dir.path,
    env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN, PLANTS_STATE_DIR: state },
    ...options,
  });
const journalPath = () => join(state, 'deletions.jsonl');
const asRoot = process.getuid?.() === 0;

/** The commands that delete, each as it would first read (prune's list, a preview's lookup) and ask. */
const COMMANDS: [string, string[]][] = [
  ['delete', ['delete', '1']],
  ['prune', ['prune', '--tag', 'weed']],
];

/** Each refusal: how to set it up, the flags it needs, and the line it ends with. */
const REFUSALS: [string, () => { flags: string[]; says: string }][] = [
  [
    '--journal-file -',
    () => ({
      flags: ['--journal-file', '-'],
      says: "plants: --journal-file - is not supported: stdout has the run's results, not its journal; nothing was deleted; give a file's path (--journal-file run.jsonl), or a pipe: --journal-file >(gzip > run.jsonl.gz)",
    }),
  ],
  [
    'a --journal-file that is not a journal',
    () => {
      mkdirSync(join(dir.path, 'other'));
      const config = join(dir.path, 'other', 'config.json');
      writeFileSync(config, '{\n  "profiles": {}\n}\n');
      return {
        flags: ['--journal-file', config],
        says: `plants: --journal-file ${config} is not a deletion journal: its first line is not a journal record; nothing was deleted; name a new file, or one that --journal-file wrote`,
      };
    },
  ],
  [
    'a symbolic link in the state journal’s place',
    () => {
      writeFileSync(join(dir.path, 'elsewhere'), '');
      symlinkSync(join(dir.path, 'elsewhere'), journalPath());
      return {
        flags: [],
        says: `plants: the deletion journal ${journalPath()} is a symbolic link, which plants does not follow there; nothing was deleted; run with --no-journal (or PLANTS_JOURNAL=off) to delete without a record, or --no-journal --journal-file <path> to keep the journal elsewhere`,
      };
    },
  ],
];

describe('a journal the run could not write', () => {
  describe.each(COMMANDS)('%s', (_name, command) => {
    it.each(REFUSALS)('%s: refused on a terminal before any request and before the prompt', async (_what, setUp) => {
      const { flags, says } = setUp();
      const r = await plants([...command, ...flags], { tty: true, answers: [{ when: '[y/N]', send: 'y\r' }] });
      expect(r.code).toBe(2);
      // On a terminal stdout and stderr are one stream.
      expect(r.stdout).toBe(`${says}\r\n`);
      expect(server.requests).toEqual([]);
    });

    it.each(REFUSALS)('%s: refused with --yes, and in a dry run, before any request', async (_what, setUp) => {
      const { flags, says } = setUp();
      for (const more of [['--yes'], ['--dry-run'], ['--yes', '--json']]) {
        const r = await plants([...command, ...flags, ...more]);
        expect(r.code).toBe(2);
        // With --json, the error follows as JSON.
        expect(r.stderr.split('\n')[0]).toBe(says);
        expect(r.stdout).toBe('');
      }
      expect(server.requests).toEqual([]);
    });
  });

  it.each(REFUSALS)(
    'plants api -X DELETE, %s: refused before any request (the protections’ lookup too)',
    async (_what, setUp) => {
      const { flags, says } = setUp();
      // A tag rule: the guard looks the plant up in the list before a DELETE.
      expect((await plants(['config', 'protect', '--tag', 'mother'])).code).toBe(0);
      const r = await plants(['api', '-X', 'DELETE', '/plants/1', ...flags]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`${says}\n`);
      expect(server.requests).toEqual([]);
    },
  );

  it('plants api: a request another method makes a DELETE (X-HTTP-Method-Override) is refused so too', async () => {
    const r = await plants([
      'api',
      '-X',
      'POST',
      '-H',
      'X-HTTP-Method-Override: DELETE',
      '/plants/1',
      '--journal-file',
      '-',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--journal-file - is not supported');
    expect(server.requests).toEqual([]);
  });

  it('a state directory this run cannot mark itself a writer in: refused before any request, a dry run in the same words', async (context) => {
    writeFileSync(journalPath(), '', { mode: 0o600 });
    // Root may write anywhere its mode forbids: an immutable directory stops root too (the journal in it stays writable).
    const reason = asRoot ? 'operation not permitted (EPERM)' : 'permission denied (EACCES)';
    if (asRoot) {
      try {
        runCommand('chattr', ['+i', state]);
      } catch {
        // A file system without the flag (tmpfs): nothing here can stop root.
        context.skip();
      }
      immutable = state;
    } else chmodSync(state, 0o500);
    const says = `plants: cannot mark this run as a writer of the deletion journal in ${state}: ${reason}; nothing was deleted; run with --no-journal (or PLANTS_JOURNAL=off) to delete without a record\n`;
    for (const args of [
      ['prune', '--tag', 'weed', '--yes'],
      ['prune', '--tag', 'weed', '--dry-run'],
      ['delete', '1', '--yes'],
      ['api', '-X', 'DELETE', '/plants/1'],
    ]) {
      const r = await plants(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(says);
    }
    expect(server.requests).toEqual([]);
  });

  it('a journal that can be written is made only by a run that sends: not by a dry run, nor a declined prompt', async () => {
    const file = join(dir.path, 'run.jsonl');
    expect((await plants(['prune', '--tag', 'weed', '--dry-run', '--journal-file', file])).code).toBe(0);
    const declined = await plants(['delete', '1', '--journal-file', file], {
      tty: true,
      answers: [{ when: '[y/N]', send: 'n\r' }],
    });
    expect(declined.code).toBe(2);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(journalPath())).toBe(false);
    expect((await plants(['delete', '1', '--yes', '--journal-file', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('"event":"outcome"');
    expect(readFileSync(journalPath(), 'utf8')).toContain('"event":"outcome"');
  });
});

describe('a --journal-file that is stdout or stderr, or keeps nothing', () => {
  const mixed = (path: string, stream: 'stdout' | 'stderr') =>
    `plants: --journal-file ${path} is this run's ${stream}, which has the run's ${stream === 'stdout' ? 'results' : 'messages'}: its records would be mixed into them; nothing was deleted; give a file's path (--journal-file run.jsonl), or a pipe: --journal-file >(gzip > run.jsonl.gz)`;

  it.each([
    ['/dev/stdout', 'stdout'],
    ['/dev/fd/1', 'stdout'],
    ['/proc/self/fd/1', 'stdout'],
    ['/dev/stderr', 'stderr'],
    ['/dev/fd/2', 'stderr'],
    ['/proc/self/fd/2', 'stderr'],
  ] as const)('%s is refused before any request: its records would be mixed into the output', async (path, stream) => {
    for (const args of [
      ['delete', '1', '--yes', '--json'],
      ['prune', '--tag', 'weed', '--yes', '--json'],
      ['delete', '1', '--dry-run'],
      ['api', '-X', 'DELETE', '/plants/1'],
    ]) {
      const r = await plants([...args, '--journal-file', path]);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(mixed(path, stream));
      expect(r.stdout).toBe('');
    }
    expect(server.requests).toEqual([]);
  });

  it('the file stdout is redirected to is refused as a journal file, and left empty', async () => {
    const out = join(dir.path, 'out.json');
    const r = await plants(['delete', '1', '--yes', '--json', '--journal-file', out], { stdoutTo: out });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(mixed(out, 'stdout'));
    expect(readFileSync(out, 'utf8')).toBe('');
    expect(server.requests).toEqual([]);
    // Another file is a journal file like any other, stdout redirected or not.
    const other = join(dir.path, 'run.jsonl');
    expect((await plants(['delete', '1', '--yes', '--json', '--journal-file', other], { stdoutTo: out })).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject([{ id: '1', result: 'deleted' }]);
    expect(readFileSync(other, 'utf8')).toContain('"event":"outcome"');
  });

  it('/dev/null is refused, with the way to delete without a record; /dev/full is not (it fails as a full disk)', async () => {
    for (const args of [
      ['delete', '1', '--yes'],
      ['delete', '1', '--yes', '--no-journal'],
      ['prune', '--tag', 'weed', '--dry-run'],
    ]) {
      const r = await plants([...args, '--journal-file', '/dev/null']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        'plants: --journal-file /dev/null is /dev/null, which keeps nothing; nothing was deleted; to delete without a record, leave --journal-file out and run with --no-journal (or PLANTS_JOURNAL=off)\n',
      );
    }
    expect(server.requests).toEqual([]);
    const full = await plants(['delete', '1', '--yes', '--journal-file', '/dev/full']);
    expect(full.code).toBe(2);
    expect(full.stderr).toContain('no space left on device (ENOSPC)');
    expect(server.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
  });

  it.runIf(existsSync('/dev/zero'))(
    'a device that throws writes away (/dev/zero, /dev/random, /dev/urandom) is refused, a dry run too',
    async () => {
      for (const device of ['/dev/zero', '/dev/random', '/dev/urandom']) {
        for (const args of [
          ['delete', '1', '--yes'],
          ['prune', '--tag', 'weed', '--dry-run'],
        ]) {
          const r = await plants([...args, '--journal-file', device]);
          expect(r.code).toBe(2);
          expect(r.stderr).toBe(
            `plants: --journal-file ${device} is a device that is not a terminal (as /dev/zero or /dev/urandom), which may keep nothing written to it; nothing was deleted; give a file's path (--journal-file run.jsonl), or a pipe: --journal-file >(gzip > run.jsonl.gz)\n`,
          );
        }
      }
      expect(server.requests).toEqual([]);
    },
  );
});
