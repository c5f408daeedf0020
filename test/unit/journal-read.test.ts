import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LARGE_FILE_BYTES,
  readJournal,
  streamJournal,
  streamJournalFiles,
  type JournalRecord,
  type JournalSink,
} from '../../src/deletion/journal/read.js';
import { JournalError } from '../../src/shared/errors.js';
import { runCommand } from '../helpers/command.js';

// Reading a journal back: the state directory's files in order, files a user names, and the lines that are not records.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plants-journal-read-'));
  dirs.push(dir);
  return dir;
}

function record(run: string, extra: Partial<JournalRecord> = {}): string {
  return JSON.stringify({
    v: 1,
    event: 'start',
    run,
    time: '2026-11-25T10:00:00.000Z',
    command: 'delete',
    profile: 'default',
    base_url: 'http://127.0.0.1:1',
    ...extra,
  });
}

/** A sink that keeps what it is given: the runs of the records, the damaged lines, the large files. */
function collecting() {
  const runs: string[] = [];
  const damaged: string[] = [];
  const large: [string, number][] = [];
  const sink: JournalSink = {
    record: (r) => runs.push(r.run),
    damaged: ({ file, line }) => damaged.push(`${file}:${line}`),
    large: (file, bytes) => large.push([file, bytes]),
  };
  return { sink, runs, damaged, large };
}

describe('streamJournal: the state directory', () => {
  it('reads a missing directory as an empty journal', () => {
    expect(readJournal(join(tempDir(), 'missing'))).toEqual({ records: [], damaged: [] });
  });

  it('reads a directory without a journal as an empty one, other files left alone', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'not a journal\n');
    expect(readJournal(dir)).toEqual({ records: [], damaged: [] });
  });

  it('reads the rolled-over files oldest first, then the current one, each in the order written', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'deletions.jsonl'), `${record('current-1')}\n${record('current-2')}\n`);
    writeFileSync(join(dir, 'deletions.20261125T100000Z.10000.jsonl'), `${record('newer')}\n`);
    writeFileSync(join(dir, 'deletions.20261125T100000Z.9999.jsonl'), `${record('older')}\n`);
    writeFileSync(join(dir, 'deletions.20261124T100000.500Z.1.jsonl'), `${record('oldest')}\n`);
    const { records, damaged } = readJournal(dir);
    expect(records.map((r) => r.run)).toEqual(['oldest', 'older', 'newer', 'current-1', 'current-2']);
    expect(damaged).toEqual([]);
  });

  it('skips blank lines; names each damaged line by its number; reads a last line without its line break', () => {
    const dir = tempDir();
    const file = join(dir, 'deletions.jsonl');
    writeFileSync(file, `${record('a')}\n\nnot json\n{"v":1}\n[1]\n${record('b')}\n${record('c')}`);
    const { records, damaged } = readJournal(dir);
    expect(records.map((r) => r.run)).toEqual(['a', 'b', 'c']);
    expect(damaged).toEqual([
      { file, line: 3 },
      { file, line: 4 },
      { file, line: 5 },
    ]);
  });

  it('reads lines longer than a read chunk whole, one after another', () => {
    const dir = tempDir();
    const name = 'n'.repeat(3 * 1024 * 1024);
    const tag = 't'.repeat(2 * 1024 * 1024);
    const lines = [
      record('long', { event: 'intent', id: '1', name }),
      record('longer', { event: 'intent', id: '2', tag }),
      record('next'),
    ];
    writeFileSync(join(dir, 'deletions.jsonl'), `${lines.join('\n')}\n`);
    const { records } = readJournal(dir);
    expect(records.map((r) => [r.run, r.name?.length, r.tag?.length])).toEqual([
      ['long', name.length, undefined],
      ['longer', undefined, tag.length],
      ['next', undefined, undefined],
    ]);
  });

  it('counts a line over 16 MiB as damaged, a record or not, whether it ends the file or not, and reads on', () => {
    const dir = tempDir();
    const file = join(dir, 'deletions.jsonl');
    const huge = record('huge', { event: 'intent', id: '1', name: 'n'.repeat(16 * 1024 * 1024) });
    writeFileSync(file, `${huge}\n${record('after')}\n${'x'.repeat(16 * 1024 * 1024 + 1)}`);
    const { records, damaged } = readJournal(dir);
    expect(records.map((r) => r.run)).toEqual(['after']);
    expect(damaged).toEqual([
      { file, line: 1 },
      { file, line: 3 },
    ]);
  });

  it('reads a line of exactly 16 MiB', () => {
    const dir = tempDir();
    const start = record('edge', { event: 'intent', id: '1', name: '' });
    const name = 'n'.repeat(16 * 1024 * 1024 - Buffer.byteLength(start));
    writeFileSync(join(dir, 'deletions.jsonl'), `${record('edge', { event: 'intent', id: '1', name })}\n`);
    expect(Buffer.byteLength(record('edge', { event: 'intent', id: '1', name }))).toBe(16 * 1024 * 1024);
    expect(readJournal(dir).records.map((r) => r.run)).toEqual(['edge']);
  });

  it("says nothing of a file's size below LARGE_FILE_BYTES (1 GiB)", () => {
    expect(LARGE_FILE_BYTES).toBe(1024 ** 3);
    const dir = tempDir();
    writeFileSync(join(dir, 'deletions.jsonl'), `${record('a')}\n`);
    const { sink, runs, large } = collecting();
    streamJournal(dir, sink);
    expect(runs).toEqual(['a']);
    expect(large).toEqual([]);
  });

  it('refuses a journal that is not a regular file, and says how to get past it', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'deletions.jsonl'));
    expect(() => readJournal(dir)).toThrow(
      new JournalError(
        `cannot read the deletion journal ${join(dir, 'deletions.jsonl')}: not a regular file; move it out of the way, or set PLANTS_STATE_DIR`,
      ),
    );
  });

  it("refuses a link to nothing in the journal's place (it is there, but cannot be read)", () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'nowhere'), join(dir, 'deletions.jsonl'));
    expect(() => readJournal(dir)).toThrow(
      /^cannot read the deletion journal .*deletions\.jsonl: .*\(ENOENT\); move it out of the way, or set PLANTS_STATE_DIR$/,
    );
  });

  it('refuses a state directory that is a file', () => {
    const dir = tempDir();
    const file = join(dir, 'state');
    writeFileSync(file, '');
    expect(() => readJournal(file)).toThrow(
      new RegExp(`^cannot read the directory of the deletion journal ${file}: .*\\(ENOTDIR\\); move it out of the way`),
    );
  });
});

describe('streamJournalFiles: files a user names', () => {
  it('reads each in the order given, its damaged lines named by file and line', async () => {
    const dir = tempDir();
    const first = join(dir, 'first.jsonl');
    const second = join(dir, 'second.jsonl');
    writeFileSync(first, `${record('1')}\noops\n`);
    writeFileSync(second, `${record('2')}\n`);
    const { sink, runs, damaged, large } = collecting();
    await streamJournalFiles([second, first], sink);
    expect(runs).toEqual(['2', '1']);
    expect(damaged).toEqual([`${first}:2`]);
    expect(large).toEqual([]);
  });

  it('reads an empty file as no records', async () => {
    const file = join(tempDir(), 'empty.jsonl');
    writeFileSync(file, '');
    const { sink, runs, damaged } = collecting();
    await streamJournalFiles([file], sink);
    expect([runs, damaged]).toEqual([[], []]);
  });

  it('takes a first line that starts as a record does, damaged or not, as a journal', async () => {
    const file = join(tempDir(), 'cut.jsonl');
    writeFileSync(file, `{"v":1,"event":"intent","ru\n${record('a')}\n`);
    const { sink, runs, damaged } = collecting();
    await streamJournalFiles([file], sink);
    expect(runs).toEqual(['a']);
    expect(damaged).toEqual([`${file}:1`]);
  });

  it.each([
    ['a first line that is no record', 'root:x:0:0:root:/root:/bin/bash\n'],
    ['a blank first line', `\n${record('a')}\n`],
  ])('refuses a file whose first line is not a journal record: %s', async (_, text) => {
    const file = join(tempDir(), 'passwd');
    writeFileSync(file, text);
    const { sink, runs } = collecting();
    await expect(streamJournalFiles([file], sink)).rejects.toThrow(
      new JournalError(
        `cannot read the journal file ${file}: its first line is not a journal record; give a file that --journal-file wrote`,
      ),
    );
    expect(runs).toEqual([]);
  });

  it('refuses a first line too long to be a record, even one that parses', async () => {
    const file = join(tempDir(), 'huge.jsonl');
    writeFileSync(file, `${record('huge', { event: 'intent', id: '1', name: 'n'.repeat(16 * 1024 * 1024) })}\n`);
    await expect(streamJournalFiles([file], collecting().sink)).rejects.toThrow(
      /its first line is not a journal record/,
    );
  });

  it('refuses a missing file, a directory and a device, naming each', async () => {
    const dir = tempDir();
    const missing = join(dir, 'missing.jsonl');
    await expect(streamJournalFiles([missing], collecting().sink)).rejects.toThrow(
      new RegExp(`^cannot read the journal file ${missing}: .*\\(ENOENT\\); give a file that --journal-file wrote$`),
    );
    await expect(streamJournalFiles([dir], collecting().sink)).rejects.toThrow(
      new RegExp(`^cannot read the journal file ${dir}: .*\\(EISDIR\\); give a file that --journal-file wrote$`),
    );
    await expect(streamJournalFiles(['/dev/null'], collecting().sink)).rejects.toThrow(
      new JournalError(
        'cannot read the journal file /dev/null: a device, not a file or a pipe; give a file that --journal-file wrote',
      ),
    );
  });

  it('stops at the first file it cannot read: the ones after it are not read', async () => {
    const dir = tempDir();
    const good = join(dir, 'good.jsonl');
    writeFileSync(good, `${record('a')}\n`);
    const { sink, runs } = collecting();
    await expect(streamJournalFiles([join(dir, 'missing'), good], sink)).rejects.toBeInstanceOf(JournalError);
    expect(runs).toEqual([]);
  });

  it('refuses a pipe whose first line is not a journal record', async () => {
    const fifo = join(tempDir(), 'not-a-journal.fifo');
    runCommand('mkfifo', [fifo]);
    const holder = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    writeSync(writer, 'root:x:0:0:root:/root:/bin/bash\n');
    const read = streamJournalFiles([fifo], collecting().sink);
    closeSync(holder);
    closeSync(writer);
    await expect(read).rejects.toThrow(
      `cannot read the journal file ${fifo}: its first line is not a journal record; give a file that --journal-file wrote`,
    );
  });

  it('reads a pipe to its end', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'journal.fifo');
    runCommand('mkfifo', [fifo]);
    // A writer that is there before the read starts, as `<(zcat run.jsonl.gz)` is: opened while a
    // reader holds the pipe (else the open would wait), the records put in, then left once the read has begun.
    const holder = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    writeSync(writer, `${record('piped-1')}\nbroken\n${record('piped-2')}`);
    const { sink, runs, damaged } = collecting();
    const read = streamJournalFiles([fifo], sink);
    closeSync(holder);
    closeSync(writer);
    await read;
    expect(runs).toEqual(['piped-1', 'piped-2']);
    expect(damaged).toEqual([`${fifo}:2`]);
  });
});
