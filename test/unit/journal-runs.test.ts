import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../src/deletion/journal/record.js';
import { RECORDED_RESULTS, RunCollector } from '../../src/deletion/journal/runs.js';

// RunCollector: the runs of a journal as plants history shows them, from records in the order they were read.

const RUN = { command: 'delete', profile: 'default', base_url: 'http://127.0.0.1:1' };

function start(run: string, time: string, plants?: number): JournalRecord {
  return { event: 'start', run, time, ...RUN, ...(plants === undefined ? {} : { plants }) };
}

function intent(run: string, id: string, requestId: string | null, extra: Partial<JournalRecord> = {}): JournalRecord {
  return { event: 'intent', run, time: '2026-11-25T10:00:01.000Z', ...RUN, id, request_id: requestId, ...extra };
}

function outcome(
  run: string,
  id: string,
  requestId: string | null,
  result: JournalRecord['result'],
  extra: Partial<JournalRecord> = {},
): JournalRecord {
  return {
    event: 'outcome',
    run,
    time: '2026-11-25T10:00:02.000Z',
    ...RUN,
    id,
    request_id: requestId,
    result,
    ...extra,
  };
}

const zero = { deleted: 0, gone: 0, not_found: 0, unknown: 0, failed: 0, skipped: 0 };

function collect(records: JournalRecord[], options?: ConstructorParameters<typeof RunCollector>[0]) {
  const collector = new RunCollector(options);
  for (const record of records) collector.add(record);
  return collector.runs();
}

describe('RunCollector', () => {
  it('names the results in the order counts are shown', () => {
    expect(RECORDED_RESULTS).toEqual(['deleted', 'gone', 'not_found', 'unknown', 'failed', 'skipped']);
  });

  it('has no runs before a record', () => {
    expect(new RunCollector().runs()).toEqual([]);
  });

  it('sums a run up from its start, intents and outcomes: each plant counted once, by its last word', () => {
    const [run] = collect([
      start('a', '2026-11-25T10:00:00.000Z', 3),
      intent('a', '1', 'r1'),
      outcome('a', '1', 'r1', 'deleted', { status: 204, attempts: 1 }),
      intent('a', '2', 'r2'),
      outcome('a', '2', 'r2', 'not_found', { status: 404, attempts: 2 }),
      intent('a', '3', 'r3'),
      outcome('a', '3', 'r3', 'failed', { status: 500, attempts: 3 }),
    ]);
    expect(run).toEqual({
      run: 'a',
      time: '2026-11-25T10:00:00.000Z',
      ...RUN,
      planned: 3,
      counts: { ...zero, deleted: 1, not_found: 1, failed: 1 },
      recorded: 3,
      hasId: false,
      plants: undefined,
    });
  });

  it('counts an intent whose outcome never came as unknown', () => {
    const [run] = collect([start('a', 't0', 2), intent('a', '1', 'r1'), intent('a', '2', 'r2')]);
    expect(run!.counts).toEqual({ ...zero, unknown: 2 });
    expect(run!.recorded).toBe(2);
    expect(run!.planned).toBe(2);
  });

  it('counts an intent without a request id as unknown: no outcome can match it', () => {
    const [run] = collect([start('a', 't0', 1), intent('a', '1', null), outcome('a', '1', null, 'deleted')]);
    // The outcome has no intent to match either: a second plant on record.
    expect(run!.counts).toEqual({ ...zero, unknown: 1, deleted: 1 });
    expect(run!.recorded).toBe(2);
    expect(run!.planned).toBe(2);
  });

  it('counts an outcome with no intent before it (skipped, or its intent lost) as a plant on record', () => {
    const [run] = collect([
      start('a', 't0', 2),
      outcome('a', '1', null, 'skipped'),
      outcome('a', '2', 'lost', 'deleted'),
    ]);
    expect(run!.counts).toEqual({ ...zero, skipped: 1, deleted: 1 });
    expect(run!.recorded).toBe(2);
  });

  it('counts plants the start names but no record does as unknown, and plans at least what is on record', () => {
    const [fewer] = collect([start('a', 't0', 5), intent('a', '1', 'r1'), outcome('a', '1', 'r1', 'deleted')]);
    expect(fewer!.planned).toBe(5);
    expect(fewer!.recorded).toBe(1);
    expect(fewer!.counts).toEqual({ ...zero, deleted: 1, unknown: 4 });
    const [more] = collect([
      start('b', 't0', 1),
      outcome('b', '1', null, 'skipped'),
      outcome('b', '2', null, 'skipped'),
    ]);
    expect(more!.planned).toBe(2);
    expect(more!.counts).toEqual({ ...zero, skipped: 2 });
  });

  it('reads a start record without a count (or a count that is not a number) as none', () => {
    const [run] = collect([{ ...start('a', 't0'), plants: 'x' as unknown as number }]);
    expect(run!.planned).toBe(0);
    expect(run!.counts).toEqual(zero);
  });

  it('takes a run with no start record from its first record', () => {
    const [run] = collect([intent('a', '1', 'r1', { time: 't1' }), outcome('a', '1', 'r1', 'gone')]);
    expect(run!.time).toBe('t1');
    expect(run!.counts).toEqual({ ...zero, gone: 1 });
    expect(run!.planned).toBe(1);
  });

  it('does not count a result it does not know', () => {
    const [run] = collect([start('a', 't0', 1), intent('a', '1', 'r1'), outcome('a', '1', 'r1', 'would_delete')]);
    expect(run!.counts).toEqual(zero);
    expect(run!.recorded).toBe(1);
  });

  it('keeps the plants only of the runs asked for, in the order recorded, an outcome completing its intent', () => {
    const records = [
      start('keep', 't0', 3),
      intent('keep', '1', 'r1', { name: 'Ficus', tag: 'tree', time: 'ti1' }),
      intent('keep', '2', 'r2', { time: 'ti2' }),
      outcome('keep', '1', 'r1', 'deleted', { status: 204, attempts: 2, name: 'other', time: 'to1' }),
      outcome('keep', '3', null, 'skipped', { name: 'Fern', time: 'to3' }),
      start('drop', 't1', 1),
      intent('drop', '9', 'r9'),
    ];
    const runs = collect(records, { keepPlants: (run) => run === 'keep' });
    const keep = runs.find((run) => run.run === 'keep')!;
    expect(keep.plants).toEqual([
      // The intent's name and tag stay: the outcome only says what came of it.
      {
        id: '1',
        name: 'Ficus',
        tag: 'tree',
        result: 'deleted',
        status: 204,
        request_id: 'r1',
        attempts: 2,
        time: 'to1',
      },
      {
        id: '2',
        name: null,
        tag: null,
        result: 'unknown',
        status: null,
        request_id: 'r2',
        attempts: null,
        time: 'ti2',
      },
      {
        id: '3',
        name: 'Fern',
        tag: null,
        result: 'skipped',
        status: null,
        request_id: null,
        attempts: null,
        time: 'to3',
      },
    ]);
    expect(runs.find((run) => run.run === 'drop')!.plants).toBeUndefined();
  });

  it('an outcome with no status or attempts leaves them null on the kept plant', () => {
    const [run] = collect([intent('a', '1', 'r1', { status: 7, attempts: 7 }), outcome('a', '1', 'r1', 'unknown')], {
      keepPlants: () => true,
    });
    expect(run!.plants![0]).toMatchObject({ result: 'unknown', status: null, attempts: null });
  });

  it('says whether a run names the plant asked for, in an intent or an outcome', () => {
    const runs = collect(
      [
        start('a', 't2'),
        intent('a', '7', 'r1'),
        start('b', 't1'),
        outcome('b', '7', null, 'skipped'),
        start('c', 't0'),
        intent('c', '70', 'r2'),
      ],
      { id: '7' },
    );
    expect(runs.map((run) => [run.run, run.hasId])).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
    ]);
    // Without an id asked for, no run has it.
    expect(collect([intent('a', '7', 'r1')])[0]!.hasId).toBe(false);
  });

  it('lists the runs newest first; runs started at the same time keep the order read', () => {
    const runs = collect([
      start('old', '2026-01-01'),
      start('new', '2026-03-01'),
      start('mid', '2026-02-01'),
      start('mid2', '2026-02-01'),
    ]);
    expect(runs.map((run) => run.run)).toEqual(['new', 'mid', 'mid2', 'old']);
  });

  it('orders runs newest first whatever order they were read in', () => {
    const times = { a: '2026-01-01', b: '2026-02-01', c: '2026-03-01', d: '2026-04-01' };
    const orders = [
      ['a', 'b', 'c', 'd'],
      ['d', 'c', 'b', 'a'],
      ['b', 'd', 'a', 'c'],
      ['c', 'a', 'd', 'b'],
    ] as const;
    for (const order of orders) {
      const runs = collect(order.map((run) => start(run, times[run])));
      expect(runs.map((run) => run.run)).toEqual(['d', 'c', 'b', 'a']);
    }
    const same = collect(['x', 'y', 'z', 'w'].map((run) => start(run, '2026-05-01')));
    expect(same.map((run) => run.run)).toEqual(['x', 'y', 'z', 'w']);
  });

  it('does not change its counts when runs() is asked twice', () => {
    const collector = new RunCollector();
    for (const record of [start('a', 't0', 2), intent('a', '1', 'r1')]) collector.add(record);
    expect(collector.runs()[0]!.counts).toEqual({ ...zero, unknown: 2 });
    expect(collector.runs()[0]!.counts).toEqual({ ...zero, unknown: 2 });
  });
});
