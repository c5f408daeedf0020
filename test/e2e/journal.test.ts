import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDir, waitFor, type JsonError } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';
import type { JournalRecord } from '../../src/deletion/journal/read.js';
import { runCommand } from '../helpers/command.js';

// The deletion journal (docs/scripting.md, "The deletion journal"): every
// DELETE on record before it leaves and again when its outcome is known,
// in an append-only JSON Lines file of the state directory.

/** A line of the journal, with the start record's own field. */
type JournalLine = JournalRecord & { v: number; plants?: number };

let dir: ReturnType<typeof tempDir>;
let server: RawServer;
let state: string;
beforeEach(() => {
  dir = tempDir();
  state = join(dir.path, 'state');
});
afterEach(async () => {
  await server?.close();
  dir.remove();
});

const env = (more: Record<string, string | undefined> = {}) => ({
  PLANTS_BASE_URL: server.url,
  PLANTS_TOKEN: TOKEN,
  PLANTS_STATE_DIR: state,
  ...more,
});
const plants = (args: string[], more: Record<string, string | undefined> = {}) =>
  runCli(args, { configDir: dir.path, env: env(more) });

const lines = (file: string): JournalLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JournalLine);
const journal = () => lines(join(state, 'deletions.jsonl'));
const deletesSeen = () => server.requests.filter((request) => request.method === 'DELETE');

/** A service that deletes whatever it is asked to, 404 (with its Error object) for ids starting with "missing". */
const answering = () =>
  rawServer((req, res) => {
    if (req.url?.startsWith('/plants/missing'))
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":404,"message":"no such plant"}');
    else res.writeHead(204).end();
  });

describe('what is recorded', () => {
  it('a start, then an intent before each DELETE and its outcome after, with the request id the service saw', async () => {
    server = await answering();
    const r = await plants(['delete', '1', 'missing-2', '--yes', '--concurrency', '1']);
    expect(r.code).toBe(3);
    const records = journal();
    expect(records.map((record) => [record.event, record.id, record.result])).toEqual([
      ['start', undefined, undefined],
      ['intent', '1', undefined],
      ['outcome', '1', 'deleted'],
      ['intent', 'missing-2', undefined],
      ['outcome', 'missing-2', 'not_found'],
    ]);
    const [start, intent, outcome] = records;
    expect(new Set(records.map((record) => record.run)).size).toBe(1);
    expect(start).toMatchObject({ v: 1, command: 'delete', profile: 'default', base_url: server.url, plants: 2 });
    expect(intent!.request_id).toBe(deletesSeen()[0]!.headers['x-request-id']);
    expect(outcome).toMatchObject({ request_id: intent!.request_id, status: 204, attempts: 1 });
    expect(records[4]).toMatchObject({ status: 404, request_id: deletesSeen()[1]!.headers['x-request-id'] });
    expect(Date.parse(start!.time)).not.toBeNaN();
    // Private: the directory 0700, the file 0600.
    expect(statSync(state).mode & 0o777).toBe(0o700);
    expect(statSync(join(state, 'deletions.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('prune records the names and tags it listed; the token is in no record, not even in the URL', async () => {
    const listed = JSON.stringify([
      { id: 7, name: `Fern ${TOKEN}`, tag: 'weed' },
      { id: 8, name: 'Aloe', tag: 'keep' },
    ]);
    server = await rawServer((req, res) => {
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'application/json' }).end(listed);
      else res.writeHead(204).end();
    });
    // A base URL holding the token as a path segment (as some gateways route).
    const r = await plants(['prune', '--tag', 'weed', '--yes'], { PLANTS_BASE_URL: `${server.url}/${TOKEN}` });
    expect(r.code).toBe(0);
    const text = readFileSync(join(state, 'deletions.jsonl'), 'utf8');
    expect(text).not.toContain(TOKEN);
    const intent = journal().find((record) => record.event === 'intent')!;
    expect(intent).toMatchObject({ command: 'prune', id: '7', name: 'Fern ***', tag: 'weed' });
    expect(intent.base_url).toBe(`${server.url}/***`);
  });

  it('a long name is masked before it is cut: no piece of the token is left at the cut', async () => {
    // The token straddles the 200th character, where a name is cut.
    const name = `${'n'.repeat(190)}${TOKEN}`;
    server = await rawServer((req, res) => {
      if (req.method === 'GET')
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ id: 1, name, tag: 'x' }]));
      else res.writeHead(204).end();
    });
    expect((await plants(['prune', '--tag', 'x', '--yes'])).code).toBe(0);
    const text = readFileSync(join(state, 'deletions.jsonl'), 'utf8');
    expect(text).toContain(`${'n'.repeat(190)}***`);
    expect(text).not.toContain(TOKEN.slice(0, 6));
  });

  it("a --journal-file keeps the mode it has; the state directory's journal is made private", async () => {
    server = await answering();
    const artifact = join(dir.path, 'run.jsonl');
    writeFileSync(artifact, '', { mode: 0o644 });
    chmodSync(artifact, 0o644);
    mkdirSync(state, { mode: 0o755 });
    writeFileSync(join(state, 'deletions.jsonl'), '', { mode: 0o644 });
    await plants(['delete', '1', '--yes', '--journal-file', artifact]);
    expect(statSync(artifact).mode & 0o777).toBe(0o644);
    expect(statSync(join(state, 'deletions.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('a dry run, and a run with nothing to delete, record nothing', async () => {
    server = await answering();
    await plants(['delete', '1', '--dry-run']);
    expect(() => readdirSync(state)).toThrow(/ENOENT/);
  });
});

describe('where', () => {
  it('$XDG_STATE_HOME/plants when absolute, else ~/.local/state/plants (a relative one is ignored)', async () => {
    server = await answering();
    const xdg = join(dir.path, 'xdg');
    await plants(['delete', '1', '--yes'], { PLANTS_STATE_DIR: undefined, XDG_STATE_HOME: xdg });
    expect(lines(join(xdg, 'plants', 'deletions.jsonl'))).toHaveLength(3);
    await plants(['delete', '2', '--yes'], { PLANTS_STATE_DIR: undefined, XDG_STATE_HOME: 'relative/state' });
    // runCli's HOME is the test's directory.
    expect(lines(join(dir.path, '.local', 'state', 'plants', 'deletions.jsonl'))).toHaveLength(3);
  });

  it("--journal-file also gets the run's records, even with --no-journal; PLANTS_JOURNAL=off writes none", async () => {
    server = await answering();
    const artifact = join(dir.path, 'run.jsonl');
    await plants(['delete', '1', '--yes', '--journal-file', artifact]);
    expect(lines(artifact)).toEqual(journal());
    await plants(['delete', '2', '--yes', '--no-journal', '--journal-file', artifact]);
    expect(lines(artifact).filter((record) => record.id === '2')).toHaveLength(2);
    expect(journal().filter((record) => record.id === '2')).toEqual([]);
    await plants(['delete', '3', '--yes'], { PLANTS_JOURNAL: 'off' });
    expect(journal().filter((record) => record.id === '3')).toEqual([]);
    expect(deletesSeen()).toHaveLength(3);
  });

  it('plants history --journal-file reads an artifact back: its runs, and no others', async () => {
    server = await answering();
    const artifact = join(dir.path, 'run.jsonl');
    await plants(['delete', '1', '--yes']);
    await plants(['delete', '2', '3', '--yes', '--no-journal', '--journal-file', artifact]);
    const runs = await runCli(['history', '--journal-file', artifact, '--json'], { configDir: dir.path, env: env() });
    expect(runs.code).toBe(0);
    const [run, ...others] = JSON.parse(runs.stdout) as { run: string; plants: number; results: { deleted: number } }[];
    expect(others).toEqual([]);
    expect(run).toMatchObject({ plants: 2, results: { deleted: 2 } });
    const plantsOf = await runCli(['history', run!.run.slice(0, 8), '--journal-file', artifact], {
      configDir: dir.path,
      env: env(),
    });
    expect(plantsOf.stdout.split('\n').map((line) => line.split('\t').slice(0, 4).join(' '))).toEqual([
      '2   deleted',
      '3   deleted',
      '',
    ]);
    // The state directory's journal, without --journal-file: the first run only.
    const own = await runCli(['history', '--json'], { configDir: dir.path, env: env() });
    expect((JSON.parse(own.stdout) as { plants: number }[]).map((r) => r.plants)).toEqual([1]);
  });
});

describe('nothing is deleted that cannot be recorded', () => {
  it.each([
    [
      'a file where its directory should be',
      () => writeFileSync(state, ''),
      /something that is not a directory is in its place/,
    ],
    [
      'a link in its place (here to /dev/full), which plants does not follow',
      () => {
        mkdirSync(state);
        symlinkSync('/dev/full', join(state, 'deletions.jsonl'));
      },
      /is a symbolic link, which plants does not follow there/,
    ],
    [
      'a directory where the journal should be',
      () => mkdirSync(join(state, 'deletions.jsonl'), { recursive: true }),
      /illegal operation on a directory \(EISDIR\)/,
    ],
  ])('%s: exit 2 before any DELETE, naming the path, the reason and the way on', async (_name, arrange, reason) => {
    server = await answering();
    arrange();
    const r = await plants(['delete', '1', '2', '--yes', '--json']);
    expect(r.code).toBe(2);
    expect(deletesSeen()).toEqual([]);
    const error = (JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as JsonError).error;
    expect(error.code).toBe('journal');
    expect(error.message).toContain(state);
    expect(error.message).toMatch(reason);
    expect(error.message).toMatch(/nothing was deleted; run with --no-journal \(or PLANTS_JOURNAL=off\)/);
    // --no-journal is the way on.
    expect((await plants(['delete', '1', '--yes', '--no-journal'])).code).toBe(0);
  });

  it('an empty --journal-file is refused before anything is sent (it names no file)', async () => {
    server = await answering();
    for (const args of [
      ['delete', '1', '--yes'],
      ['prune', '--tag', 'x', '--yes'],
      ['api', '-X', 'DELETE', '/plants/1'],
    ]) {
      const r = await plants([...args, '--journal-file', '']);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr).toBe(
        'plants: invalid --journal-file "": give the path of a file, such as --journal-file run.jsonl\n',
      );
    }
    expect(server.requests).toHaveLength(0);
  });

  it('a --journal-file that cannot be written stops the run too', async () => {
    server = await answering();
    const r = await plants(['delete', '1', '--yes', '--journal-file', '/dev/full']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /cannot write the deletion journal \/dev\/full: no space left on device \(ENOSPC\); nothing was deleted; name a writable --journal-file/,
    );
    expect(deletesSeen()).toEqual([]);
  });

  it('a journal that fails mid-run: no further DELETE is sent, and the report says what was and was not recorded', async () => {
    server = await rawServer((_req, res) => setTimeout(() => res.writeHead(204).end(), 10));
    // A --journal-file whose reader goes away after 1000 bytes: later writes fail (EPIPE).
    const fifo = join(dir.path, 'journal.fifo');
    runCommand('mkfifo', [fifo]);
    const reader = spawn('head', ['-c', '1000', fifo], { stdio: 'ignore' });
    const ids = Array.from({ length: 200 }, (_, i) => String(i + 1)).join('\n');
    const { exit, out } = spawnCli(
      ['delete', '--stdin', '--yes', '--json', '--concurrency', '1', '--journal-file', fifo],
      {
        configDir: dir.path,
        env: env(),
        input: ids,
      },
    );
    expect(await exit).toBe(2);
    reader.kill();
    const results = JSON.parse(out.stdout) as { result: string; request_id: string | null }[];
    const sent = results.filter((result) => result.request_id !== null);
    expect(sent.length).toBe(deletesSeen().length);
    expect(sent.length).toBeLessThan(200);
    const error = (JSON.parse(out.stderr.trimEnd().split('\n').at(-1)!) as JsonError).error;
    expect(error.code).toBe('journal');
    expect(error.message).toMatch(
      new RegExp(
        `^cannot write the deletion journal ${fifo}: broken pipe \\(EPIPE\\); ` +
          `(it was not sent|its intent is on record, so it reads as unknown); ` +
          `no further DELETE was sent: ${sent.length} deleted, ${200 - sent.length} not sent`,
      ),
    );
    // The state directory's journal has every DELETE that was sent, and no other as possibly sent.
    const records = journal();
    const notSent = new Set(
      records.filter((record) => record.event === 'outcome' && record.result === 'skipped').map((record) => record.id),
    );
    const intents = records.filter((record) => record.event === 'intent' && !notSent.has(record.id));
    expect(intents.map((record) => record.request_id)).toEqual(sent.map((result) => result.request_id));
  });

  it('a --journal-file that is a FIFO nobody reads: the run waits for a reader, saying so, and SIGTERM stops it', async () => {
    server = await answering();
    const fifo = join(dir.path, 'journal.fifo');
    runCommand('mkfifo', [fifo]);
    const { child, out, exit } = spawnCli(['delete', '1', '--yes', '--journal-file', fifo], {
      configDir: dir.path,
      env: env(),
    });
    try {
      // Blocked in its open, it would hear no signal: the run must wait where one reaches it.
      await waitFor(() => out.stderr.includes('waiting for a process to read'), 'the run to say what it waits for');
      child.kill('SIGTERM');
      expect(await exit).toBe(143);
    } finally {
      child.kill('SIGKILL');
    }
    expect(out.stderr).toContain(
      `waiting for a process to read ${fifo}, a pipe, to record the deletions in (Ctrl-C to stop)\n`,
    );
    expect(deletesSeen()).toEqual([]);
  });

  it('a --journal-file FIFO whose reader comes late gets every record once it does', async () => {
    server = await answering();
    const fifo = join(dir.path, 'journal.fifo');
    runCommand('mkfifo', [fifo]);
    const { child, out, exit } = spawnCli(['delete', '1', '--yes', '--journal-file', fifo], {
      configDir: dir.path,
      env: env(),
    });
    const copy = join(dir.path, 'copy.jsonl');
    try {
      await waitFor(() => out.stderr.includes('waiting for a process to read'), 'the run to wait for a reader');
      const reader = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', fifo, copy], { stdio: 'ignore' });
      const read = once(reader, 'exit');
      expect(await exit).toBe(0);
      await read;
    } finally {
      child.kill('SIGKILL');
    }
    expect(lines(copy).map((record) => [record.event, record.id, record.result])).toEqual([
      ['start', undefined, undefined],
      ['intent', '1', undefined],
      ['outcome', '1', 'deleted'],
    ]);
    expect(deletesSeen()).toHaveLength(1);
  });

  it('a PLANTS_JOURNAL other than on or off is refused before anything is sent', async () => {
    server = await answering();
    const r = await plants(['delete', '1', '--yes'], { PLANTS_JOURNAL: 'no' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('plants: invalid PLANTS_JOURNAL "no": expected on or off\n');
    expect(server.requests).toEqual([]);
  });
});

describe('a run stopped at any point', () => {
  it('killed with SIGKILL mid-run: every DELETE the service saw is on record; none is recorded deleted that was not', async () => {
    const answered = new Set<string>();
    server = await rawServer((req, res) => {
      const id = String(req.headers['x-request-id']);
      // Slow enough that the kill lands mid-run.
      setTimeout(() => {
        answered.add(id);
        res.writeHead(204).end();
      }, 5);
    });
    const ids = Array.from({ length: 2000 }, (_, i) => String(i + 1)).join('\n');
    const { child, exit } = spawnCli(['delete', '--stdin', '--yes', '--concurrency', '8'], {
      configDir: dir.path,
      env: env(),
      input: ids,
    });
    while (answered.size < 100) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGKILL');
    await exit.catch(() => {});
    const seen = deletesSeen().map((request) => String(request.headers['x-request-id']));
    expect(seen.length).toBeGreaterThanOrEqual(100);
    expect(seen.length).toBeLessThan(2000);
    const records = journal();
    const intents = new Set(records.filter((r) => r.event === 'intent').map((r) => r.request_id));
    for (const id of seen) expect(intents.has(id)).toBe(true);
    const deleted = records.filter((r) => r.event === 'outcome' && r.result === 'deleted');
    for (const record of deleted) expect(answered.has(record.request_id!)).toBe(true);
    // Every line whole: the last one too.
    expect(readFileSync(join(state, 'deletions.jsonl'), 'utf8').endsWith('\n')).toBe(true);
  });

  it('20 runs at once append whole lines that never interleave', async () => {
    server = await answering();
    const runs = Array.from({ length: 20 }, (_, run) =>
      spawnCli(['delete', '--stdin', '--yes', '--concurrency', '4'], {
        configDir: dir.path,
        env: env(),
        input: Array.from({ length: 50 }, (_, i) => `${run}-${i}`).join('\n'),
      }),
    );
    expect(await Promise.all(runs.map((run) => run.exit))).toEqual(Array(20).fill(0));
    const records = journal();
    expect(records).toHaveLength(20 * 101);
    expect(new Set(records.map((record) => record.run)).size).toBe(20);
    expect(records.filter((record) => record.event === 'outcome' && record.result === 'deleted')).toHaveLength(1000);
  });
});

describe('it never grows without bound', () => {
  it('rolls over at 16 MiB when a run starts, keeping the 4 newest old files', async () => {
    server = await answering();
    mkdirSync(state);
    const old = ['20260101T000000Z.1', '20260102T000000Z.1', '20260103T000000Z.1', '20260104T000000Z.1'];
    for (const name of old) writeFileSync(join(state, `deletions.${name}.jsonl`), '');
    writeFileSync(join(state, 'deletions.jsonl'), '');
    truncateSync(join(state, 'deletions.jsonl'), 16 * 1024 * 1024);
    await plants(['delete', '1', '--yes']);
    const files = readdirSync(state).sort();
    expect(files).toHaveLength(5);
    expect(files).not.toContain(`deletions.${old[0]}.jsonl`);
    // Three named to the second (before), the one this run rolled over to the millisecond.
    expect(files.filter((name) => /^deletions\.\d{8}T\d{6}Z\.\d+\.jsonl$/.test(name))).toHaveLength(3);
    expect(files.filter((name) => /^deletions\.\d{8}T\d{6}\.\d{3}Z\.\d+\.jsonl$/.test(name))).toHaveLength(1);
    expect(journal()).toHaveLength(3);
  });

  it('below 16 MiB it appends', async () => {
    server = await answering();
    mkdirSync(state);
    writeFileSync(join(state, 'deletions.jsonl'), '');
    truncateSync(join(state, 'deletions.jsonl'), 16 * 1024 * 1024 - 1);
    await plants(['delete', '1', '--yes']);
    expect(readdirSync(state)).toEqual(['deletions.jsonl']);
  });
});
