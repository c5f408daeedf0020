import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDir, waitFor } from '../helpers/cli.js';
import { TOKEN } from '../helpers/servers.js';
import { runCommand } from '../helpers/command.js';

// `plants history` reads the deletion journal back (docs/commands.md,
// "plants history"). The journals here are written as plants writes them,
// so each case can hold exactly the history it needs.

let dir: ReturnType<typeof tempDir>;
let state: string;
beforeEach(() => {
  dir = tempDir();
  state = join(dir.path, 'state');
  mkdirSync(state);
});
afterEach(() => dir.remove());

const history = (args: string[], options: { tty?: boolean; columns?: number } = {}) =>
  runCli(['history', ...args], { configDir: dir.path, env: { PLANTS_STATE_DIR: state }, ...options });

const RUN_A = 'aaaa1111-0000-4000-8000-000000000001';
const RUN_B = 'bbbb2222-0000-4000-8000-000000000002';
const RUN_C = 'bbbb3333-0000-4000-8000-000000000003';

/** A record as DeletionJournal writes it. */
function record(run: string, time: string, event: string, fields: Record<string, unknown> = {}, profile = 'default') {
  return JSON.stringify({
    v: 1,
    event,
    run,
    time,
    command: run === RUN_A ? 'delete' : 'prune',
    profile,
    base_url: run === RUN_C ? 'https://staging.example.com/api' : 'https://plants.example.com/api',
    ...fields,
  });
}
const intent = (run: string, time: string, id: string, extra: Record<string, unknown> = {}, profile?: string) =>
  record(run, time, 'intent', { id, request_id: `${run}-${id}`, ...extra }, profile);
const outcome = (run: string, time: string, id: string, result: string, status: number | null, profile?: string) =>
  record(run, time, 'outcome', { id, request_id: `${run}-${id}`, result, status, attempts: 1 }, profile);

const JOURNAL = [
  record(RUN_A, '2026-11-20T10:00:00.000Z', 'start', { plants: 2 }),
  intent(RUN_A, '2026-11-20T10:00:00.100Z', '7'),
  outcome(RUN_A, '2026-11-20T10:00:00.200Z', '7', 'deleted', 204),
  intent(RUN_A, '2026-11-20T10:00:00.300Z', '8'),
  outcome(RUN_A, '2026-11-20T10:00:00.400Z', '8', 'not_found', 404),
  record(RUN_B, '2026-11-24T22:00:00.000Z', 'start', { plants: 3 }),
  intent(RUN_B, '2026-11-24T22:00:00.100Z', '7', { name: 'Fern\tthe\nsecond', tag: 'weed' }),
  outcome(RUN_B, '2026-11-24T22:00:00.200Z', '7', 'deleted', 204),
  // Killed while these two were in flight: no outcome, so unknown.
  intent(RUN_B, '2026-11-24T22:00:00.300Z', '9', { name: 'Aloe', tag: 'weed' }),
  intent(RUN_B, '2026-11-24T22:00:00.400Z', '10', { name: 'Ivy', tag: 'weed' }),
  record(RUN_C, '2026-11-25T09:00:00.000Z', 'start', { plants: 1 }, 'staging'),
  intent(RUN_C, '2026-11-25T09:00:00.100Z', '3', {}, 'staging'),
  outcome(RUN_C, '2026-11-25T09:00:00.200Z', '3', 'failed', 500, 'staging'),
];

const write = (lines: string[], name = 'deletions.jsonl') =>
  writeFileSync(join(state, name), `${lines.join('\n')}\n`, { mode: 0o600 });

describe('plants history', () => {
  it('one line per run, newest first: tab-separated when piped, with fixed columns', async () => {
    write(JOURNAL);
    const r = await history([]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        `${RUN_C}\t2026-11-25T09:00:00.000Z\tstaging\thttps://staging.example.com/api\tprune\t1\t0\t0\t0\t0\t1\t0`,
        `${RUN_B}\t2026-11-24T22:00:00.000Z\tdefault\thttps://plants.example.com/api\tprune\t3\t1\t0\t0\t2\t0\t0`,
        `${RUN_A}\t2026-11-20T10:00:00.000Z\tdefault\thttps://plants.example.com/api\tdelete\t2\t1\t0\t1\t0\t0\t0`,
        '',
      ].join('\n'),
    );
  });

  it('a table on a terminal, fitted to its width', async () => {
    write(JOURNAL);
    const wide = await history([], { tty: true, columns: 120 });
    expect(wide.stdout.split('\r\n')[1]).toMatch(
      /^bbbb3333\s+2026-11-25 09:00:00\s+staging\s+staging\.example\.com\/api\s+prune\s+1 failed$/,
    );
    const r = await history([], { tty: true, columns: 60 });
    const lines = r.stdout.split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toMatch(/^RUN\s+WHEN/);
    expect(lines[1]).toMatch(/^bbbb3333 .*…/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });

  it("<run>: that run's plants with their outcome, an intent without one as unknown; service text escaped", async () => {
    write(JOURNAL);
    const r = await history(['bbbb2222']);
    expect(r.stdout).toBe(
      [
        `7\tFern\\tthe\\nsecond\tweed\tdeleted\t204\t${RUN_B}-7\t1\t2026-11-24T22:00:00.200Z`,
        `9\tAloe\tweed\tunknown\t\t${RUN_B}-9\t\t2026-11-24T22:00:00.300Z`,
        `10\tIvy\tweed\tunknown\t\t${RUN_B}-10\t\t2026-11-24T22:00:00.400Z`,
        '',
      ].join('\n'),
    );
    const json = await history([RUN_B, '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ id: '7', name: 'Fern\tthe\nsecond', result: 'deleted', status: 204 }),
      expect.objectContaining({ id: '9', result: 'unknown', status: null, request_id: `${RUN_B}-9` }),
      expect.objectContaining({ id: '10', result: 'unknown' }),
    ]);
  });

  it('a run id must be whole or a beginning only one run has, of 4 characters or more', async () => {
    write(JOURNAL);
    expect((await history(['bbbb'])).stderr).toBe(
      `plants: run "bbbb" is the beginning of 2 runs' ids; give more of it\n`,
    );
    expect((await history(['aaa'])).stderr).toMatch(/no run "aaa" on record \(give at least 4 characters of its id\)/);
    const none = await history(['cccc']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no run "cccc" on record; 'plants history' lists the runs/);
    expect((await history(['aaaa'])).stdout.split('\n')).toHaveLength(3);
  });

  it.each([
    [['--profile', 'staging'], [RUN_C]],
    [
      ['--id', '7'],
      [RUN_B, RUN_A],
    ],
    [['--id', '3'], [RUN_C]],
    [['--result', 'unknown'], [RUN_B]],
    [['--result', 'not_found'], [RUN_A]],
    [
      ['--since', '2026-11-24'],
      [RUN_C, RUN_B],
    ],
    [['--since', '2026-11-24T22:00:00.001Z'], [RUN_C]],
    [['--id', '7', '--profile', 'staging'], []],
  ])('%j selects %j', async (args, runs) => {
    write(JOURNAL);
    const r = await history([...args, '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { run: string }[]).map((run) => run.run)).toEqual(runs);
  });

  it('--since a duration counts back from now', async () => {
    const recent = new Date(Date.now() - 3_600_000).toISOString();
    write([...JOURNAL, record(RUN_A.replace('aaaa', 'dddd'), recent, 'start', { plants: 0 })]);
    const r = await history(['--since', '2h', '--json']);
    expect((JSON.parse(r.stdout) as { run: string }[]).map((run) => run.run)).toEqual([RUN_A.replace('aaaa', 'dddd')]);
  });

  it('--result in one run keeps only the plants of that result', async () => {
    write(JOURNAL);
    const r = await history([RUN_B, '--result', 'unknown', '-o', 'csv']);
    // CSV lines end in CRLF (RFC 4180).
    const lines = r.stdout.split('\r\n');
    expect(lines[0]).toBe('id,name,tag,result,status,request_id,attempts,time');
    expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual(['9', '10']);
  });

  it('a repeated --result adds up, as a comma list does', async () => {
    write(JOURNAL);
    const repeated = await history([RUN_B, '--result', 'unknown', '--result', 'deleted', '--json']);
    expect(repeated.code).toBe(0);
    const listed = (JSON.parse(repeated.stdout) as { id: string }[]).map((plant) => plant.id);
    expect(listed).toEqual(['7', '9', '10']);
    const comma = await history([RUN_B, '--result', 'unknown,deleted', '--json']);
    expect(JSON.parse(comma.stdout)).toEqual(JSON.parse(repeated.stdout));
    // Across runs too: a run with either result.
    const runs = await history(['--result', 'failed', '--result', 'not_found', '--json']);
    expect((JSON.parse(runs.stdout) as { run: string }[]).map((run) => run.run)).toEqual([RUN_C, RUN_A]);
  });

  it('<run> finds the run among all; --since and --profile say whether it is wanted, --result and --id pick its plants', async () => {
    write(JOURNAL);
    const none = await history([RUN_A, '--result', 'unknown']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe('No plants of this run on record match --result unknown\n');
    const one = await history([RUN_B, '--id', '9', '--json']);
    expect((JSON.parse(one.stdout) as { id: string }[]).map((plant) => plant.id)).toEqual(['9']);
    // A run the other filters leave out is found, and said not to match them: they are not ignored.
    for (const [args, filters] of [
      [['--since', '2026-11-21'], '--since 2026-11-21T00:00:00Z'],
      [['--profile', 'staging'], '--profile staging'],
    ] as const) {
      const left = await history([RUN_A, ...args]);
      expect(left.code, filters).toBe(0);
      expect(left.stdout, filters).toBe('');
      expect(left.stderr, filters).toBe(`Run ${RUN_A} does not match ${filters}\n`);
      expect((await history([RUN_A, ...args, '--json'])).stdout, filters).toBe('[]\n');
    }
    const kept = await history([RUN_B, '--since', '2026-11-21', '--profile', 'default', '--json']);
    expect((JSON.parse(kept.stdout) as unknown[]).length).toBe(3);
  });

  it('says which filters matched none of the runs on record, rather than that there are none', async () => {
    write(JOURNAL);
    const r = await history(['--id', '999', '--result', 'unknown']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^None of the \d+ runs on record in .+ match --id 999 --result unknown\n$/);
    const odd = await history(['--id', 'Ficus 7']);
    expect(odd.stderr).toMatch(/ match --id "Ficus 7"\n$/);
    // A --since before any date a Date holds leaves out nothing, and is not named.
    const far = await history(['--since', '20000000w', '--id', '999']);
    expect(far.code).toBe(0);
    expect(far.stderr).toMatch(/ match --id 999\n$/);
    expect((await history(['--since', '20000000w', '--json'])).stdout).not.toBe('[]\n');
    write(JOURNAL.slice(-3));
    expect((await history(['--profile', 'default'])).stderr).toMatch(
      /^The one run on record in .+ does not match --profile default\n$/,
    );
  });

  it('plants the start counts but no record names (damaged lines) count as unknown, not skipped: skipped is what --result skipped lists', async () => {
    write([
      record(RUN_A, '2026-11-20T10:00:00.000Z', 'start', { plants: 5 }),
      intent(RUN_A, '2026-11-20T10:00:00.100Z', '7'),
      outcome(RUN_A, '2026-11-20T10:00:00.200Z', '7', 'deleted', 204),
      outcome(RUN_A, '2026-11-20T10:00:00.300Z', '8', 'skipped', null),
      '{"v":1,"event":"outcome","run":"aaaa1111-0000-4000-8000-0000',
      '{"v":1,"event":"outcome","ru',
    ]);
    const r = await history(['--json']);
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({
        plants: 5,
        results: { deleted: 1, gone: 0, not_found: 0, unknown: 3, failed: 0, skipped: 1 },
      }),
    ]);
    const skipped = await history([RUN_A, '--result', 'skipped', '--json']);
    expect((JSON.parse(skipped.stdout) as { id: string }[]).map((plant) => plant.id)).toEqual(['8']);
    const unknown = await history([RUN_A, '--result', 'unknown', '--json']);
    expect(unknown.stdout).toBe('[]\n');
    expect(unknown.stderr).toContain(
      'plants: warning: 3 more plants of this run are counted as unknown: no record names them (a damaged line, a journal that could not be written, or an older plants that did not record skipped plants by id)\n',
    );
  });

  it('ndjson: one run per line, with its counts', async () => {
    write(JOURNAL);
    const r = await history(['-o', 'ndjson', '--profile', 'staging']);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      {
        run: RUN_C,
        time: '2026-11-25T09:00:00.000Z',
        profile: 'staging',
        base_url: 'https://staging.example.com/api',
        command: 'prune',
        plants: 1,
        results: { deleted: 0, gone: 0, not_found: 0, unknown: 0, failed: 1, skipped: 0 },
      },
    ]);
  });

  it('reads rolled-over journals too, oldest first', async () => {
    write(JOURNAL.slice(0, 5), 'deletions.20261121T000000Z.7.jsonl');
    write(JOURNAL.slice(5));
    const r = await history(['--json']);
    expect((JSON.parse(r.stdout) as { run: string }[]).map((run) => run.run)).toEqual([RUN_C, RUN_B, RUN_A]);
  });

  it('reads a rolled-over journal a rollover was removing (one a killed run left), in its place by time', async () => {
    write(JOURNAL.slice(0, 5), 'deletions.removing.4242.deletions.20261121T000000.000Z.7.jsonl');
    write(JOURNAL.slice(5, 9), 'deletions.20261125T000000.000Z.7.jsonl');
    write(JOURNAL.slice(9));
    const r = await history(['--json']);
    expect(r.stderr).toBe('');
    expect((JSON.parse(r.stdout) as { run: string }[]).map((run) => run.run)).toEqual([RUN_C, RUN_B, RUN_A]);
  });

  it('a damaged line is skipped with one warning naming its line; the rest is shown', async () => {
    write([...JOURNAL.slice(0, 3), '{"v":1,"event":"intent","run":"aaaa', 'not json at all', ...JOURNAL.slice(3)]);
    const r = await history(['--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `plants: warning: skipped a damaged line of the journal: ${join(state, 'deletions.jsonl')} line 4\n` +
        `plants: warning: skipped a damaged line of the journal: ${join(state, 'deletions.jsonl')} line 5\n`,
    );
    expect(JSON.parse(r.stdout)).toHaveLength(3);
  });

  it('--journal-file reads the files named, in order, instead of the state directory', async () => {
    write(JOURNAL);
    const first = join(dir.path, 'a.jsonl');
    const second = join(dir.path, 'b.jsonl');
    writeFileSync(first, `${JOURNAL.slice(0, 5).join('\n')}\n`);
    writeFileSync(second, `${JOURNAL.slice(10).join('\n')}\nnot a record\n`);
    const r = await history(['--journal-file', first, '--journal-file', second, '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { run: string }[]).map((run) => run.run)).toEqual([RUN_C, RUN_A]);
    expect(r.stderr).toBe(`plants: warning: skipped a damaged line of the journal: ${second} line 4\n`);
    const none = await history(['--journal-file', first, '--profile', 'staging']);
    expect(none.stderr).toBe(`The one run on record in ${first} does not match --profile staging\n`);
  });

  it.each([
    ['a file that is not there', (path: string) => path, /no such file or directory \(ENOENT\)/],
    ['a directory', (path: string) => (mkdirSync(path), path), /illegal operation on a directory \(EISDIR\)/],
    ['a device, which would be read without end', () => '/dev/zero', /a device, not a file or a pipe/],
    [
      'a file that is not a journal (/etc/passwd)',
      (path: string) => (writeFileSync(path, 'root:x:0:0:root:/root:/bin/bash\n{"v":1}\n'), path),
      /its first line is not a journal record/,
    ],
  ])('--journal-file naming %s is refused in one line (exit 2, code journal)', async (_, make, reason) => {
    const path = make(join(dir.path, 'artifact.jsonl'));
    const r = await history(['--journal-file', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^plants: cannot read the journal file ${path}: ${reason.source}; give a file that --journal-file wrote\n$`,
      ),
    );
    const json = await history(['--journal-file', path, '--json']);
    // The one line, then the JSON error line.
    expect(JSON.parse(json.stderr.split('\n')[1]!)).toMatchObject({ error: { code: 'journal' } });
  });

  it('--journal-file whose first line is a record cut short (a full disk) is read, that line skipped with a warning', async () => {
    const path = join(dir.path, 'cut.jsonl');
    writeFileSync(path, `{"v":1,"event":"start","ru\n${JOURNAL.join('\n')}\n`);
    const r = await history(['--journal-file', path, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`plants: warning: skipped a damaged line of the journal: ${path} line 1\n`);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
  });

  it('--journal-file reads a pipe to its end (process substitution: <(…))', async () => {
    const fifo = join(dir.path, 'journal.fifo');
    runCommand('mkfifo', [fifo]);
    const artifact = join(dir.path, 'artifact.jsonl');
    writeFileSync(artifact, `${JOURNAL.join('\n')}\n`);
    const writer = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', artifact, fifo], { stdio: 'ignore' });
    const r = await history(['--journal-file', fifo, '--json']);
    writer.kill();
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
  });

  it('--journal-file of a pipe whose writer takes its time: Ctrl-C stops the wait at once', async () => {
    const fifo = join(dir.path, 'journal.fifo');
    runCommand('mkfifo', [fifo]);
    // A writer that holds the pipe open and writes nothing yet (a slow download, a password prompt);
    // its open returns once history has opened the other end.
    const writer = spawn('sh', ['-c', 'exec 3>"$1"; echo opened; exec sleep 60', 'sh', fifo], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let opened = '';
    writer.stdout.setEncoding('utf8').on('data', (chunk: string) => (opened += chunk));
    const { child, out, exit } = spawnCli(['history', '--journal-file', fifo], {
      configDir: dir.path,
      env: { PLANTS_STATE_DIR: state },
    });
    try {
      await waitFor(() => opened.includes('opened'), 'history to open the pipe');
      child.kill('SIGINT');
      // Blocked in a read, it would hear the signal only once the writer is done.
      const code = await Promise.race([
        exit,
        new Promise((resolve) => setTimeout(() => resolve('still running 5 s after Ctrl-C'), 5000)),
      ]);
      expect(code).toBe(130);
      // Not a terminal: no blank line before it (a terminal gets one, after its echoed ^C).
      expect(out.stderr).toBe('plants: interrupted\n');
    } finally {
      child.kill('SIGKILL');
      writer.kill('SIGKILL');
    }
  });

  it('no journal yet: nothing on stdout (an empty array with --json), and says so', async () => {
    const r = await history([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect((await history(['--json'])).stdout).toBe('[]\n');
  });

  it('a journal that cannot be read (a directory or a link to nothing in its place, a file for the directory) is one line, exit 2', async () => {
    const journal = join(state, 'deletions.jsonl');
    const cases: [() => void, RegExp][] = [
      [() => mkdirSync(journal), /cannot read the deletion journal .*deletions\.jsonl: not a regular file; /],
      [
        () => symlinkSync(join(dir.path, 'nowhere'), journal),
        /cannot read the deletion journal .*deletions\.jsonl: no such file or directory \(ENOENT\); /,
      ],
      [
        () => {
          rmSync(state, { recursive: true });
          writeFileSync(state, '');
        },
        /cannot read the directory of the deletion journal .*: not a directory \(ENOTDIR\); /,
      ],
    ];
    for (const [make, message] of cases) {
      rmSync(state, { recursive: true, force: true });
      mkdirSync(state);
      make();
      const r = await history(['--json']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/"code":"journal"/);
      expect(r.stderr).not.toMatch(/unexpected error|internal/);
    }
  });

  it.each([
    [['--since', 'yesterday'], /invalid --since "yesterday"/],
    [['--result', 'lost'], /invalid --result "lost": "lost" is not a result/],
    [['--json', '-o', 'csv'], /--json conflicts with --output csv/],
    [[''], /^plants: invalid run "": give a run's id \(at least its first 4 characters\), or none to list the runs\n$/],
    [['--journal-file', ''], /^plants: invalid --journal-file "": give the path of a file/],
  ])('%j is refused (exit 2)', async (args, message) => {
    const r = await history(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('the token is in no output even when a journal line holds it', async () => {
    write([record(RUN_A, '2026-11-20T10:00:00.000Z', 'start'), intent(RUN_A, '2026-11-20T10:00:01.000Z', TOKEN)]);
    // runCli fails the test if the token shows up; PLANTS_TOKEN makes it known to plants.
    const r = await runCli(['history', RUN_A], {
      configDir: dir.path,
      env: { PLANTS_STATE_DIR: state, PLANTS_TOKEN: TOKEN },
    });
    expect(r.stdout).toContain('***');
    // Nor in the message that names a filter, should the token be typed as one.
    const typed = await runCli(['history', '--id', TOKEN], {
      configDir: dir.path,
      env: { PLANTS_STATE_DIR: state, PLANTS_TOKEN: TOKEN },
    });
    expect(typed.stderr).toMatch(/match --id \*\*\*\n$/);
  });
});
