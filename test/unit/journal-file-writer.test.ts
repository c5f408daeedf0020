import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failedByStop, JournalWriter, type JournalFile } from '../../src/deletion/journal/file-writer.js';
import { runCommand } from '../helpers/command.js';

// A journal writer on a real pipe whose reader takes nothing, as the run stops.

const dirs: string[] = [];
const fds: number[] = [];
afterEach(() => {
  for (const fd of fds.splice(0)) closeSync(fd);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A FIFO whose reader takes nothing, full already, as a journal file. */
function fullPipe(): JournalFile & { reader: number } {
  const dir = mkdtempSync(join(tmpdir(), 'plants-file-writer-'));
  dirs.push(dir);
  const path = join(dir, 'journal.fifo');
  runCommand('mkfifo', [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  fds.push(reader);
  const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  fds.push(fd);
  for (const size of [4096, 1]) {
    try {
      for (;;) writeSync(fd, Buffer.alloc(size, 0x61));
    } catch {
      // Full, to this size.
    }
  }
  return { path, fd, wayOn: 'the way on', pipe: true, regular: false, reader };
}

const STOPPED = 'the process reading this pipe was not taking records when the run was stopped';

describe('JournalWriter as the run stops', () => {
  it('a run stopped already: a full pipe gets a second more, then the write fails, by the stop', async () => {
    const file = fullPipe();
    const controller = new AbortController();
    controller.abort();
    const writer = new JournalWriter([file], { signal: controller.signal, stallMs: 60_000 });
    const started = Date.now();
    const failure = (await writer.write('x\n', () => 'then').catch((e: unknown) => e)) as Error;
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(990);
    expect(waited).toBeLessThan(30_000);
    expect(failure.message).toBe(`cannot write the deletion journal ${file.path}: ${STOPPED}; then`);
    expect(failedByStop(failure)).toBe(true);
    // The pipe takes no more: the next write fails at once, saying why, even once there is room.
    const buffer = Buffer.alloc(65536);
    try {
      while (readSync(file.reader, buffer) > 0);
    } catch {
      // Empty now.
    }
    expect(() => writer.writeNow('y\n', () => 'now')).toThrow(`${STOPPED}; now`);
  });

  it('a stop that comes while a write waits: the write gives up a second later', async () => {
    const file = fullPipe();
    const controller = new AbortController();
    const writer = new JournalWriter([file], { signal: controller.signal, stallMs: 60_000 });
    const started = Date.now();
    const failure = writer.write('x\n', () => 'then').catch((e: unknown) => e);
    controller.abort();
    const err = (await failure) as Error;
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(err.message).toBe(`cannot write the deletion journal ${file.path}: ${STOPPED}; then`);
    expect(failedByStop(err)).toBe(true);
  });

  it('without a stop, a reader that takes nothing for the stall limit: a failure not by the stop', async () => {
    const file = fullPipe();
    const writer = new JournalWriter([file], { stallMs: 20 });
    const err = (await writer.write('x\n', () => 'then').catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(
      `cannot write the deletion journal ${file.path}: the process reading this pipe took nothing for 0.02 seconds (has it stopped?); then`,
    );
    expect(failedByStop(err)).toBe(false);
    expect(writer.healthy).toEqual([]);
  });
});
