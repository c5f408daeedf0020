import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitForPipeReader } from '../../src/deletion/journal/pipe-reader.js';
import { runCommand } from '../helpers/command.js';

// waitForPipeReader: a journal file that is a pipe is opened only once a process reads it.

const dirs: string[] = [];
const fds: number[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const fd of fds.splice(0)) closeSync(fd);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fifo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plants-pipe-reader-'));
  dirs.push(dir);
  const path = join(dir, 'journal.fifo');
  runCommand('mkfifo', [path]);
  return path;
}

/** A reader of the pipe, opened without waiting for a writer. */
function reader(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  fds.push(fd);
  return fd;
}

/** Whether a writer still holds the pipe open: a read finds no data (EAGAIN) rather than its end (0). */
function writerHolds(fd: number): boolean {
  try {
    return readSync(fd, Buffer.alloc(1)) !== 0;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EAGAIN';
  }
}

describe('waitForPipeReader', () => {
  it('has nothing to wait for when the file is not there, or is a regular file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plants-pipe-reader-'));
    dirs.push(dir);
    const file = join(dir, 'journal.jsonl');
    const waiting = vi.fn();
    const release = await waitForPipeReader(file, waiting);
    expect(release()).toBeUndefined();
    writeFileSync(file, '');
    await waitForPipeReader(file, waiting);
    expect(waiting).not.toHaveBeenCalled();
  });

  it('returns at once when a process reads the pipe, holding it open until released', async () => {
    const path = fifo();
    const fd = reader(path);
    const waiting = vi.fn();
    const release = await waitForPipeReader(path, waiting);
    expect(waiting).not.toHaveBeenCalled();
    expect(writerHolds(fd)).toBe(true);
    release();
    expect(writerHolds(fd)).toBe(false);
  });

  it('waits for a reader, saying so once after a second, and returns when one comes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    const path = fifo();
    const waiting = vi.fn();
    let found: (() => void) | undefined;
    const done = waitForPipeReader(path, waiting).then((release) => (found = release));
    await vi.advanceTimersByTimeAsync(980);
    expect(waiting).not.toHaveBeenCalled();
    // Tried every 20 ms: at 1000 ms it has waited a second.
    await vi.advanceTimersByTimeAsync(20);
    expect(waiting).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(waiting).toHaveBeenCalledTimes(1);
    expect(found).toBeUndefined();
    const fd = reader(path);
    await vi.advanceTimersByTimeAsync(20);
    await done;
    expect(found).toBeTypeOf('function');
    expect(writerHolds(fd)).toBe(true);
    found!();
    expect(writerHolds(fd)).toBe(false);
  });

  // Root may write any file: the refusal is seen only by others.
  it.skipIf(process.getuid?.() === 0)("leaves a pipe it may not write to to the journal's own open", async () => {
    const path = fifo();
    runCommand('chmod', ['0400', path]);
    const waiting = vi.fn();
    const release = await waitForPipeReader(path, waiting);
    expect(release()).toBeUndefined();
    expect(waiting).not.toHaveBeenCalled();
  });
});
