import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants, existsSync, openSync, readdirSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  checkDeletionJournal,
  journalStopped,
  openDeletionJournal,
  recordSkipped,
  recordSkippedNow,
} from '../../src/deletion/journal/choice.js';
import { RunRecords } from '../../src/deletion/journal/record-lines.js';
import { JournalError } from '../../src/shared/errors.js';
import { runCommand } from '../helpers/command.js';
import { tempFiles } from '../helpers/temp-files.js';
import { journalFixtures } from '../helpers/journal-fixtures.js';

// The journal a run keeps, as its environment's test settings shape it, and what a run stopped by it says.

const { tempDir, fds } = tempFiles('plants-journal-choice-env-');

const { opening, events, outcome, fifo } = journalFixtures(tempDir, fds);

/** Fills a pipe until it takes not one byte more. */
function fill(writer: number): void {
  for (const size of [4096, 1]) {
    try {
      for (;;) writeSync(writer, Buffer.alloc(size, 0x61));
    } catch {
      // Full, to this size.
    }
  }
}

/** Reads what a pipe holds now. */
function drain(reader: number): void {
  const buffer = Buffer.alloc(65536);
  try {
    while (readSync(reader, buffer) > 0);
  } catch {
    // Empty.
  }
}

const OLD = /^deletions\.\d{8}T\d{6}\.\d{3}Z\.\d+\.jsonl$/;

describe('PLANTS_TEST_JOURNAL_ROLL_OVER_BYTES', () => {
  it('a positive integer is where the journal rolls over; anything else leaves 16 MiB', async () => {
    const cases: [string | undefined, boolean][] = [
      ['10', true],
      ['11', false],
      ['1', true],
      [undefined, false],
      ['0', false],
      ['-1', false],
      ['1.5', false],
      ['10x', false],
      ['x10', false],
      ['', false],
      [' 10', false],
      ['10 ', false],
      ['1e1', false],
      ['99999999999999999999', false],
    ];
    for (const [value, rolled] of cases) {
      const dir = tempDir();
      writeFileSync(join(dir, 'deletions.jsonl'), '123456789\n');
      const journal = await openDeletionJournal(
        opening({ env: { PLANTS_STATE_DIR: dir, PLANTS_TEST_JOURNAL_ROLL_OVER_BYTES: value } }),
      );
      journal!.close();
      expect([value, readdirSync(dir).some((name) => OLD.test(name))]).toEqual([value, rolled]);
    }
  });
});

describe('PLANTS_TEST_JOURNAL_PIPE_STALL_MS', () => {
  /** A pipe with a reader that takes nothing, full already. */
  function fullPipe(): { path: string; reader: number } {
    const { path, reader, writer } = fifo();
    fill(writer);
    return { path, reader };
  }

  it('is how long a pipe may take nothing', async () => {
    const { path } = fullPipe();
    await expect(
      openDeletionJournal(
        opening({
          choice: { journal: false, journalFile: path },
          env: { PLANTS_TEST_JOURNAL_PIPE_STALL_MS: '100' },
        }),
      ),
    ).rejects.toMatchObject({
      name: 'JournalError',
      message: `cannot write the deletion journal ${path}: the process reading this pipe took nothing for 0.1 seconds (has it stopped?); nothing was deleted; name a writable --journal-file, or leave it out`,
    });
  });

  it('anything but a positive integer leaves the minute: a reader that is slow to take the start record loses nothing', async () => {
    for (const value of ['0', ' 1', '1 ']) {
      const { path, reader } = fullPipe();
      // The reader takes what the pipe holds a few milliseconds at a time.
      const reading = setInterval(() => drain(reader), 10);
      try {
        const journal = await openDeletionJournal(
          opening({
            choice: { journal: false, journalFile: path },
            env: { PLANTS_TEST_JOURNAL_PIPE_STALL_MS: value },
          }),
        );
        journal!.close();
      } finally {
        clearInterval(reading);
      }
    }
  });
});

describe('PLANTS_TEST_JOURNAL_PAUSE', () => {
  it('holds the run at the point named until the file is there, after saying so with <file>.reached', async () => {
    const dir = tempDir();
    const file = join(dir, 'go');
    // Another process lets the run go on once it has reached the point.
    const helper = spawn('sh', ['-c', 'while [ ! -e "$1.reached" ]; do sleep 0.01; done; : > "$1"', 'sh', file]);
    const journal = await openDeletionJournal(
      opening({ env: { PLANTS_STATE_DIR: join(dir, 'state'), PLANTS_TEST_JOURNAL_PAUSE: `writer-opened:${file}` } }),
    );
    journal!.close();
    await once(helper, 'exit');
    expect(existsSync(`${file}.reached`)).toBe(true);
    expect(events(join(dir, 'state', 'deletions.jsonl'))).toHaveLength(1);
  });

  it('does not hold the run when the file is there already, at another point, or when the setting is malformed', async () => {
    const dir = tempDir();
    const file = join(dir, 'go');
    writeFileSync(file, '');
    for (const pause of [`writer-opened:${file}`, `marks-read:${join(dir, 'never')}`, 'writer-opened', `:${file}`]) {
      const journal = await openDeletionJournal(
        opening({ env: { PLANTS_STATE_DIR: join(dir, 'state'), PLANTS_TEST_JOURNAL_PAUSE: pause } }),
      );
      journal!.close();
    }
    expect(readdirSync(dir).filter((name) => name.endsWith('.reached'))).toEqual([]);
  });
});

describe('openDeletionJournal', () => {
  it('records to the state directory and the --journal-file, and says nothing of a directory that is fine', async () => {
    const dir = tempDir();
    const warn = vi.fn();
    const info = vi.fn();
    const journal = await openDeletionJournal(
      opening({
        choice: { journal: true, journalFile: join(dir, 'run.jsonl') },
        env: { PLANTS_STATE_DIR: join(dir, 'state') },
        warn,
        info,
      }),
    );
    journal!.close();
    expect(journal!.paths).toEqual([join(dir, 'state', 'deletions.jsonl'), join(dir, 'run.jsonl')]);
    expect(events(join(dir, 'run.jsonl'))).toEqual([
      expect.objectContaining({ event: 'start', base_url: 'http://127.0.0.1:1/api', plants: 2 }),
    ]);
    expect(events(join(dir, 'state', 'deletions.jsonl'))).toHaveLength(1);
    expect(warn).not.toHaveBeenCalled();
    expect(info).not.toHaveBeenCalled();
  });

  it("refuses a pipe that could not take a target's records whole, naming the plant", async () => {
    const path = join(tempDir(), 'journal.fifo');
    runCommand('mkfifo', [path]);
    fds.push(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
    const id = 'x'.repeat(5000);
    await expect(
      openDeletionJournal(
        opening({
          choice: { journal: false, journalFile: path },
          targets: [{ id: '1' }, { id, plant: { id: 2, name: 'Fern' } }],
        }),
      ),
    ).rejects.toThrow(/^cannot write the deletion journal .*: the records of plant x{39}… would be \d+ bytes/);
  });

  it("counts a target's name and tag in what a pipe must take whole", async () => {
    const records = new RunRecords({
      run: '00000000-0000-4000-8000-000000000000',
      command: 'delete',
      profile: 'default',
      baseUrl: 'http://127.0.0.1:1/api',
    });
    const bytes = (plant: { id: string; name?: string; tag?: string }) =>
      Buffer.byteLength(
        records.outcome(
          plant,
          { id: plant.id, result: 'not_found', request_id: '00000000-0000-4000-8000-000000000000', status: 404 },
          999,
        ),
      );
    const named = { name: 'n'.repeat(100), tag: 't'.repeat(100) };
    const id = 'i'.repeat(4097 - bytes({ id: '', ...named }));
    expect(bytes({ id, ...named })).toBe(4097);
    const path = join(tempDir(), 'journal.fifo');
    runCommand('mkfifo', [path]);
    fds.push(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
    await expect(
      openDeletionJournal(
        opening({
          choice: { journal: false, journalFile: path },
          targets: [{ id, plant: { id: 1, ...named } }],
        }),
      ),
    ).rejects.toThrow(/ would be 4097 bytes, more than a pipe takes whole/);
    for (const plant of [
      { id: 1, name: named.name },
      { id: 1, name: '', tag: named.tag },
    ]) {
      const journal = await openDeletionJournal(
        opening({ choice: { journal: false, journalFile: path }, targets: [{ id, plant }] }),
      );
      journal!.close();
    }
  });

  it('lets go of a pipe once the journal has it: closed, the reader sees its end', async () => {
    const fifoDir = tempDir();
    const path = join(fifoDir, 'journal.fifo');
    runCommand('mkfifo', [path]);
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    fds.push(reader);
    const journal = await openDeletionJournal(opening({ choice: { journal: false, journalFile: path } }));
    journal!.close();
    const buffer = Buffer.alloc(65536);
    expect(JSON.parse(buffer.subarray(0, readSync(reader, buffer)).toString())).toMatchObject({ event: 'start' });
    expect(readSync(reader, buffer)).toBe(0);
    // Refused after the pipe had its reader: let go all the same.
    writeFileSync(join(fifoDir, 'not-a-journal'), 'x\n');
    await expect(
      openDeletionJournal(
        opening({
          choice: { journal: true, journalFile: path },
          env: { PLANTS_STATE_DIR: join(fifoDir, 'not-a-journal') },
        }),
      ),
    ).rejects.toThrow(/^cannot make the directory of the deletion journal/);
    expect(readSync(reader, buffer)).toBe(0);
  });

  it('checks as it would open: a --journal-file with the journal off', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{}\n');
    expect(() => checkDeletionJournal({ journal: false, journalFile: join(dir, 'config.json') }, {})).toThrow(
      /config\.json is not a deletion journal/,
    );
    expect(() =>
      checkDeletionJournal({ journal: true }, { PLANTS_STATE_DIR: join(dir, 'config.json', 'state') }),
    ).toThrow(/^cannot make the directory of the deletion journal/);
  });
});

describe('recordSkippedNow and what a run stopped by its journal says', () => {
  it('records the targets never sent as skipped, at once', async () => {
    const dir = tempDir();
    const journal = (await openDeletionJournal(opening({ env: { PLANTS_STATE_DIR: dir } })))!;
    const targets = [{ id: '1' }, { id: '2', plant: { id: 2, name: 'Moss', tag: 'green' } }, { id: '3' }];
    expect(recordSkippedNow(journal, targets, [outcome('1', 'deleted')])).toBeUndefined();
    const outcomes = [outcome('1', 'skipped'), outcome('2', 'skipped', false), outcome('3', 'deleted')];
    expect(recordSkippedNow(journal, targets, outcomes)).toBeUndefined();
    journal.close();
    const skipped = events(join(dir, 'deletions.jsonl')).filter((r) => r.result === 'skipped');
    expect(skipped.map((r) => [r.id, r.name, r.tag])).toEqual([['2', 'Moss', 'green']]);
  });

  it('a write of the skipped that fails: what is on record, and where to look', async () => {
    const targets = [{ id: '1' }, { id: '2' }];
    const outcomes = [outcome('1', 'skipped', false), outcome('2', 'skipped', false)];
    const later = (path: string, run: string, reason: string) =>
      `cannot write the deletion journal ${path}: ${reason}; 0 of the 2 never sent are on record as skipped there: plants history ${run} --result skipped lists only those`;
    for (const now of [true, false]) {
      const path = join(tempDir(), 'journal.fifo');
      runCommand('mkfifo', [path]);
      fds.push(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
      const journal = (await openDeletionJournal(
        opening({
          choice: { journal: false, journalFile: path },
          env: { PLANTS_TEST_JOURNAL_PIPE_STALL_MS: '50' },
        }),
      ))!;
      // The reader takes nothing more.
      const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      fds.push(writer);
      fill(writer);
      const said = now ? recordSkippedNow(journal, targets, outcomes) : await recordSkipped(journal, targets, outcomes);
      expect(said).toBe(
        later(
          path,
          journal.run,
          now
            ? 'the process reading this pipe was not taking records when the run was stopped'
            : 'the process reading this pipe took nothing for 0.05 seconds (has it stopped?)',
        ),
      );
      expect(journal.healthyPaths).toEqual([]);
      expect((journalStopped(new JournalError('x'), outcomes, journal, undefined) as Error).message).toBe(
        `x; no further DELETE was sent: 0 deleted, 2 not sent (not on record as skipped: plants history ${journal.run} lists only those sent)`,
      );
      journal.close();
    }
  });

  it('names the outcomes not on record', async () => {
    const dir = tempDir();
    const journal = (await openDeletionJournal(opening({ env: { PLANTS_STATE_DIR: dir } })))!;
    await journal.intent({ id: '1' }, 'r-1');
    await journal.intent({ id: '2' }, 'r-2');
    journal.close();
    const outcomes = [outcome('1', 'failed'), outcome('2', 'unknown')];
    expect((journalStopped(new JournalError('x'), outcomes, journal, undefined) as Error).message).toBe(
      'x; no further DELETE was sent: 0 deleted, 2 not deleted or unknown (see the results), 0 not sent, the outcome of 2 not recorded (their intent is: they read as unknown)',
    );
  });
});
