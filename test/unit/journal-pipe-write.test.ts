import { openSync, readFileSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PIPE_BUF,
  PipeStalled,
  PipeWaitStopped,
  STALL_MS,
  writeLines,
  writeLinesNow,
} from '../../src/deletion/journal/pipe-write.js';
import { tempFiles } from '../helpers/temp-files.js';
import { journalFixtures } from '../helpers/journal-fixtures.js';

// Whole lines to a journal file or pipe: real FIFOs, filled until they take no more.

const { tempDir, fds } = tempFiles('plants-pipe-write-');

const PIPE = { pipe: true, regular: false };
const REGULAR = { pipe: false, regular: true };

/** A FIFO's two ends, both non-blocking (as the journal opens a pipe). */
const { fifo } = journalFixtures(tempDir, fds);
const pipe = (): { reader: number; writer: number } => fifo();

/** Fills the pipe until it takes not one byte more. */
function fill(writer: number): void {
  const chunk = Buffer.alloc(4096, 0x61);
  for (;;) {
    try {
      writeSync(writer, chunk);
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('EAGAIN');
      try {
        for (;;) writeSync(writer, 'a');
      } catch {
        return;
      }
    }
  }
}

/** Reads all the pipe holds now. */
function drain(reader: number): string {
  const buffer = Buffer.alloc(65536);
  let text = '';
  for (;;) {
    try {
      const read = readSync(reader, buffer);
      if (read === 0) return text;
      text += buffer.subarray(0, read).toString('latin1');
    } catch {
      return text;
    }
  }
}

describe('the limits', () => {
  it('a pipe takes 4096 bytes whole; a reader may take nothing for a minute', () => {
    expect(PIPE_BUF).toBe(4096);
    expect(STALL_MS).toBe(60_000);
  });
});

describe('writeLines', () => {
  it('writes the lines to a regular file and resolves to the bytes it took', async () => {
    const path = join(tempDir(), 'j.jsonl');
    const fd = openSync(path, 'a');
    fds.push(fd);
    await expect(writeLines(fd, 'é\n', 3, REGULAR, { stallMs: 50 })).resolves.toBe(3);
    // A file is no pipe: a write of any size goes whole.
    const big = `${'x'.repeat(PIPE_BUF)}\n`;
    await expect(writeLines(fd, big, PIPE_BUF + 1, REGULAR, { stallMs: 50 })).resolves.toBe(PIPE_BUF + 1);
    expect(readFileSync(path, 'utf8')).toBe(`é\n${big}`);
  });

  it('refuses a write to a pipe of more than PIPE_BUF bytes, and takes one of exactly PIPE_BUF', async () => {
    const { reader, writer } = pipe();
    await expect(writeLines(writer, 'x', PIPE_BUF + 1, PIPE, { stallMs: 50 })).rejects.toThrow(
      new Error("a record of 4097 bytes is more than a pipe takes whole (4096): another run's records could tear it"),
    );
    expect(drain(reader)).toBe('');
    const line = `${'y'.repeat(PIPE_BUF - 1)}\n`;
    await expect(writeLines(writer, line, PIPE_BUF, PIPE, { stallMs: 50 })).resolves.toBe(PIPE_BUF);
    expect(drain(reader)).toBe(line);
  });

  it('waits for a full pipe until its reader makes room', async () => {
    const { reader, writer } = pipe();
    fill(writer);
    const written = writeLines(writer, 'line\n', 5, PIPE, { stallMs: 30_000 });
    // The write's first try (made before writeLines returns) found the pipe full; the reader comes back.
    const before = drain(reader);
    expect(before).toMatch(/^a+$/);
    await expect(written).resolves.toBe(5);
    expect(drain(reader)).toBe('line\n');
  });

  it('gives up on a reader that takes nothing for the stall limit (PipeStalled), saying how long in seconds', async () => {
    const { writer } = pipe();
    fill(writer);
    const started = Date.now();
    const failure = writeLines(writer, 'line\n', 5, PIPE, { stallMs: 150 });
    await expect(failure).rejects.toThrow(PipeStalled);
    await expect(failure).rejects.toThrow(
      'the process reading this pipe took nothing for 0.15 seconds (has it stopped?)',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('gives up at once on a full pipe when the run is stopping (PipeWaitStopped)', async () => {
    const { writer } = pipe();
    fill(writer);
    const controller = new AbortController();
    controller.abort();
    const failure = writeLines(writer, 'line\n', 5, PIPE, {
      stallMs: 30_000,
      stopsAt: Date.now(),
      signal: controller.signal,
    });
    await expect(failure).rejects.toThrow(PipeWaitStopped);
    await expect(failure).rejects.toThrow(
      'the process reading this pipe was not taking records when the run was stopped',
    );
  });

  it('waits until the stop comes, then gives up', async () => {
    const { writer } = pipe();
    fill(writer);
    const started = Date.now();
    await expect(writeLines(writer, 'line\n', 5, PIPE, { stallMs: 30_000, stopsAt: started + 100 })).rejects.toThrow(
      PipeWaitStopped,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('a full descriptor that is a regular file is not waited on: the error as the system gives it', async () => {
    const { writer } = pipe();
    fill(writer);
    await expect(writeLines(writer, 'line\n', 5, REGULAR, { stallMs: 30_000 })).rejects.toMatchObject({
      code: 'EAGAIN',
    });
  });

  it('any other failure is thrown as it is', async () => {
    const path = join(tempDir(), 'j.jsonl');
    writeFileSync(path, '');
    const fd = openSync(path, 'r');
    fds.push(fd);
    await expect(writeLines(fd, 'line\n', 5, PIPE, { stallMs: 30_000 })).rejects.toMatchObject({ code: 'EBADF' });
  });
});

describe('writeLinesNow', () => {
  it('writes once and returns the bytes taken', () => {
    const { reader, writer } = pipe();
    expect(writeLinesNow(writer, 'line\n', 5, PIPE)).toBe(5);
    expect(drain(reader)).toBe('line\n');
  });

  it('a full pipe fails at once (PipeWaitStopped)', () => {
    const { writer } = pipe();
    fill(writer);
    expect(() => writeLinesNow(writer, 'line\n', 5, PIPE)).toThrow(PipeWaitStopped);
  });

  it('a regular file and any other failure: the error as the system gives it', () => {
    const { writer } = pipe();
    fill(writer);
    expect(() => writeLinesNow(writer, 'line\n', 5, REGULAR)).toThrow(expect.objectContaining({ code: 'EAGAIN' }));
    const file = join(tempDir(), 'j.jsonl');
    const fd = openSync(file, 'w+');
    fds.push(fd);
    const readOnly = openSync(file, 'r');
    fds.push(readOnly);
    expect(() => writeLinesNow(readOnly, 'line\n', 5, PIPE)).toThrow(expect.objectContaining({ code: 'EBADF' }));
  });

  it('refuses more than PIPE_BUF bytes to a pipe, not to a file', () => {
    const { writer } = pipe();
    expect(() => writeLinesNow(writer, 'x', PIPE_BUF + 1, PIPE)).toThrow(/^a record of 4097 bytes is more/);
    const fd = openSync(join(tempDir(), 'j.jsonl'), 'a');
    fds.push(fd);
    expect(writeLinesNow(fd, 'x\n', PIPE_BUF + 1, REGULAR)).toBe(2);
  });
});
