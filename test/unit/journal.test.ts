import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeletionJournal } from '../../src/deletion/journal/journal.js';
import { JournalError } from '../../src/shared/errors.js';
import { readJournal } from '../../src/deletion/journal/read.js';
import { waitForPipeReader } from '../../src/deletion/journal/pipe-reader.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';
import { runCommand } from '../helpers/command.js';

// The journal's combined record: a bulk delete's outcome and the next
// request's intent in one write. Whatever is written must read as the two
// records written one after the other would.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  forgetSecrets();
});

async function open(extraFile?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'plants-journal-'));
  dirs.push(dir);
  const journal = await DeletionJournal.open({
    dir,
    extraFile,
    run: { run: 'run-1', command: 'delete', profile: 'default', baseUrl: 'http://127.0.0.1:1' },
    plants: 2,
  });
  /** The file's text, each record's time (the one thing that differs from run to run) masked. */
  const text = () =>
    readFileSync(join(dir, 'deletions.jsonl'), 'utf8').replace(
      /"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g,
      '"time":"…"',
    );
  const records = () =>
    readFileSync(join(dir, 'deletions.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const { time, ...record } = JSON.parse(line) as Record<string, unknown>;
        expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        return record;
      });
  return { dir, journal, records, text };
}

// The journal writer masks every secret the run knows (secrets/registry.ts).
const first = { id: '1', name: 'Monstera "secret-token" deliciosa', tag: 'tropical' };
const second = { id: '9007199254740993', name: 'Ficus' };
const deleted = { id: '1', result: 'deleted' as const, status: 204, request_id: 'r1' };

describe('DeletionJournal.open', () => {
  it('ends a line a run left unended (a full disk took part of it), so the start record is not glued to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plants-journal-'));
    dirs.push(dir);
    const piece = '{"v":1,"event":"intent","run":"old-run","time":"2026-11-26T00:00:00.000Z","comm';
    writeFileSync(join(dir, 'deletions.jsonl'), piece);
    writeFileSync(join(dir, 'extra.jsonl'), piece);
    const journal = await DeletionJournal.open({
      dir,
      extraFile: join(dir, 'extra.jsonl'),
      run: { run: 'run-1', command: 'delete', profile: 'default', baseUrl: 'http://127.0.0.1:1' },
      plants: 2,
    });
    journal.close();
    const { records, damaged } = readJournal(dir);
    expect(records.map((record) => [record.event, record.run, record.plants])).toEqual([['start', 'run-1', 2]]);
    expect(damaged).toEqual([{ file: join(dir, 'deletions.jsonl'), line: 1 }]);
    expect(readFileSync(join(dir, 'extra.jsonl'), 'utf8')).toMatch(/^[^\n]*comm\n\{"v":1,"event":"start"[^\n]*\n$/);
    // A file whose lines are ended gets no blank line.
    (
      await DeletionJournal.open({
        dir,
        run: { run: 'run-2', command: 'delete', profile: 'default', baseUrl: 'http://127.0.0.1:1' },
        plants: 1,
      })
    ).close();
    expect(readFileSync(join(dir, 'deletions.jsonl'), 'utf8')).not.toMatch(/\n\n/);
    expect(readJournal(dir).records.map((record) => record.run)).toEqual(['run-1', 'run-2']);
  });
});

describe('DeletionJournal.outcomeThenIntent', () => {
  it.each([
    ['short lines', first, second],
    // Together more than a pipe takes whole from one write: written one by one.
    ['long lines', { ...first, name: '\u0001'.repeat(300) }, { id: '7'.repeat(3000), tag: '"'.repeat(300) }],
  ])('writes what outcome() and then intent() would: %s', async (_, done, next) => {
    const apart = await open();
    await apart.journal.intent(done, 'r1');
    await apart.journal.outcome(done, deleted, 1);
    expect(apart.journal.unrecordedOutcomes).toBe(0);
    await apart.journal.intent(next, 'r2');
    const together = await open();
    await together.journal.intent(done, 'r1');
    await together.journal.outcomeThenIntent(done, deleted, 1, next, 'r2');
    expect(together.text()).toBe(apart.text());
    expect(together.records().map((record) => record.event)).toEqual(['start', 'intent', 'outcome', 'intent']);
    // The first outcome is on record, the second request's is not (yet).
    expect(together.journal.unrecordedOutcomes).toBe(1);
    together.journal.close();
    apart.journal.close();
  });

  it('writes records field by field as they always were, every secret the run knows masked', async () => {
    registerSecret('secret-token');
    const together = await open();
    await together.journal.intent(first, 'r1');
    await together.journal.outcomeThenIntent(first, deleted, 1, second, 'r2');
    expect(together.text()).toBe(
      [
        '{"v":1,"event":"start","run":"run-1","time":"…","command":"delete","profile":"default","base_url":"http://127.0.0.1:1","plants":2}',
        '{"v":1,"event":"intent","run":"run-1","time":"…","command":"delete","profile":"default","base_url":"http://127.0.0.1:1","id":"1","name":"Monstera \\"***\\" deliciosa","tag":"tropical","request_id":"r1"}',
        '{"v":1,"event":"outcome","run":"run-1","time":"…","command":"delete","profile":"default","base_url":"http://127.0.0.1:1","id":"1","name":"Monstera \\"***\\" deliciosa","tag":"tropical","request_id":"r1","result":"deleted","status":204,"attempts":1}',
        '{"v":1,"event":"intent","run":"run-1","time":"…","command":"delete","profile":"default","base_url":"http://127.0.0.1:1","id":"9007199254740993","name":"Ficus","request_id":"r2"}',
        '',
      ].join('\n'),
    );
    together.journal.close();
  });

  it('a file that fails it: a JournalError; the files that took it learn the next was not sent', async () => {
    const fifoDir = mkdtempSync(join(tmpdir(), 'plants-journal-fifo-'));
    dirs.push(fifoDir);
    const fifo = join(fifoDir, 'journal.fifo');
    runCommand('mkfifo', [fifo]);
    // What the start record and one intent take (every record's time is as long).
    const sample = await open();
    await sample.journal.intent(first, 'r1');
    sample.journal.close();
    const bytes = Buffer.byteLength(sample.text());
    // A --journal-file whose reader takes that much and goes away: later writes fail (EPIPE).
    const reader = spawn('head', ['-c', String(bytes), fifo], { stdio: 'ignore' });
    const exited = once(reader, 'exit');
    // A pipe is opened once it has a reader, as openDeletionJournal waits for one (a non-blocking open needs it).
    const release = await waitForPipeReader(fifo, () => {});
    const { journal, records } = await open(fifo);
    release();
    await journal.intent(first, 'r1');
    await exited;
    let thrown: unknown;
    try {
      await journal.outcomeThenIntent(first, deleted, 1, second, 'r2');
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
      ['intent', '1', undefined],
      ['outcome', '1', 'deleted'],
      ['intent', '9007199254740993', undefined],
      ['outcome', '9007199254740993', 'skipped'],
    ]);
    // The first outcome is not on record in every file; the next was not sent, so it waits for none.
    expect(journal.unrecordedOutcomes).toBe(1);
  });

  it("a record's time is when it was written, to the millisecond", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.UTC(2026, 10, 26, 6, 30, 0, 5));
      const { dir, journal } = await open();
      await journal.intent(first, 'r1');
      vi.setSystemTime(Date.UTC(2026, 10, 26, 6, 30, 0, 6));
      await journal.outcomeThenIntent(first, deleted, 1, second, 'r2');
      vi.setSystemTime(Date.UTC(2026, 10, 26, 6, 30, 0, 6));
      await journal.outcome(second, { ...deleted, id: second.id, request_id: 'r2' }, 1);
      journal.close();
      const times = readFileSync(join(dir, 'deletions.jsonl'), 'utf8').match(/"time":"[^"]+"/g);
      expect(times).toEqual([
        '"time":"2026-11-26T06:30:00.005Z"',
        '"time":"2026-11-26T06:30:00.005Z"',
        '"time":"2026-11-26T06:30:00.006Z"',
        '"time":"2026-11-26T06:30:00.006Z"',
        '"time":"2026-11-26T06:30:00.006Z"',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('DeletionJournal records', () => {
  it('a name or tag of up to 200 characters is kept whole; a longer one is cut to 200, the last an ellipsis', async () => {
    const { journal, records } = await open();
    const [exactly, over] = ['n'.repeat(200), 'n'.repeat(201)];
    await journal.intent({ id: '1', name: exactly, tag: over }, 'r1');
    await journal.intent({ id: '2', name: 'x'.repeat(5000), tag: 't' }, 'r2');
    journal.close();
    const [, one, two] = records();
    expect(one).toMatchObject({ name: exactly, tag: `${'n'.repeat(199)}…` });
    expect(two).toMatchObject({ name: `${'x'.repeat(199)}…`, tag: 't' });
  });
});

describe('DeletionJournal.open on a pipe', () => {
  it('a plant whose records a pipe cannot take whole is named masked first, then cut: no part of a secret shows', async () => {
    const token = 'tok_' + 'A1b2C3d4'.repeat(8);
    registerSecret(token);
    const fifoDir = mkdtempSync(join(tmpdir(), 'plants-journal-fifo-'));
    dirs.push(fifoDir);
    const fifo = join(fifoDir, 'journal.fifo');
    runCommand('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo], { stdio: 'ignore' });
    const exited = once(reader, 'exit');
    const release = await waitForPipeReader(fifo, () => {});
    let thrown: unknown;
    try {
      await DeletionJournal.open({
        dir: undefined,
        extraFile: fifo,
        run: { run: 'run-1', command: 'delete', profile: 'default', baseUrl: 'http://127.0.0.1:1' },
        plants: 1,
        targets: [{ id: `${token}${'y'.repeat(4000)}` }],
      });
    } catch (err) {
      thrown = err;
    } finally {
      release();
    }
    await exited;
    expect(thrown).toBeInstanceOf(JournalError);
    const { message } = thrown as Error;
    expect(message).toContain(`the records of plant ***${'y'.repeat(36)}… would be `);
    expect(message).not.toContain(token.slice(0, 8));
  });
});
