import { describe, expect, it } from 'vitest';
import type { DeleteOutcome } from '../../src/deletion/results.js';
import type { DeletionOptions } from '../../src/commands/deletion-flags.js';
import { quitReport, reportDeletions } from '../../src/commands/deletion-report.js';
import { HttpError } from '../../src/shared/errors.js';
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
  includeProtected: false,
};

function reportOf(outcomes: DeleteOutcome[], options: Partial<DeletionOptions> = {}, tty = false) {
  const fake = fakeIO({ tty });
  const done = reportDeletions({ outcomes, options: { ...OPTIONS, ...options }, io: fake.io });
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
      'plants: warning: plant 2 is gone: the answer to its DELETE was lost or a server error (500, 502, 504) and the retry found no such plant, so that DELETE most likely deleted it (or it never existed)\n' +
        'plants: warning: plant x\\u001b[2J is gone: the answer to its DELETE was lost or a server error (500, 502, 504) and the retry found no such plant, so that DELETE most likely deleted it (or it never existed)\n' +
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

describe('ids skipped without a service asking to wait (a journal write that failed stops the run)', () => {
  it('a 500 before them is a partial failure, not "so as not to add to its load"', async () => {
    const error = new HttpError('DELETE /plants/2 → 500 Internal Server Error: oops', 500, {
      error: 500,
      message: 'oops',
    });
    const failed: DeleteOutcome = {
      result: { id: '2', result: 'failed', status: 500, request_id: 'r-2', error: error.serviceError },
      error,
    };
    const skipped: DeleteOutcome = { result: { id: '3', result: 'skipped', status: null, request_id: null } };
    const r = reportOf([deleted('1'), failed, skipped]);
    await expect(r.done).rejects.toMatchObject({ code: 'partial_failure', summary: '1 of 3 deletes failed' });
    expect(r.stderr()).not.toMatch(/load/);
  });
});

describe('quitReport (the second Ctrl-C)', () => {
  it('counts gone ids in the final line, and writes a line only for the id in flight', () => {
    const fake = fakeIO();
    const inFlight: DeleteOutcome = {
      result: {
        id: '3',
        result: 'unknown',
        status: null,
        request_id: 'r-3',
        error: { error: null, message: 'stopped' },
      },
    };
    const summary = quitReport({ outcomes: [deleted('1'), gone('2'), inFlight], options: OPTIONS, io: fake.io });
    expect(summary).toBe('interrupted: 1 deleted, 1 gone, 1 unknown');
    expect(fake.stderr()).toBe('Deleted: 1, 2\nplants: 3: stopped\n');
    expect(fake.stdout()).toBe('');
  });

  it('after a stop names the plants deleted and unknown, the first ten of each, then where all of them are', async () => {
    const fake = fakeIO();
    const ids = Array.from({ length: 12 }, (_, i) => deleted(String(i + 1)));
    const odd: DeleteOutcome = { result: { id: 'a, b', result: 'deleted', status: 204, request_id: 'r' } };
    const lost: DeleteOutcome = {
      result: {
        id: '99',
        result: 'unknown',
        status: null,
        request_id: 'r-99',
        error: { error: null, message: 'lost' },
      },
    };
    const run = 'aaaa1111-0000-4000-8000-000000000001';
    await expect(
      reportDeletions({
        outcomes: [odd, ...ids, lost],
        options: OPTIONS,
        io: fake.io,
        stoppedBy: 'SIGTERM',
        runId: run,
      }),
    ).rejects.toMatchObject({
      exitCode: 143,
    });
    expect(
      fake
        .stderr()
        .split('\n')
        .filter((line) => !line.startsWith('plants:')),
    ).toEqual([
      `Deleted: "a, b", 1, 2, 3, 4, 5, 6, 7, 8, 9, and 3 more: plants history ${run}`,
      'Unknown (may have been deleted): 99',
      '',
    ]);
    // With --json every result is on stdout already: no list.
    const quiet = fakeIO();
    await expect(
      reportDeletions({ outcomes: ids, options: { ...OPTIONS, json: true }, io: quiet.io, stoppedBy: 'SIGINT' }),
    ).rejects.toMatchObject({ exitCode: 130 });
    expect(quiet.stderr()).not.toMatch(/Deleted:/);
  });
});
