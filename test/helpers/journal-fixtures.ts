import { constants, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { JournalOpening } from '../../src/deletion/journal/choice.js';
import type { DeleteOutcome } from '../../src/deletion/results.js';
import { runCommand } from './command.js';

/**
 * What the journal's unit tests build their runs from: a run's opening (its
 * state directory a fresh temp dir), a journal file's records, an outcome,
 * and a FIFO with both ends open non-blocking, as the journal opens a pipe.
 * `tempDir` and `fds` are the test file's own (helpers/temp-files.ts).
 */
export function journalFixtures(tempDir: () => string, fds: number[] = []) {
  return {
    opening: (over: Partial<JournalOpening> = {}): JournalOpening => ({
      command: 'delete',
      plants: 2,
      choice: { journal: true },
      env: { PLANTS_STATE_DIR: tempDir() },
      where: () => Promise.resolve({ profile: 'default', baseUrl: new URL('http://127.0.0.1:1/api/') }),
      warn: vi.fn(),
      info: vi.fn(),
      ...over,
    }),
    events: (path: string) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    outcome: (id: string, result: DeleteOutcome['result']['result'], sent = true): DeleteOutcome => ({
      result: { id, result, status: sent ? 204 : null, request_id: sent ? `r-${id}` : null },
    }),
    fifo: (): { path: string; reader: number; writer: number } => {
      const path = join(tempDir(), 'journal.fifo');
      runCommand('mkfifo', [path]);
      const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      fds.push(reader);
      const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      fds.push(writer);
      return { path, reader, writer };
    },
  };
}
