import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkDeletionJournal,
  journalOnByEnv,
  journalStopped,
  openDeletionJournal,
  recordSkipped,
  recorderFor,
} from '../../src/deletion/journal/choice.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';
import { JournalError } from '../../src/shared/errors.js';
import { journalFixtures } from '../helpers/journal-fixtures.js';
import { tempFiles } from '../helpers/temp-files.js';

// Where a run records what it sends, chosen from its flags and environment, on data alone.

const { tempDir } = tempFiles('plants-journal-choice-');
afterEach(() => forgetSecrets());
const { opening, events, outcome } = journalFixtures(tempDir);

describe('journalOnByEnv', () => {
  it('is on unless PLANTS_JOURNAL says off', () => {
    expect(journalOnByEnv({})).toBe(true);
    expect(journalOnByEnv({ PLANTS_JOURNAL: 'on' })).toBe(true);
    expect(journalOnByEnv({ PLANTS_JOURNAL: 'off' })).toBe(false);
  });
});

describe('checkDeletionJournal', () => {
  it('checks nothing when no journal is kept', () => {
    const file = join(tempDir(), 'state');
    writeFileSync(file, '');
    expect(() => checkDeletionJournal({ journal: false }, { PLANTS_STATE_DIR: file })).not.toThrow();
    expect(() =>
      checkDeletionJournal({ journal: true }, { PLANTS_STATE_DIR: file, PLANTS_JOURNAL: 'off' }),
    ).not.toThrow();
  });

  it('refuses a state directory that cannot be made', () => {
    const file = join(tempDir(), 'state');
    writeFileSync(file, '');
    expect(() => checkDeletionJournal({ journal: true }, { PLANTS_STATE_DIR: file })).toThrow(JournalError);
  });
});

describe('openDeletionJournal', () => {
  it('keeps no journal, and asks nothing, with --no-journal and no --journal-file', async () => {
    const where = vi.fn();
    expect(await openDeletionJournal(opening({ choice: { journal: false }, where }))).toBeUndefined();
    expect(
      await openDeletionJournal(opening({ env: { PLANTS_JOURNAL: 'off', PLANTS_STATE_DIR: tempDir() }, where })),
    ).toBeUndefined();
    expect(where).not.toHaveBeenCalled();
  });

  it("records the run's start in the state directory: command, profile, base URL (a token in it masked), plants", async () => {
    const dir = tempDir();
    registerSecret('tok-0123456789abcdef');
    const journal = await openDeletionJournal(
      opening({
        env: { PLANTS_STATE_DIR: dir },
        choice: { journal: true, includeProtected: true },
        where: () =>
          Promise.resolve({ profile: 'prod', baseUrl: new URL('https://user:pw@h.example/tok-0123456789abcdef/') }),
      }),
    );
    journal!.close();
    const [start] = events(join(dir, 'deletions.jsonl'));
    expect(start).toMatchObject({
      v: 1,
      event: 'start',
      command: 'delete',
      profile: 'prod',
      plants: 2,
      include_protected: true,
    });
    expect(String(start!.base_url)).not.toMatch(/tok-|pw/);
    expect(start!.run).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes only to --journal-file with --no-journal; no include_protected unless asked', async () => {
    const dir = tempDir();
    const extra = join(dir, 'run.jsonl');
    const journal = await openDeletionJournal(
      opening({ choice: { journal: false, journalFile: extra }, env: { PLANTS_STATE_DIR: join(dir, 'state') } }),
    );
    journal!.close();
    expect(journal!.paths).toEqual([extra]);
    const [start] = events(extra);
    expect(start).not.toHaveProperty('include_protected');
  });

  it('warns of a state directory others may write to', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const warn = vi.fn();
    const journal = await openDeletionJournal(opening({ env: { PLANTS_STATE_DIR: dir }, warn }));
    journal!.close();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain(dir);
  });
});

describe('recording a run', () => {
  async function journalIn(dir: string) {
    return (await openDeletionJournal(opening({ env: { PLANTS_STATE_DIR: dir } })))!;
  }

  it('records each target by its index, with the name and tag the run knows', async () => {
    const dir = tempDir();
    const journal = await journalIn(dir);
    const targets = [{ id: '1', plant: { id: 1, name: 'Fern', tag: 'green' } }, { id: '2' }];
    const recorder = recorderFor(journal, targets);
    await recorder.intent(0, 'r-1');
    await recorder.outcomeThenIntent!(0, { ...outcome('1', 'deleted'), attempts: 2 }, 1, 'r-2');
    await recorder.outcome(1, outcome('2', 'failed'));
    journal.close();
    const records = events(join(dir, 'deletions.jsonl')).slice(1);
    expect(
      records.map(({ event, id, name, tag, request_id, attempts }) => [event, id, name, tag, request_id, attempts]),
    ).toEqual([
      ['intent', '1', 'Fern', 'green', 'r-1', undefined],
      ['outcome', '1', 'Fern', 'green', 'r-1', 2],
      ['intent', '2', undefined, undefined, 'r-2', undefined],
      ['outcome', '2', undefined, undefined, 'r-2', null],
    ]);
  });

  it('records the targets never sent as skipped; nothing when every one was sent', async () => {
    const dir = tempDir();
    const journal = await journalIn(dir);
    const targets = [{ id: '1' }, { id: '2', plant: { id: 2, name: 'Moss' } }, { id: '3' }];
    expect(await recordSkipped(journal, targets, [outcome('1', 'deleted')])).toBeUndefined();
    const outcomes = [outcome('1', 'deleted'), outcome('2', 'skipped', false), outcome('3', 'skipped', false)];
    expect(await recordSkipped(journal, targets, outcomes)).toBeUndefined();
    journal.close();
    const skipped = events(join(dir, 'deletions.jsonl')).filter((r) => r.result === 'skipped');
    expect(skipped.map((r) => [r.id, r.name ?? null])).toEqual([
      ['2', 'Moss'],
      ['3', null],
    ]);
  });
});

describe('journalStopped', () => {
  it('passes on what is no journal failure', async () => {
    const journal = (await openDeletionJournal(opening()))!;
    journal.close();
    const other = new Error('other');
    expect(journalStopped(other, [], journal, undefined)).toBe(other);
  });

  it('says what was deleted, what was not, and what was not sent and where it is on record', async () => {
    const journal = (await openDeletionJournal(opening()))!;
    journal.close();
    const outcomes = [
      outcome('1', 'deleted'),
      outcome('2', 'gone'),
      outcome('3', 'failed'),
      outcome('4', 'skipped', false),
    ];
    const stopped = journalStopped(new JournalError('cannot write the journal'), outcomes, journal, undefined);
    expect(stopped).toBeInstanceOf(JournalError);
    expect((stopped as Error).message).toBe(
      `cannot write the journal; no further DELETE was sent: 2 deleted, 1 not deleted or unknown (see the results), 1 not sent (on record as skipped in ${journal.paths[0]} only)`,
    );
    const allSent = journalStopped(new JournalError('x'), [outcome('1', 'deleted')], journal, undefined);
    expect((allSent as Error).message).toBe('x; no further DELETE was sent: 1 deleted, 0 not sent');
    const unrecorded = journalStopped(new JournalError('x'), [outcome('1', 'skipped', false)], journal, 'full');
    expect((unrecorded as Error).message).toBe(
      `x; no further DELETE was sent: 0 deleted, 1 not sent (not on record as skipped: plants history ${journal.run} lists only those sent)`,
    );
  });
});
