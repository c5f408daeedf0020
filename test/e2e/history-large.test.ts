import { closeSync, mkdirSync, openSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { TOKEN } from '../helpers/servers.js';

// plants history streams its files (docs/commands.md, "plants history"): a
// journal of any size is read in bounded memory; values a hand edit made
// of the wrong type are damaged lines, never shown.

let dir: ReturnType<typeof tempDir>;
let state: string;
beforeEach(() => {
  dir = tempDir();
  state = join(dir.path, 'state');
  mkdirSync(state);
});
afterEach(() => dir.remove());

const history = (args: string[], env: Record<string, string> = {}) =>
  runCli(['history', ...args], {
    configDir: dir.path,
    env: { PLANTS_STATE_DIR: state, PLANTS_TOKEN: TOKEN, ...env },
  });

const base = { v: 1, command: 'delete', profile: 'default', base_url: 'https://plants.example.com' };
const runId = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;
const line = (fields: Record<string, unknown>) => `${JSON.stringify({ ...base, ...fields })}\n`;
/** A whole run: its start, then an intent and an outcome for each plant. */
function run(n: number, plants: number, time = `2026-11-20T10:00:00.${String(n % 1000).padStart(3, '0')}Z`): string {
  let text = line({ event: 'start', run: runId(n), time, plants });
  for (let p = 0; p < plants; p += 1) {
    const request_id = `${runId(n)}-${p}`;
    text += line({ event: 'intent', run: runId(n), time, id: String(p), request_id });
    text += line({
      event: 'outcome',
      run: runId(n),
      time,
      id: String(p),
      request_id,
      result: 'deleted',
      status: 204,
      attempts: 1,
    });
  }
  return text;
}

describe('a journal of any size', () => {
  it('hundreds of thousands of lines are read in a heap far smaller than the journal', async () => {
    // About 80 MB of records in 200 runs, read by a process whose heap may not pass 48 MB.
    const file = join(state, 'deletions.jsonl');
    const fd = openSync(file, 'w');
    for (let n = 0; n < 200; n += 1) writeSync(fd, run(n, 1000));
    closeSync(fd);
    const r = await history(['--json'], { NODE_OPTIONS: '--max-old-space-size=48' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const runs = JSON.parse(r.stdout) as { plants: number; results: { deleted: number } }[];
    expect(runs).toHaveLength(200);
    expect(runs.every((found) => found.plants === 1000 && found.results.deleted === 1000)).toBe(true);
    // One run's plants, from the same stream.
    const one = await history([runId(7), '--json'], { NODE_OPTIONS: '--max-old-space-size=48' });
    expect((JSON.parse(one.stdout) as unknown[]).length).toBe(1000);
  });

  it('a file over 1 GiB (here mostly a line too long to be a record) is read with a warning, its records shown', async () => {
    const file = join(dir.path, 'artifact.jsonl');
    // A journal (its first line a record), then sparse: a GiB of NUL bytes costs no disk, and is one line no record is.
    writeFileSync(file, run(1, 1));
    const lines = run(1, 1).split('\n').length;
    truncateSync(file, 1024 ** 3 + 1);
    const fd = openSync(file, 'a');
    writeSync(fd, `\n${run(2, 2)}`);
    closeSync(fd);
    const r = await history(['--journal-file', file, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `plants: warning: the journal ${file} is 1.0 GiB: reading it takes a while\n` +
        `plants: warning: skipped a damaged line of the journal: ${file} line ${lines}\n`,
    );
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({ run: runId(2), plants: 2 }),
      expect.objectContaining({ run: runId(1), plants: 1 }),
    ]);
  });
});

describe('values of the wrong type', () => {
  it('objects for names, unknown results and text for numbers are damaged lines: warned of, never shown', async () => {
    const time = '2026-11-20T10:00:00.000Z';
    const r1 = runId(1);
    writeFileSync(
      join(state, 'deletions.jsonl'),
      run(1, 1) +
        line({ event: 'intent', run: r1, time, id: '5', request_id: 'a', name: { token: TOKEN } }) +
        line({ event: 'outcome', run: r1, time, id: '6', request_id: 'b', result: 'exploded', status: 204 }) +
        line({ event: 'outcome', run: r1, time, id: '7', request_id: 'c', result: 'deleted', status: '204' }) +
        line({ event: 'intent', run: r1, time, id: 8, request_id: 'd' }) +
        line({ event: 'start', run: r1, time, plants: [TOKEN] }),
    );
    const r = await history([r1, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr.trimEnd().split('\n')).toEqual(
      [4, 5, 6, 7, 8].map(
        (n) => `plants: warning: skipped a damaged line of the journal: ${join(state, 'deletions.jsonl')} line ${n}`,
      ),
    );
    expect((JSON.parse(r.stdout) as { id: string }[]).map((plant) => plant.id)).toEqual(['0']);
  });

  it('past 20 damaged lines, the rest are counted in one line', async () => {
    writeFileSync(join(state, 'deletions.jsonl'), `${'not a record\n'.repeat(25)}${run(1, 1)}`);
    const r = await history(['--json']);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[19]).toMatch(/line 20$/);
    expect(lines[20]).toBe('plants: warning: skipped 5 more damaged lines of the journal (25 in all)');
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});
