import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeletionJournal } from '../../src/deletion/journal/journal.js';

// The journal's writes one by one (node:fs's writeSync seen, and failed when a test says so):
// skipped plants a pipe's worth per write, what a failure counts, and what stays open.
const fs = vi.hoisted(() => ({
  writes: [] as string[],
  fail: undefined as ((text: string) => boolean) | undefined,
  /** Writes all but the last byte of the text it says yes to. */
  short: undefined as ((text: string) => boolean) | undefined,
}));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    writeSync: (fd: number, text: string) => {
      fs.writes.push(text);
      if (fs.fail?.(text)) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      return real.writeSync(fd, fs.short?.(text) ? text.slice(0, -1) : text);
    },
  };
});

const dirs: string[] = [];
afterEach(() => {
  fs.writes = [];
  fs.fail = undefined;
  fs.short = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function open() {
  const dir = mkdtempSync(join(tmpdir(), 'plants-journal-batches-'));
  dirs.push(dir);
  const journal = await DeletionJournal.open({
    dir,
    run: { run: 'run-1', command: 'delete', profile: 'default', baseUrl: 'http://127.0.0.1:1' },
    plants: 10,
    start: { include_protected: true },
  });
  fs.writes = [];
  const records = () =>
    readFileSync(join(dir, 'deletions.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { dir, journal, records };
}

/** Plants whose skipped records are about 1000 bytes each: four fit in a pipe's write, five do not. */
const plants = Array.from({ length: 10 }, (_, i) => ({ id: String(i), name: 'n'.repeat(200), tag: 't'.repeat(200) }));
const bigPlants = plants.map((plant) => ({ ...plant, id: `${plant.id}-${'i'.repeat(500)}` }));

describe('DeletionJournal.skipped', () => {
  it('writes whole lines, as many as fit in 4096 bytes per write', async () => {
    const { journal, records } = await open();
    await journal.skipped(bigPlants);
    journal.close();
    const perWrite = fs.writes.map((text) => text.split('\n').length - 1);
    expect(perWrite.reduce((a, b) => a + b, 0)).toBe(10);
    expect(perWrite.length).toBeGreaterThan(1);
    for (const text of fs.writes) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    // Each write as full as it could be: the next line would not have fitted.
    const sizes = fs.writes.map((text) => Buffer.byteLength(text));
    const firstLine = Buffer.byteLength(fs.writes[1]!.split('\n')[0]!) + 1;
    for (const size of sizes.slice(0, -1)) expect(size + firstLine).toBeGreaterThan(4096);
    expect(
      records()
        .filter((r) => r.result === 'skipped')
        .map((r) => String(r.id).split('-')[0]),
    ).toEqual(plants.map((p) => p.id));
  });

  it('the same, at once', async () => {
    const { journal, records } = await open();
    journal.skippedNow(bigPlants);
    journal.close();
    expect(fs.writes.length).toBeGreaterThan(1);
    for (const text of fs.writes) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(records().filter((r) => r.result === 'skipped')).toHaveLength(10);
  });

  it('small records: all in one write; nothing to record: no write', async () => {
    const { journal } = await open();
    await journal.skipped([{ id: '1' }, { id: '2' }, { id: '3' }]);
    expect(fs.writes).toHaveLength(1);
    expect(fs.writes[0]!.split('\n')).toHaveLength(4);
    await journal.skipped([]);
    journal.skippedNow([]);
    expect(fs.writes).toHaveLength(1);
    journal.close();
  });

  it('one record longer than a write is written alone', async () => {
    const { journal } = await open();
    const huge = { id: 'h'.repeat(5000) };
    await journal.skipped([{ id: '1' }, huge, { id: '2' }]);
    journal.close();
    expect(fs.writes.map((text) => text.split('\n').length - 1)).toEqual([1, 1, 1]);
  });

  it('a write that fails: how many are on record already', async () => {
    /** The message of skipped() (or skippedNow()) whose `nth` write fails. */
    async function failing(nth: number, now: boolean): Promise<[string, string]> {
      const { journal, dir } = await open();
      let count = 0;
      fs.fail = () => ++count === nth;
      const failure = (
        now
          ? (() => {
              try {
                journal.skippedNow(bigPlants);
              } catch (err) {
                return err;
              }
            })()
          : await journal.skipped(bigPlants).catch((e: unknown) => e)
      ) as Error;
      fs.fail = undefined;
      // The file takes no more: nothing is written to it.
      await journal.skipped(bigPlants);
      expect(fs.writes).toHaveLength(nth);
      journal.close();
      const perWrite = fs.writes[0]!.split('\n').length - 1;
      fs.writes = [];
      return [
        failure.message,
        `cannot write the deletion journal ${join(dir, 'deletions.jsonl')}: no space left on device; ${(nth - 1) * perWrite} of the 10 never sent are on record as skipped there`,
      ];
    }
    for (const [nth, now] of [
      [1, false],
      [2, false],
      [3, true],
    ] as const) {
      const [said, expected] = await failing(nth, now);
      expect(said).toBe(expected);
    }
  });

  it('leaves out of skipped() a plant whose intent failed part-way: the files that took it have its skipped outcome', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plants-journal-batches-'));
    dirs.push(dir);
    const journal = await DeletionJournal.open({
      dir,
      extraFile: join(dir, 'extra.jsonl'),
      run: { run: 'run-1', command: 'delete', profile: 'default', baseUrl: 'http://127.0.0.1:1' },
      plants: 2,
    });
    let intents = 0;
    // The state journal takes the intent of plant 1; the --journal-file refuses it.
    fs.fail = (text) => text.includes('"event":"intent"') && ++intents === 2;
    await expect(journal.intent({ id: '1' }, 'r1')).rejects.toThrow(
      /extra\.jsonl: no space left on device; it was not sent$/,
    );
    fs.fail = undefined;
    await journal.skipped([{ id: '1' }, { id: '2' }]);
    journal.close();
    const main = readFileSync(join(dir, 'deletions.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(main.map((r) => [r.event, r.id, r.result])).toEqual([
      ['start', undefined, undefined],
      ['intent', '1', undefined],
      ['outcome', '1', 'skipped'],
      ['outcome', '2', 'skipped'],
    ]);
  });

  it('an intent that fails: it was not sent, and the file takes no more', async () => {
    const { journal, records } = await open();
    fs.fail = (text) => text.includes('"event":"intent"');
    await expect(journal.intent({ id: '1' }, 'r1')).rejects.toThrow(/; it was not sent$/);
    fs.fail = undefined;
    expect(journal.healthyPaths).toEqual([]);
    journal.close();
    expect(records().map((r) => r.event)).toEqual(['start']);
  });
});

describe('DeletionJournal bookkeeping', () => {
  it('counts the DELETEs sent whose outcome is not on record', async () => {
    const { journal, records } = await open();
    expect(journal.run).toBe('run-1');
    expect(journal.unrecordedOutcomes).toBe(0);
    await journal.intent({ id: '1' }, 'r1');
    await journal.intent({ id: '2' }, 'r2');
    expect(journal.unrecordedOutcomes).toBe(2);
    await journal.outcome({ id: '1' }, { id: '1', result: 'deleted', status: 204, request_id: 'r1' }, 1);
    expect(journal.unrecordedOutcomes).toBe(1);
    await journal.outcome({ id: '3' }, { id: '3', result: 'unknown', status: null, request_id: null }, null);
    expect(journal.unrecordedOutcomes).toBe(1);
    await journal.outcomeThenIntent(
      { id: '2' },
      { id: '2', result: 'gone', status: 404, request_id: 'r2' },
      1,
      { id: '4' },
      'r4',
    );
    expect(journal.unrecordedOutcomes).toBe(1);
    await journal.outcomeThenIntent(
      { id: '4' },
      { id: '4', result: 'unknown', status: null, request_id: null },
      null,
      { id: '5' },
      'r5',
    );
    expect(journal.unrecordedOutcomes).toBe(2);
    journal.close();
    expect(records()[0]).toMatchObject({ event: 'start', plants: 10, include_protected: true });
    expect(records().map((r) => [r.event, r.request_id])).toEqual([
      ['start', undefined],
      ['intent', 'r1'],
      ['intent', 'r2'],
      ['outcome', 'r1'],
      ['outcome', null],
      ['outcome', 'r2'],
      ['intent', 'r4'],
      ['outcome', null],
      ['intent', 'r5'],
    ]);
  });

  it('an outcome that fails: its intent stays open, and the file takes no more', async () => {
    const { journal, dir } = await open();
    await journal.intent({ id: '1' }, 'r1');
    fs.fail = () => true;
    await expect(
      journal.outcome({ id: '1' }, { id: '1', result: 'deleted', status: 204, request_id: 'r1' }, 1),
    ).rejects.toThrow(
      `cannot write the deletion journal ${join(dir, 'deletions.jsonl')}: no space left on device; its intent is on record, so it reads as unknown`,
    );
    expect(journal.unrecordedOutcomes).toBe(1);
    expect(journal.paths).toEqual([join(dir, 'deletions.jsonl')]);
    expect(journal.healthyPaths).toEqual([]);
    journal.close();
  });

  it('an outcome cut of its line break alone is on record all the same: its intent is closed', async () => {
    const { journal, dir, records } = await open();
    await journal.intent({ id: '1' }, 'r1');
    fs.short = (text) => text.includes('"event":"outcome"');
    const message = (
      (await journal
        .outcome({ id: '1' }, { id: '1', result: 'deleted', status: 204, request_id: 'r1' }, 1)
        .catch((e: unknown) => e)) as Error
    ).message;
    const bytes = Buffer.byteLength(fs.writes.at(-2)!);
    expect(message).toBe(
      `cannot write the deletion journal ${join(dir, 'deletions.jsonl')}: only ${bytes - 1} of ${bytes} bytes could be written (is the disk full?); its outcome is on record all the same`,
    );
    expect(journal.unrecordedOutcomes).toBe(0);
    journal.close();
    expect(records().map((r) => [r.event, r.request_id])).toEqual([
      ['start', undefined],
      ['intent', 'r1'],
      ['outcome', 'r1'],
    ]);
  });

  it('an outcome cut inside it: its intent stays open', async () => {
    const { journal } = await open();
    await journal.intent({ id: '1' }, 'r1');
    let first = true;
    fs.short = (text) => text.includes('"event":"outcome"');
    fs.fail = (text) => {
      // The line break that would end the piece does not go either.
      if (text !== '\n') return false;
      const was = first;
      first = false;
      return was;
    };
    await expect(
      journal.outcome({ id: '1' }, { id: '1', result: 'deleted', status: 204, request_id: 'r1' }, 1),
    ).rejects.toThrow(/; its intent is on record, so it reads as unknown$/);
    expect(journal.unrecordedOutcomes).toBe(1);
    journal.close();
  });

  it('closes once: a second close leaves alone a descriptor that took the number since', async () => {
    const { journal, dir } = await open();
    journal.close();
    const fd = openSync(join(dir, 'deletions.jsonl'), 'r');
    try {
      journal.close();
      expect(fstatSync(fd).isFile()).toBe(true);
    } finally {
      closeSync(fd);
    }
  });
});
