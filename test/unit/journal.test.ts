import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeletionJournal } from '../../src/journal/journal.js';
import { JournalError } from '../../src/errors.js';

// The journal's combined record: a bulk delete's outcome and the next
// request's intent in one write. Whatever is written must read as the two
// records written one after the other would.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(extraFile?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'plants-journal-'));
  dirs.push(dir);
  const journal = DeletionJournal.open({
    dir,
    extraFile,
    run: { run: 'run-1', command: 'delete', profile: 'default', baseUrl: 'http://127.0.0.1:1' },
    redact: (text) => text.replaceAll('secret', '***'),
    plants: 2,
  });
  const records = () =>
    readFileSync(join(dir, 'deletions.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const { time, ...record } = JSON.parse(line) as Record<string, unknown>;
        expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        return record;
      });
  return { dir, journal, records };
}

const first = { id: '1', name: 'Monstera "secret" deliciosa', tag: 'tropical' };
const second = { id: '9007199254740993', name: 'Ficus' };
const deleted = { id: '1', result: 'deleted' as const, status: 204, request_id: 'r1' };

describe('DeletionJournal.outcomeThenIntent', () => {
  it('writes what outcome() and then intent() would', () => {
    const apart = open();
    apart.journal.intent(first, 'r1');
    apart.journal.outcome(first, deleted, 1);
    apart.journal.intent(second, 'r2');
    const together = open();
    together.journal.intent(first, 'r1');
    together.journal.outcomeThenIntent(first, deleted, 1, second, 'r2');
    expect(together.records()).toEqual(apart.records());
    expect(together.records()[2]).toEqual({
      v: 1,
      event: 'outcome',
      run: 'run-1',
      command: 'delete',
      profile: 'default',
      base_url: 'http://127.0.0.1:1',
      id: '1',
      name: 'Monstera "***" deliciosa',
      tag: 'tropical',
      request_id: 'r1',
      result: 'deleted',
      status: 204,
      attempts: 1,
    });
    // The first outcome is on record, the second request's is not (yet).
    expect(together.journal.unrecordedOutcomes).toBe(1);
    expect(apart.journal.unrecordedOutcomes).toBe(1);
    together.journal.close();
    apart.journal.close();
  });

  it('a file that fails it: a JournalError; the files that took it learn the next was not sent', async () => {
    const fifoDir = mkdtempSync(join(tmpdir(), 'plants-journal-fifo-'));
    dirs.push(fifoDir);
    const fifo = join(fifoDir, 'journal.fifo');
    execFileSync('mkfifo', [fifo]);
    // A --journal-file whose reader takes the start record's first byte and goes away: later writes fail (EPIPE).
    const reader = spawn('head', ['-c', '1', fifo], { stdio: 'ignore' });
    const exited = once(reader, 'exit');
    const { journal, records } = open(fifo);
    await exited;
    let thrown: unknown;
    try {
      journal.outcomeThenIntent(first, deleted, 1, second, 'r2');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(JournalError);
    expect((thrown as Error).message).toBe(
      `cannot write the deletion journal ${fifo}: broken pipe (EPIPE); its intent is on record, so it reads as unknown`,
    );
    journal.close();
    expect(records().map((record) => [record.event, record.id, record.result])).toEqual([
      ['start', undefined, undefined],
      ['outcome', '1', 'deleted'],
      ['intent', '9007199254740993', undefined],
      ['outcome', '9007199254740993', 'skipped'],
    ]);
    // The next was not sent, so it is not waiting for an outcome.
    expect(journal.unrecordedOutcomes).toBe(0);
  });
});
