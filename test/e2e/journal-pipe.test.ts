import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnCli, tempDir, waitFor } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';
import { runCommand } from '../helpers/command.js';

// A --journal-file that is a pipe (docs/commands.md, "The deletion
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
/** Ids of 3,000 characters: two records of one fill a 64 KiB pipe in about ten DELETEs. */
const longIds = (count: number) => Array.from({ length: count }, (_, i) => `${i}-${'x'.repeat(3000)}`);

describe('a journal pipe whose reader stops reading', () => {
  it.each([
    ['a Ctrl-C', ['SIGINT'], [130, 2]],
    ['a second Ctrl-C', ['SIGINT', 'SIGINT'], [130, 2]],
    ['SIGTERM', ['SIGTERM'], [143, 2]],
  ])('%s ends the run within 5 seconds, with the results printed', async (_what, signals, codes) => {
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
      // By then the pipe is full, or all but.
      await waitFor(() => deletesSeen() >= 9 || code !== undefined, 'the pipe to fill');
      for (const signal of signals) child.kill(signal as NodeJS.Signals);
      await waitFor(() => code !== undefined, 'the run to end', 5000);
    } finally {
      child.kill('SIGKILL');
    }
    expect(codes).toContain(code);
    const results = JSON.parse(out.stdout) as { id: string; result: string }[];
    expect(results.map((result) => result.id)).toEqual(ids);
    expect(deletesSeen()).toBeLessThan(100);
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
