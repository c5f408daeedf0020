import { describe, expect, it } from 'vitest';
import {
  countResults,
  deletionsMade,
  goneWarning,
  interruptedSummary,
  NAMED_AFTER_STOP,
  namedAfterStop,
  summary,
} from '../../src/deletion/run-counts.js';
import type { DeleteResult, DeleteResultKind } from '../../src/deletion/results.js';

// How a run's results are counted and named.

const result = (
  id: string,
  kind: DeleteResultKind,
  sent = kind !== 'skipped' && kind !== 'would_delete',
): DeleteResult => ({
  id,
  result: kind,
  status: null,
  request_id: sent ? `r-${id}` : null,
});

const none = { deleted: 0, gone: 0, not_found: 0, changed: 0, unknown: 0, failed: 0, skipped: 0, would_delete: 0 };

describe('countResults', () => {
  it('counts every kind, zero for those that did not occur', () => {
    expect(countResults([])).toEqual(none);
    const kinds: DeleteResultKind[] = [
      'deleted',
      'deleted',
      'gone',
      'not_found',
      'unknown',
      'failed',
      'skipped',
      'would_delete',
      'changed',
      'changed',
    ];
    expect(countResults(kinds.map((kind, i) => result(String(i), kind)))).toEqual({
      deleted: 2,
      gone: 1,
      not_found: 1,
      changed: 2,
      unknown: 1,
      failed: 1,
      skipped: 1,
      would_delete: 1,
    });
  });
});

describe('summary and interruptedSummary', () => {
  it('name deleted always, then each kind that occurred in a fixed order', () => {
    expect(summary(none)).toBe('Deleted 0');
    expect(interruptedSummary(none)).toBe('interrupted: 0 deleted');
    const counts = { ...none, deleted: 2, skipped: 3, failed: 1, not_found: 4, gone: 5, unknown: 6, would_delete: 9 };
    expect(summary(counts)).toBe('Deleted 2, gone 5, not found 4, unknown 6, failed 1, skipped 3');
    expect(interruptedSummary(counts)).toBe(
      'interrupted: 2 deleted, 5 gone, 4 not found, 6 unknown, 1 failed, 3 skipped',
    );
    expect(summary({ ...counts, changed: 7 })).toBe(
      'Deleted 2, gone 5, not found 4, changed 7, unknown 6, failed 1, skipped 3',
    );
  });
});

describe('namedAfterStop', () => {
  it('names deleted (gone among them) and unknown plants, each group only for the kinds asked', () => {
    const results = [result('1', 'deleted'), result('2', 'gone'), result('3', 'unknown'), result('4', 'failed')];
    expect(namedAfterStop(results, ['deleted', 'gone', 'unknown'])).toEqual([
      'Deleted: 1, 2',
      'Unknown (may have been deleted): 3',
    ]);
    expect(namedAfterStop(results, ['deleted'])).toEqual(['Deleted: 1']);
    expect(namedAfterStop(results, ['unknown'])).toEqual(['Unknown (may have been deleted): 3']);
    expect(namedAfterStop([result('4', 'failed')], ['deleted', 'unknown'])).toEqual([]);
  });

  it('names the first NAMED_AFTER_STOP (10), then how many more and where, when a run id is known', () => {
    expect(NAMED_AFTER_STOP).toBe(10);
    const ten = Array.from({ length: 10 }, (_, i) => result(String(i + 1), 'deleted'));
    expect(namedAfterStop(ten, ['deleted'], 'run-1')).toEqual(['Deleted: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10']);
    const eleven = [...ten, result('11', 'deleted')];
    expect(namedAfterStop(eleven, ['deleted'], 'run-1')).toEqual([
      'Deleted: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, and 1 more: plants history run-1',
    ]);
    expect(namedAfterStop(eleven, ['deleted'])).toEqual(['Deleted: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, and 1 more']);
  });

  it('quotes an id a space, comma or quote would make unclear, and escapes what does not show', () => {
    const results = ['a b', 'a,b', 'say "x"', 'tab\there', 'x\u001b[2J', 'plain-7'].map((id) => result(id, 'deleted'));
    expect(namedAfterStop(results, ['deleted'])).toEqual([
      'Deleted: "a b", "a,b", "say \\"x\\"", "tab\\there", x\\u001b[2J, plain-7',
    ]);
  });
});

describe('goneWarning', () => {
  it('says the plant most likely went with the first DELETE, its id escaped', () => {
    expect(goneWarning('7\n')).toBe(
      'plant 7\\n is gone: the answer to its DELETE was lost or a server error (500, 502, 504) and the retry found no such plant, so that DELETE most likely deleted it (or it never existed)',
    );
  });
});

describe('deletionsMade', () => {
  it('says nothing when no DELETE was sent', () => {
    expect(deletionsMade([], 'run-1')).toBeUndefined();
    expect(deletionsMade([result('1', 'skipped'), result('2', 'would_delete')], 'run-1')).toBeUndefined();
  });

  it('counts what the DELETEs came to, and where the journal lists them', () => {
    expect(deletionsMade([result('1', 'deleted')], 'run-1')).toBe(
      'the DELETE was sent (1 deleted): plants history run-1 lists it',
    );
    expect(deletionsMade([result('1', 'deleted'), result('2', 'failed'), result('3', 'skipped')], 'run-1')).toBe(
      'the DELETEs were sent (1 deleted, 1 failed, 1 skipped): plants history run-1 lists them',
    );
    expect(deletionsMade([result('1', 'not_found')], undefined)).toBe(
      'the DELETE was sent (0 deleted, 1 not found): no journal was kept',
    );
  });
});
