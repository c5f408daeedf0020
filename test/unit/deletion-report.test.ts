import { describe, expect, it } from 'vitest';
import type { DeleteOutcome } from '../../src/api/delete-many.js';
import type { DeletionOptions } from '../../src/commands/deletion.js';
import { quitReport, report } from '../../src/commands/deletion-report.js';
import { createContext } from '../../src/context.js';
import { fakeIO } from '../helpers/io.js';
import { withoutRequestIds } from '../helpers/results.js';

// The report of a delete for outcomes a MockAgent cannot easily produce
// in-process: `gone` needs a retry after a lost answer, with its real backoff.
// delete-command.test.ts covers the rest through the command.

const OPTIONS: DeletionOptions = {
  yes: true,
  json: false,
  dryRun: false,
  ignoreMissing: false,
  concurrency: 8,
  journal: false,
};

function reportOf(outcomes: DeleteOutcome[], options: Partial<DeletionOptions> = {}, tty = false) {
  const fake = fakeIO({ tty });
  const ctx = createContext({ io: fake.io, env: {} });
  const done = report(outcomes, { ...OPTIONS, ...options }, ctx, undefined);
  return { done, ...fake };
}

const deleted = (id: string): DeleteOutcome => ({
  result: { id, result: 'deleted', status: 204, request_id: `r-${id}` },
});
const gone = (id: string): DeleteOutcome => ({ result: { id, result: 'gone', status: 404, request_id: `r-${id}` } });

describe('gone: a retried DELETE found no plant after the first answer was lost', () => {
  it('counts as success (exit 0), with a warning per id, and the summary even when piped', async () => {
    const r = reportOf([deleted('1'), gone('2'), gone('x\u001b[2J')]);
    await expect(r.done).resolves.toBeUndefined();
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toBe(
      'plants: warning: plant 2 is gone: the answer to its DELETE was lost and the retry found no such plant, so that DELETE most likely deleted it (or it never existed)\n' +
        'plants: warning: plant x\\u001b[2J is gone: the answer to its DELETE was lost and the retry found no such plant, so that DELETE most likely deleted it (or it never existed)\n' +
        'Deleted 1, gone 2\n',
    );
  });

  it('one id: the warning, no "Deleted plant" line, exit 0', async () => {
    const r = reportOf([gone('7')], {}, true);
    await expect(r.done).resolves.toBeUndefined();
    expect(r.stderr()).toMatch(/^plants: warning: plant 7 is gone: .*\n$/);
  });

  it('--json: reported as gone, status 404', async () => {
    const r = reportOf([gone('7'), deleted('8')], { json: true });
    await r.done;
    expect(withoutRequestIds(JSON.parse(r.stdout()))).toEqual([
      { id: '7', result: 'gone', status: 404 },
      { id: '8', result: 'deleted', status: 204 },
    ]);
  });
});

describe('quitReport (the second Ctrl-C)', () => {
  it('counts gone ids in the final line, and writes a line only for the id in flight', () => {
    const fake = fakeIO();
    const ctx = createContext({ io: fake.io, env: {} });
    const inFlight: DeleteOutcome = {
      result: {
        id: '3',
        result: 'unknown',
        status: null,
        request_id: 'r-3',
        error: { error: null, message: 'stopped' },
      },
    };
    const summary = quitReport([deleted('1'), gone('2'), inFlight], OPTIONS, ctx);
    expect(summary).toBe('interrupted: 1 deleted, 1 gone, 1 unknown');
    expect(fake.stderr()).toBe('plants: 3: stopped\n');
    expect(fake.stdout()).toBe('');
  });
});
