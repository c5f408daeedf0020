import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnCli, tempDir, waitFor } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';
import { runCommand } from '../helpers/command.js';

// A --journal-file that is a pipe (docs/scripting.md, "The deletion
// journal"): a reader that stops never makes the run unkillable, and no
// record is more than the pipe takes whole.

let dir: ReturnType<typeof tempDir>;
let server: RawServer;
let fifo: string;
let reader: ChildProcess | undefined;
beforeEach(() => {
  dir = tempDir();
  fifo = join(dir.path, 'journal.fifo');
  runCommand('mkfifo', [fifo]);
});
afterEach(async () => {
  reader?.kill('SIGKILL');
  reader = undefined;
  await server?.close();
  dir.remove();
});

const env = () => ({
  PLANTS_BASE_URL: server.url,
  PLANTS_TOKEN: TOKEN,
  PLANTS_STATE_DIR: join(dir.path, 'state'),
});
const deletesSeen = () => server.requests.filter((request) => request.method === 'DELETE').length;
/**
 * A condition that holds once a DELETE has come and no other for 300 ms: a
 * run that goes on sends one a millisecond or so. (Should a busy machine
 * pause the run that long, the signal comes early: the test is weaker that
 * once, never wrong.)
 */
function quiet(): () => boolean {
  let seen = 0;
  let since = Date.now();
  return () => {
    const now = deletesSeen();
    if (now !== seen) [seen, since] = [now, Date.now()];
    return seen > 0 && Date.now() - since >= 300;
  };
}
/** Ids of 3,000 characters: two records of one fill a 64 KiB pipe in about ten DELETEs. */
const longIds = (count: number) => Array.from({ length: count }, (_, i) => `${i}-${'x'.repeat(3000)}`);

describe('a journal pipe whose reader stops reading', () => {
  it.each([
    ['a Ctrl-C', ['SIGINT'], 130],
    ['a second Ctrl-C', ['SIGINT', 'SIGINT'], 130],
    ['SIGTERM', ['SIGTERM'], 143],
  ])('%s ends the run within 5 seconds, with its exit code and the results printed', async (_what, signals, wanted) => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    // A reader that opens the pipe and never reads from it.
    reader = spawn('sh', ['-c', 'exec 3<"$1"; exec sleep 1000', 'sh', fifo], { stdio: 'ignore' });
    const ids = longIds(100);
    const { child, out, exit } = spawnCli(
      ['delete', '--stdin', '--yes', '--json', '--concurrency', '1', '--journal-file', fifo],
      { configDir: dir.path, env: env(), input: ids.join('\n') },
    );
    let code: number | null | undefined;
    void exit.then((c) => (code = c));
    try {
      // The pipe is full once DELETEs stop coming (how much it holds depends on the machine: 4 to 64 KiB).
      await waitFor(quiet(), 'the pipe to fill');
      expect(code).toBeUndefined();
      for (const signal of signals) child.kill(signal as NodeJS.Signals);
      await waitFor(() => code !== undefined, 'the run to end', 5000);
    } finally {
      child.kill('SIGKILL');
    }
    // The signal ended it, not the pipe's stall limit.
    expect(code).toBe(wanted);
    expect(out.stderr).toMatch(/^plants: interrupted: \d+ deleted, .*\d+ skipped$/m);
    const results = JSON.parse(out.stdout) as { id: string; result: string }[];
    expect(results.map((result) => result.id)).toEqual(ids);
    expect(deletesSeen()).toBeLessThan(100);
  });
});

describe('a journal pipe whose reader is slow', () => {
  it('a reader that takes nothing for seconds (a busy machine) does not fail the run: every record reaches it', async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    const copy = join(dir.path, 'copy.jsonl');
    // Opens the pipe, then reads nothing for 4 seconds while the run fills it.
    reader = spawn('sh', ['-c', 'exec 3<"$1"; sleep 4; exec cat <&3 > "$2"', 'sh', fifo, copy], { stdio: 'ignore' });
    const read = once(reader, 'exit');
    const ids = longIds(30);
    const { exit, out } = spawnCli(['delete', '--stdin', '--yes', '--json', '--journal-file', fifo], {
      configDir: dir.path,
      env: env(),
      input: ids.join('\n'),
    });
    expect(await exit).toBe(0);
    await read;
    expect(out.stderr).toBe('');
    expect((JSON.parse(out.stdout) as { result: string }[]).map((result) => result.result)).toEqual(
      ids.map(() => 'deleted'),
    );
    const lines = readFileSync(copy, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(61);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it('a reader that has stopped fails the run once it has taken nothing for the stall limit (a test sets it short)', async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    reader = spawn('sh', ['-c', 'exec 3<"$1"; exec sleep 1000', 'sh', fifo], { stdio: 'ignore' });
    const ids = longIds(40);
    const { exit, out } = spawnCli(
      ['delete', '--stdin', '--yes', '--json', '--concurrency', '1', '--journal-file', fifo],
      { configDir: dir.path, env: { ...env(), PLANTS_TEST_JOURNAL_PIPE_STALL_MS: '300' }, input: ids.join('\n') },
    );
    expect(await exit).toBe(2);
    expect(out.stderr).toMatch(
      new RegExp(
        `^plants: cannot write the deletion journal ${fifo}: the process reading this pipe took nothing for 0\\.3 seconds \\(has it stopped\\?\\); .*no further DELETE was sent: \\d+ deleted, \\d+ not sent`,
      ),
    );
    const results = JSON.parse(out.stdout) as { id: string; result: string }[];
    expect(results.map((result) => result.id)).toEqual(ids);
    expect(deletesSeen()).toBeLessThan(40);
  });
});

describe('records a pipe cannot take whole', () => {
  it('a run with a plant whose records are more than 4096 bytes is refused before anything is sent', async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    const copy = join(dir.path, 'copy.jsonl');
    reader = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', fifo, copy], { stdio: 'ignore' });
    const read = once(reader, 'exit');
    const long = `7${'y'.repeat(3900)}`;
    const { exit, out } = spawnCli(['delete', '--stdin', '--yes', '--journal-file', fifo], {
      configDir: dir.path,
      env: env(),
      input: ['1', long].join('\n'),
    });
    expect(await exit).toBe(2);
    await read;
    expect(out.stderr).toBe(
      `plants: cannot write the deletion journal ${fifo}: the records of plant 7${'y'.repeat(38)}… would be ${out.stderr.match(/would be (\d+) bytes/)![1]} bytes, more than a pipe takes whole (4096), so another run's records could tear them; nothing was deleted; name a regular --journal-file, or leave that plant out\n`,
    );
    expect(Number(out.stderr.match(/would be (\d+) bytes/)![1])).toBeGreaterThan(4096);
    expect(deletesSeen()).toBe(0);
    expect(readFileSync(copy, 'utf8')).toBe('');
  });

  it('ids of 3,000 characters fit: every record reaches the pipe whole', async () => {
    server = await rawServer((_req, res) => res.writeHead(204).end());
    const copy = join(dir.path, 'copy.jsonl');
    reader = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', fifo, copy], { stdio: 'ignore' });
    const read = once(reader, 'exit');
    const { exit } = spawnCli(['delete', '--stdin', '--yes', '--journal-file', fifo], {
      configDir: dir.path,
      env: env(),
      input: longIds(20).join('\n'),
    });
    expect(await exit).toBe(0);
    await read;
    const lines = readFileSync(copy, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(41);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});
