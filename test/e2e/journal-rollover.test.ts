import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempDir, waitFor } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';

// A rollover never takes a file that a running run still writes
// (docs/scripting.md, "The deletion journal"): with a rollover size of one
// byte (PLANTS_TEST_JOURNAL_ROLL_OVER_BYTES, docs/testing.md), every run rolls over.

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

const env = () => ({
  PLANTS_BASE_URL: server.url,
  PLANTS_TOKEN: TOKEN,
  PLANTS_STATE_DIR: state,
  PLANTS_TEST_JOURNAL_ROLL_OVER_BYTES: '1',
});
/** Old journals, as named now (to the millisecond) and before (to the second). */
const OLD = /^deletions\.\d{8}T\d{6}(\.\d{3})?Z\.\d+\.jsonl$/;
const oldFiles = () => readdirSync(state).filter((name) => OLD.test(name));

describe('rolling over while other runs write', () => {
  it('a run that deletes 40 plants while others roll the journal over again and again keeps every record', async () => {
    let hold = true;
    const held: (() => void)[] = [];
    server = await rawServer((req, res) => {
      const answer = () => res.writeHead(204).end();
      // The long run's DELETEs wait until the short runs have rolled its file far back.
      if (hold && req.url?.startsWith('/plants/long-')) held.push(answer);
      else answer();
    });
    const long = spawnCli(['delete', '--stdin', '--yes', '--concurrency', '1'], {
      configDir: dir.path,
      env: env(),
      input: Array.from({ length: 40 }, (_, i) => `long-${i + 1}`).join('\n'),
    });
    await waitFor(() => held.length === 1, 'the long run to send its first DELETE');
    // Seven waves of two runs at once: at least seven rollovers, past the four old files kept.
    for (let wave = 0; wave < 7; wave += 1) {
      const runs = [0, 1].map((run) =>
        runCli(['delete', `short-${wave}-${run}`, '--yes'], { configDir: dir.path, env: env() }),
      );
      expect((await Promise.all(runs)).map((r) => r.code)).toEqual([0, 0]);
    }
    expect(oldFiles().length).toBeGreaterThan(4);
    hold = false;
    held.splice(0).forEach((answer) => answer());
    expect(await long.exit).toBe(0);

    const runs = JSON.parse((await runCli(['history', '--json'], { configDir: dir.path, env: env() })).stdout) as {
      command: string;
      plants: number;
      results: { deleted: number };
    }[];
    const longRun = runs.find((run) => run.plants === 40);
    expect(longRun?.results.deleted).toBe(40);
    // Once no run writes it, the next rollover takes the long run's file too: bounded as before.
    await runCli(['delete', 'last', '--yes'], { configDir: dir.path, env: env() });
    expect(oldFiles()).toHaveLength(4);
    expect(readdirSync(state).filter((name) => name.includes('writer'))).toEqual([]);
  });

  it('the mark of a run that was killed is cleared by the next rollover, and its file is not kept for it', async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    mkdirSync(state);
    // A process that has ended: its pid names no run.
    const ended = spawnSync(process.execPath, ['-e', '0']).pid;
    const names = [1, 2, 3, 4, 5].map((day) => `2026010${day}T000000Z.1`);
    for (const name of names) writeFileSync(join(state, `deletions.${name}.jsonl`), 'x\n');
    const oldest = statSync(join(state, `deletions.${names[0]}.jsonl`));
    const mark = `deletions.writer.${ended}.${oldest.dev}-${oldest.ino}.0f8e0c9a-0000-4000-8000-000000000000`;
    writeFileSync(join(state, mark), '');
    // Six old files once the journal rolls over: the two oldest would go. A live run's mark (this
    // test's own process) keeps the second oldest.
    const second = statSync(join(state, `deletions.${names[1]}.jsonl`));
    const live = `deletions.writer.${process.pid}.${second.dev}-${second.ino}.0f8e0c9a-0000-4000-8000-000000000001`;
    writeFileSync(join(state, live), '');
    writeFileSync(join(state, 'deletions.jsonl'), 'x\n');
    expect((await runCli(['delete', '1', '--yes'], { configDir: dir.path, env: env() })).code).toBe(0);
    const left = readdirSync(state);
    expect(left).not.toContain(mark);
    expect(left).toContain(live);
    expect(left).not.toContain(`deletions.${names[0]}.jsonl`);
    expect(left).toContain(`deletions.${names[1]}.jsonl`);
    expect(oldFiles()).toHaveLength(5);
  });

  it('old files are kept newest first by time, then by pid as a number: pid 10000 is newer than 9999 in the same second', async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    mkdirSync(state);
    const names = ['20260101T000000Z.5', '20260102T000000Z.9997', '20260102T000000Z.10000', '20260102T000000Z.9999'];
    // And one named as now, a millisecond into that second: newer than all of them.
    names.push('20260102T000000.001Z.42');
    for (const name of names) writeFileSync(join(state, `deletions.${name}.jsonl`), 'x\n');
    writeFileSync(join(state, 'deletions.jsonl'), 'x\n');
    expect((await runCli(['delete', '1', '--yes'], { configDir: dir.path, env: env() })).code).toBe(0);
    const left = oldFiles();
    // Six old files: the two oldest went.
    expect(left).toHaveLength(4);
    for (const gone of ['20260101T000000Z.5', '20260102T000000Z.9997'])
      expect(left).not.toContain(`deletions.${gone}.jsonl`);
    for (const kept of names.slice(2)) expect(left).toContain(`deletions.${kept}.jsonl`);
    // The one this run made is named to the millisecond, with its pid.
    expect(
      left.filter((name) => /^deletions\.\d{8}T\d{6}\.\d{3}Z\.\d+\.jsonl$/.test(name) && !name.endsWith('.42.jsonl')),
    ).toHaveLength(1);
  });

  it('a run that opens the journal and marks it while a rollover has read the marks but not yet removed old files keeps every record', async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    mkdirSync(state);
    // Four old journals named in the future: the next one rolled over is the oldest, and goes.
    for (const day of [1, 2, 3, 4]) writeFileSync(join(state, `deletions.2999010${day}T000000Z.1.jsonl`), '');
    const held = (name: string) => join(dir.path, name);
    // The writer opens the journal (a new, empty file) and is held before it marks it.
    const writer = spawnCli(['delete', 'w-1', 'w-2', 'w-3', '--yes', '--json'], {
      configDir: dir.path,
      env: { ...env(), PLANTS_TEST_JOURNAL_PAUSE: `writer-opened:${held('writer')}` },
    });
    await waitFor(() => existsSync(`${held('writer')}.reached`), 'the writer to open the journal');
    // Another run's record makes it big enough to roll over.
    appendFileSync(
      join(state, 'deletions.jsonl'),
      '{"v":1,"event":"start","run":"r","time":"2026-01-01T00:00:00.000Z"}\n',
    );
    // The remover rolls it over and reads the marks (none yet), and is held before it removes the oldest.
    const remover = spawnCli(['delete', 'r-1', '--yes'], {
      configDir: dir.path,
      env: { ...env(), PLANTS_TEST_JOURNAL_PAUSE: `marks-read:${held('remover')}` },
    });
    await waitFor(() => existsSync(`${held('remover')}.reached`), 'the remover to read the marks');
    // The writer marks its file now, after the marks were read, and deletes its plants.
    writeFileSync(held('writer'), '');
    expect(await writer.exit).toBe(0);
    writeFileSync(held('remover'), '');
    expect(await remover.exit).toBe(0);

    const runs = JSON.parse((await runCli(['history', '--json'], { configDir: dir.path, env: env() })).stdout) as {
      run: string;
      plants: number;
    }[];
    const run = runs.find((r) => r.plants === 3)?.run;
    expect(run).toBeDefined();
    const listed = await runCli(['history', run!, '--json'], { configDir: dir.path, env: env() });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const records = JSON.parse(listed.stdout) as { id: string; result: string }[];
    expect(records.map((r) => `${r.id} ${r.result}`).sort()).toEqual(['w-1 deleted', 'w-2 deleted', 'w-3 deleted']);
  });

  it('runs started together that all roll the journal over keep every record (stress)', async () => {
    const RUNS = 16;
    const deleted = new Set<string>();
    const started = new Set<string>();
    const held: (() => void)[] = [];
    server = await rawServer((req, res) => {
      const id = decodeURIComponent(req.url!.split('/').pop()!);
      const answer = () => {
        deleted.add(id);
        res.writeHead(204).end();
      };
      // Every run has opened its journal (and rolled it over) once it sends a DELETE: the answers wait
      // until all have, as a run that ended before another started would have its file rolled away.
      started.add(id.split('-')[0]!);
      if (started.size < RUNS) held.push(answer);
      else {
        held.splice(0).forEach((go) => go());
        answer();
      }
    });
    const runs = Array.from({ length: RUNS }, (_, run) =>
      runCli(['delete', ...Array.from({ length: 8 }, (_, i) => `s${run}-${i}`), '--yes', '--concurrency', '2'], {
        configDir: dir.path,
        env: env(),
      }),
    );
    expect((await Promise.all(runs)).map((r) => r.code)).toEqual(Array(RUNS).fill(0));
    expect(deleted.size).toBe(RUNS * 8);
    const listed = JSON.parse((await runCli(['history', '--json'], { configDir: dir.path, env: env() })).stdout) as {
      results: { deleted?: number };
    }[];
    expect(listed).toHaveLength(RUNS);
    expect(listed.map((run) => run.results.deleted)).toEqual(Array(RUNS).fill(8));
  });

  it("a file a killed rollover was removing is taken up by the next: removed when no run writes it; a live remover's is left to it", async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    mkdirSync(state);
    const ended = spawnSync(process.execPath, ['-e', '0']).pid;
    for (const day of [1, 2, 3, 4]) writeFileSync(join(state, `deletions.2999010${day}T000000Z.1.jsonl`), 'x\n');
    const stale = `deletions.removing.${ended}.deletions.20260101T000000Z.1.jsonl`;
    const busy = `deletions.removing.${process.pid}.deletions.20260102T000000Z.1.jsonl`;
    writeFileSync(join(state, stale), 'x\n');
    writeFileSync(join(state, busy), 'x\n');
    writeFileSync(join(state, 'deletions.jsonl'), 'x\n');
    expect((await runCli(['delete', '1', '--yes'], { configDir: dir.path, env: env() })).code).toBe(0);
    const left = readdirSync(state);
    expect(left.filter((name) => name.includes('20260101'))).toEqual([]);
    expect(left).toContain(busy);
  });
});
