import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeletionJournal } from '../../src/deletion/journal/journal.js';

// The journal's writes one by one: node:fs's writeSync, seen (and, when a
// test says so, failed or cut short) on its way to the real one.
const fs = vi.hoisted(() => ({
  writes: [] as string[],
  /** 'short': all but the last byte; a number: that many characters (of ASCII text: bytes). */
  fault: undefined as ((text: string) => 'fail' | 'short' | number | undefined) | undefined,
}));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    writeSync: (fd: number, text: string) => {
      fs.writes.push(text);
      const fault = fs.fault?.(text);
      if (fault === 'fail') throw Object.assign(new Error('resource temporarily unavailable'), { code: 'EAGAIN' });
      if (typeof fault === 'number') return real.writeSync(fd, text.slice(0, fault));
      return real.writeSync(fd, fault === 'short' ? text.slice(0, -1) : text);
    },
  };
});

const dirs: string[] = [];
afterEach(() => {
  fs.writes = [];
  fs.fault = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function open(options: { extraFile?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'plants-journal-writes-'));
  dirs.push(dir);
  const extraFile = options.extraFile ? join(dir, 'extra.jsonl') : undefined;
  const journal = await DeletionJournal.open({
    dir: join(dir, 'state'),
    extraFile,
    run: { run: 'run-1', command: 'delete', profile: 'default', baseUrl: 'http://127.0.0.1:1' },
    plants: 2,
  });
  const events = (path: string) =>
    readFileSync(path, 'utf8')
      .split('\n')
      // A piece a write cut short is no record.
      .filter((line) => line !== '' && line.endsWith('}'))
      .map((line) => {
        const record = JSON.parse(line) as { event: string; request_id?: string; result?: string };
        return [record.event, record.request_id, record.result];
      });
  return {
    journal,
    main: () => events(join(dir, 'state', 'deletions.jsonl')),
    extra: () => events(extraFile!),
  };
}

const first = { id: '1', name: 'Monstera' };
const deleted = { id: '1', result: 'deleted' as const, status: 204, request_id: 'r1' };

it('a combined write that one file refuses: the files that took it, and only they, learn the next was not sent', async () => {
  const { journal, main, extra } = await open({ extraFile: true });
  await journal.intent(first, 'r1');
  let seen = 0;
  // The main journal takes the outcome and the next intent; the --journal-file refuses them.
  fs.fault = (text) => (text.includes('"request_id":"r2"') && ++seen === 2 ? 'fail' : undefined);
  await expect(journal.outcomeThenIntent(first, deleted, 1, { id: '2' }, 'r2')).rejects.toThrow(
    /extra\.jsonl: resource temporarily unavailable; its intent is on record, so it reads as unknown$/,
  );
  journal.close();
  expect(main()).toEqual([
    ['start', undefined, undefined],
    ['intent', 'r1', undefined],
    ['outcome', 'r1', 'deleted'],
    ['intent', 'r2', undefined],
    ['outcome', 'r2', 'skipped'],
  ]);
  expect(extra()).toEqual([
    ['start', undefined, undefined],
    ['intent', 'r1', undefined],
  ]);
  expect(journal.unrecordedOutcomes).toBe(1);
});

it('a write cut short by one byte is a failure: the DELETE is not sent', async () => {
  const { journal } = await open();
  fs.fault = () => 'short';
  let message = '';
  try {
    await journal.intent(first, 'r1');
  } catch (err) {
    message = (err as Error).message;
  }
  expect(message).toMatch(/: only \d+ of \d+ bytes could be written/);
  const [, written, meant] =
    /deletions\.jsonl: only (\d+) of (\d+) bytes could be written \(is the disk full\?\); it was not sent$/.exec(
      message,
    ) ?? [];
  expect(Number(written)).toBe(Number(meant) - 1);
  expect(Number(meant)).toBeGreaterThan(50);
  expect(journal.unrecordedOutcomes).toBe(0);
  journal.close();
});

/** outcomeThenIntent of a next plant with `next`: how many writes it made. */
async function writesOf(next: { id: string; name?: string }): Promise<number> {
  const { journal } = await open();
  await journal.intent(first, 'r1');
  const before = fs.writes.length;
  await journal.outcomeThenIntent(first, deleted, 1, next, 'r2');
  journal.close();
  return fs.writes.length - before;
}

it('the outcome and the next intent in one write up to 4096 bytes, in one write each past it (bytes, not characters)', async () => {
  await writesOf({ id: '' });
  const bare = Buffer.byteLength(fs.writes.at(-1)!);
  const upTo = (bytes: number) => ({ id: '7'.repeat(bytes - bare) });
  expect(await writesOf(upTo(4096))).toBe(1);
  expect(await writesOf(upTo(4097))).toBe(2);
  // 4096 characters, 150 of them two bytes in UTF-8.
  const name = 'é'.repeat(150);
  await writesOf({ id: '', name });
  const withName = fs.writes.at(-1)!.length;
  expect(await writesOf({ id: '7'.repeat(4096 - withName), name })).toBe(2);
});

it('split in two, an intent that cannot be written says that it was not sent', async () => {
  const { journal, main } = await open();
  await journal.intent(first, 'r1');
  fs.fault = (text) => (text.startsWith('{"v":1,"event":"intent"') ? 'fail' : undefined);
  await expect(journal.outcomeThenIntent(first, deleted, 1, { id: '7'.repeat(5000) }, 'r2')).rejects.toThrow(
    /: resource temporarily unavailable; it was not sent$/,
  );
  journal.close();
  expect(main().at(-1)).toEqual(['outcome', 'r1', 'deleted']);
  expect(journal.unrecordedOutcomes).toBe(0);
});

it('an outcome that cannot be written says that its intent is on record, so it reads as unknown', async () => {
  const { journal, main } = await open();
  await journal.intent(first, 'r1');
  fs.fault = () => 'fail';
  await expect(journal.outcome(first, deleted, 1)).rejects.toThrow(
    /deletions\.jsonl: resource temporarily unavailable; its intent is on record, so it reads as unknown$/,
  );
  fs.fault = undefined;
  journal.close();
  expect(main().at(-1)).toEqual(['intent', 'r1', undefined]);
  expect(journal.unrecordedOutcomes).toBe(1);
});

it('a write cut short is ended with a line break, so the next record starts a line of its own', async () => {
  const { journal } = await open();
  const [path] = journal.paths;
  let cut = false;
  fs.fault = (text) => (text.includes('"event":"intent"') && !cut && (cut = true) ? 'short' : undefined);
  // Only its line break was cut, and written after: the intent is whole, and the message says so.
  await expect(journal.intent(first, 'r1')).rejects.toThrow(
    /only \d+ of \d+ bytes could be written \(is the disk full\?\); it was not sent, though its intent is on record there in full, so it reads as unknown$/,
  );
  await journal.intent(first, 'r2');
  journal.close();
  const lines = readFileSync(path!, 'utf8').split('\n');
  // The start, what the first intent wrote (all but its last byte), the second intent on a line of its own.
  expect(lines).toHaveLength(4);
  expect(lines[1]).toMatch(/^\{"v":1,"event":"intent",.*"request_id":"r1"\}$/);
  expect(JSON.parse(lines[2]!)).toMatchObject({ event: 'intent', request_id: 'r2' });
  expect(lines[3]).toBe('');
});

describe('a write cut short: the message says what is on record', () => {
  it('an outcome and the next intent cut inside the intent: the outcome is on record, the next was not sent', async () => {
    const { journal, main } = await open();
    await journal.intent(first, 'r1');
    fs.fault = (text) => (text.includes('"request_id":"r2"') ? text.indexOf('\n') + 11 : undefined);
    await expect(journal.outcomeThenIntent(first, deleted, 1, { id: '2' }, 'r2')).rejects.toThrow(
      /only \d+ of \d+ bytes could be written \(is the disk full\?\); its outcome is on record; the next DELETE was not sent$/,
    );
    fs.fault = undefined;
    journal.close();
    expect(journal.unrecordedOutcomes).toBe(0);
    expect(main().at(-1)).toEqual(['outcome', 'r1', 'deleted']);
  });

  it('cut of its last line break alone: both are on record, and it says so', async () => {
    const { journal } = await open();
    await journal.intent(first, 'r1');
    fs.fault = (text) => (text.includes('"request_id":"r2"') ? 'short' : undefined);
    await expect(journal.outcomeThenIntent(first, deleted, 1, { id: '2' }, 'r2')).rejects.toThrow(
      /its outcome is on record; the next DELETE was not sent, though its intent is on record there in full, so it reads as unknown$/,
    );
    fs.fault = undefined;
    journal.close();
    expect(journal.unrecordedOutcomes).toBe(0);
  });

  it('an outcome cut inside it: its intent is on record, so it reads as unknown', async () => {
    const { journal } = await open();
    await journal.intent(first, 'r1');
    fs.fault = () => 30;
    await expect(journal.outcomeThenIntent(first, deleted, 1, { id: '2' }, 'r2')).rejects.toThrow(
      /; its intent is on record, so it reads as unknown$/,
    );
    fs.fault = undefined;
    journal.close();
    expect(journal.unrecordedOutcomes).toBe(1);
  });

  it('skipped plants cut short: the message counts those whole on record', async () => {
    const { journal, main } = await open();
    fs.fault = (text) => (text.includes('"result":"skipped"') ? text.indexOf('\n') + 5 : undefined);
    await expect(journal.skipped([{ id: '1' }, { id: '2' }, { id: '3' }])).rejects.toThrow(
      /; 1 of the 3 never sent are on record as skipped there$/,
    );
    fs.fault = undefined;
    journal.close();
    expect(main().filter(([, , result]) => result === 'skipped')).toHaveLength(1);
  });
});
