import { constants, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeletionJournal } from '../../src/deletion/journal/journal.js';
import { RunRecords } from '../../src/deletion/journal/record-lines.js';
import { runCommand } from '../helpers/command.js';
import { tempFiles } from '../helpers/temp-files.js';

// A run whose records a pipe could not take whole is refused before anything is sent: to the byte.

const { tempDir, fds } = tempFiles('plants-fit-pipe-');

const RUN = { run: 'run-1', command: 'delete', profile: 'default', baseUrl: 'http://127.0.0.1:1' };

/** The bytes of a plant's longest record (an outcome: not_found, a request id, status 404, 999 attempts). */
function longest(id: string): number {
  const line = new RunRecords(RUN).outcome(
    { id },
    { id, result: 'not_found', request_id: '00000000-0000-4000-8000-000000000000', status: 404 },
    999,
  );
  return Buffer.byteLength(line);
}

/** An id whose longest record is `bytes` bytes. */
function idOf(bytes: number): string {
  return 'i'.repeat(bytes - longest(''));
}

function pipe(): { path: string; reader: number } {
  const path = join(tempDir(), 'journal.fifo');
  runCommand('mkfifo', [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  fds.push(reader);
  return { path, reader };
}

function open(extraFile: string, targets: { id: string }[]) {
  return DeletionJournal.open({ extraFile, run: RUN, plants: targets.length, targets });
}

describe('DeletionJournal.open with targets', () => {
  it('a pipe takes a plant whose longest record is 4096 bytes, and refuses one of 4097, naming it', async () => {
    expect(longest(idOf(4096))).toBe(4096);
    const { path, reader } = pipe();
    const journal = await open(path, [{ id: '1' }, { id: idOf(4096) }]);
    journal.close();
    const buffer = Buffer.alloc(8192);
    const start = buffer.subarray(0, readSync(reader, buffer)).toString();
    expect(JSON.parse(start)).toMatchObject({ event: 'start', plants: 2 });
    const id = idOf(4097);
    await expect(open(path, [{ id: '1' }, { id }])).rejects.toMatchObject({
      name: 'JournalError',
      message: `cannot write the deletion journal ${path}: the records of plant ${'i'.repeat(39)}… would be 4097 bytes, more than a pipe takes whole (4096), so another run's records could tear them; nothing was deleted; name a regular --journal-file, or leave that plant out`,
    });
    // Nothing was written for the refused run, and it holds the pipe no more: the reader is at its end.
    expect(readSync(reader, buffer)).toBe(0);
  });

  it('names the id by its first 39 characters, its control characters shown', async () => {
    const { path } = pipe();
    const id = `a\u0007${'b'.repeat(38)}${'\\'.repeat(2100)}`;
    const failure = (await open(path, [{ id }]).catch((e: unknown) => e)) as Error;
    expect(failure.message).toContain(`the records of plant a\\u0007${'b'.repeat(37)}… would be `);
  });

  it('a regular file takes records of any size', async () => {
    const path = join(tempDir(), 'run.jsonl');
    const journal = await open(path, [{ id: idOf(5000) }]);
    await journal.intent({ id: idOf(5000) }, 'r1');
    journal.close();
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3);
  });
});
