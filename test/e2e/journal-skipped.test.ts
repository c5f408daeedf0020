import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDir, waitFor, type JsonError } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';
import type { JournalRecord } from '../../src/deletion/journal/read.js';
import { runCommand } from '../helpers/command.js';

// Every plant a run meant to delete is on record (docs/scripting.md, "The
// deletion journal"): those it never sent as `skipped`, so that
// `plants history <run> --result skipped,unknown --json | plants delete --stdin --yes` resumes it.

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

const env = (more: Record<string, string> = {}) => ({
  PLANTS_BASE_URL: server.url,
  PLANTS_TOKEN: TOKEN,
  PLANTS_STATE_DIR: state,
  ...more,
});
const plants = (args: string[], input?: string) => runCli(args, { configDir: dir.path, env: env(), input });
const journal = (): JournalRecord[] =>
  readFileSync(join(state, 'deletions.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JournalRecord);
const deleted = () =>
  server.requests.filter((request) => request.method === 'DELETE').map((request) => request.path.split('/').pop());
const ids = (count: number) => Array.from({ length: count }, (_, i) => String(i + 1));
/** The ids of a run's plants of these results, as history --json lists them. */
const listed = async (run: string, results: string) => {
  const r = await plants(['history', run, '--result', results, '--json']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { id: string }[]).map((plant) => plant.id);
};

describe('the plants a run never sent are on record as skipped', () => {
  it('after a refused token: listed by history <run> --result skipped, and the run found by --result skipped', async () => {
    let refuse = true;
    server = await rawServer((req, res) => {
      // The first DELETE is taken, the second refused (401): the run stops there.
      if (refuse && req.url === '/plants/2') res.writeHead(401).end('{"error":401,"message":"bad token"}');
      else res.writeHead(204).end();
    });
    const r = await plants(['delete', ...ids(6), '--yes', '--concurrency', '1']);
    expect(r.code).toBe(4);
    const records = journal();
    const run = records[0]!.run;
    const skipped = records.filter((record) => record.event === 'outcome' && record.result === 'skipped');
    expect(skipped.map((record) => [record.id, record.request_id, record.status, record.attempts])).toEqual(
      ['3', '4', '5', '6'].map((id) => [id, null, null, null]),
    );
    expect(await listed(run, 'skipped')).toEqual(['3', '4', '5', '6']);
    // Every format lists them: TSV, one plant a line, its id first.
    const tsv = await plants(['history', run, '--result', 'skipped']);
    expect(
      tsv.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split('\t').slice(0, 4)),
    ).toEqual(['3', '4', '5', '6'].map((id) => [id, '', '', 'skipped']));
    const runs = await plants(['history', '--result', 'skipped', '--json']);
    expect(
      (JSON.parse(runs.stdout) as { run: string; results: { skipped: number } }[]).map((found) => [
        found.run,
        found.results.skipped,
      ]),
    ).toEqual([[run, 4]]);
    expect(JSON.parse((await plants(['history', '--result', 'gone', '--json'])).stdout)).toEqual([]);

    // Resumed: the failed one and the skipped ones, no other, read back by delete --stdin from the JSON.
    refuse = false;
    const again = await plants(['history', run, '--result', 'skipped,failed', '--json']);
    const resumed = await plants(['delete', '--stdin', '--yes', '--concurrency', '1'], again.stdout);
    expect(resumed.code).toBe(0);
    expect(deleted()).toEqual(['1', '2', '2', '3', '4', '5', '6']);
  });

  it('prune: the skipped keep the names and tags it listed', async () => {
    server = await rawServer((req, res) => {
      if (req.method === 'GET')
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(ids(3).map((id) => ({ id: Number(id), name: `Fern ${id}`, tag: 'weed' }))));
      else res.writeHead(429, { 'retry-after': '60' }).end('{"error":429,"message":"slow down"}');
    });
    const r = await plants(['prune', '--tag', 'weed', '--yes', '--concurrency', '1']);
    expect(r.code).toBe(1);
    const skipped = journal().filter((record) => record.result === 'skipped');
    expect(skipped.map((record) => [record.id, record.name, record.tag])).toEqual([
      ['2', 'Fern 2', 'weed'],
      ['3', 'Fern 3', 'weed'],
    ]);
  });

  it.each([
    ['a Ctrl-C', ['SIGINT'], 130],
    ['SIGTERM', ['SIGTERM'], 143],
    ['a second Ctrl-C (quit now)', ['SIGINT', 'SIGINT'], 130],
  ])('after %s: every target once, sent or skipped', async (_what, signals, code) => {
    let answered = 0;
    server = await rawServer((req, res) => {
      // The first few answer at once; then the answers are held until the test lets them go.
      if (answered < 5) {
        answered += 1;
        res.writeHead(204).end();
      } else setTimeout(() => res.writeHead(204).end(), 300);
    });
    const { child, out, exit } = spawnCli(['delete', '--stdin', '--yes', '--concurrency', '2'], {
      configDir: dir.path,
      env: env(),
      input: ids(200).join('\n'),
    });
    try {
      await waitFor(() => answered >= 5 && deleted().length >= 7, 'the run to be under way');
      child.kill(signals[0] as NodeJS.Signals);
      if (signals.length > 1) {
        await waitFor(() => out.stderr.includes('Stopping'), 'the first signal to be heard');
        child.kill(signals[1] as NodeJS.Signals);
      }
      expect(await exit).toBe(code);
    } finally {
      child.kill('SIGKILL');
    }
    const records = journal();
    const run = records[0]!.run;
    const skipped = await listed(run, 'skipped');
    const sent = await listed(run, 'deleted,unknown');
    expect(skipped.length).toBeGreaterThan(100);
    expect([...sent, ...skipped].sort((a, b) => Number(a) - Number(b))).toEqual(ids(200));
    expect(new Set(sent)).toEqual(new Set(deleted()));
    // history counts them as it lists them: one each.
    const summary = JSON.parse((await plants(['history', '--json'])).stdout) as { results: { skipped: number } }[];
    expect(summary[0]!.results.skipped).toBe(skipped.length);
  });

  it('a journal file that fails mid-run: the rest are skipped in the one that did not, and the message says where', async () => {
    server = await rawServer((_req, res) => setTimeout(() => res.writeHead(204).end(), 5));
    const fifo = join(dir.path, 'journal.fifo');
    runCommand('mkfifo', [fifo]);
    // A --journal-file whose reader goes away after 1000 bytes: later writes fail (EPIPE).
    const reader = spawn('head', ['-c', '1000', fifo], { stdio: 'ignore' });
    const r = await runCli(['delete', '--stdin', '--yes', '--json', '--concurrency', '1', '--journal-file', fifo], {
      configDir: dir.path,
      env: env(),
      input: ids(100).join('\n'),
    });
    reader.kill();
    expect(r.code).toBe(2);
    const error = (JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as JsonError).error;
    const notSent = (JSON.parse(r.stdout) as { request_id: string | null }[]).filter((o) => o.request_id === null);
    expect(error.message).toContain(
      `${notSent.length} not sent (on record as skipped in ${join(state, 'deletions.jsonl')} only)`,
    );
    const run = journal()[0]!.run;
    const skipped = await listed(run, 'skipped');
    expect(skipped).toHaveLength(notSent.length);
    expect([...(await listed(run, 'deleted,unknown')), ...skipped].sort((a, b) => Number(a) - Number(b))).toEqual(
      ids(100),
    );
  });
});

describe('history --result', () => {
  it('takes a comma-separated list; an unknown word is refused naming it and the words there are', async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    const r = await plants(['history', '--result', 'skipped,deleted,bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'plants: invalid --result "skipped,deleted,bogus": "bogus" is not a result; expected one or more of deleted, gone, not_found, unknown, failed, skipped, comma-separated\n',
    );
    const empty = await plants(['history', '--result', 'skipped,']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('an empty result');
  });
});
