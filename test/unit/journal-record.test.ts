import { describe, expect, it } from 'vitest';
import { parseRecord } from '../../src/deletion/journal/record.js';

// A journal line as a record, or not one: field by field.

const SHARED = { v: 1, run: 'r', time: '2026-11-29T06:11:00.123Z', command: 'delete', profile: 'p', base_url: 'u' };
const start = { ...SHARED, event: 'start', plants: 2 };
const intent = { ...SHARED, event: 'intent', id: '1', name: 'Fern', tag: 't', request_id: 'q' };
const outcome = { ...intent, event: 'outcome', result: 'deleted', status: 204, attempts: 1 };
const text = (value: unknown) => JSON.stringify(value);

describe('parseRecord', () => {
  it('takes each event as plants writes it', () => {
    for (const record of [start, intent, outcome]) expect(parseRecord(text(record))).toEqual(record);
    for (const result of ['deleted', 'gone', 'not_found', 'unknown', 'failed', 'skipped']) {
      expect(parseRecord(text({ ...outcome, result }))).toMatchObject({ result });
    }
  });

  it('takes the optional fields missing or null', () => {
    const bare = { ...SHARED, event: 'outcome', id: '1', result: 'skipped' };
    expect(parseRecord(text(bare))).toEqual(bare);
    const nulls = { ...bare, name: null, tag: null, request_id: null, status: null, attempts: null, plants: null };
    expect(parseRecord(text(nulls))).toEqual(nulls);
    expect(parseRecord(text({ ...SHARED, event: 'start' }))).toEqual({ ...SHARED, event: 'start' });
  });

  it('is no record: not JSON, not an object', () => {
    for (const line of ['', '{', 'null', '[]', '[1]', '"text"', '7', 'true']) expect(parseRecord(line)).toBeUndefined();
  });

  it('is no record: an event plants never writes, or a shared field that is not text', () => {
    expect(parseRecord(text({ ...start, event: 'stop' }))).toBeUndefined();
    expect(parseRecord(text({ ...start, event: undefined }))).toBeUndefined();
    for (const key of ['run', 'time', 'command', 'profile', 'base_url']) {
      expect(parseRecord(text({ ...start, [key]: 1 }))).toBeUndefined();
      expect(parseRecord(text({ ...start, [key]: undefined }))).toBeUndefined();
    }
  });

  it('is no record: an optional field of the wrong type', () => {
    for (const [key, value] of [
      ['name', 1],
      ['name', {}],
      ['tag', 1],
      ['request_id', 1],
      ['status', '204'],
      ['attempts', '1'],
      ['plants', '2'],
    ] as const) {
      expect(parseRecord(text({ ...outcome, [key]: value }))).toBeUndefined();
    }
  });

  it('is no record: an intent or outcome without a text id; an outcome without a result plants writes', () => {
    expect(parseRecord(text({ ...intent, id: undefined }))).toBeUndefined();
    expect(parseRecord(text({ ...intent, id: 1 }))).toBeUndefined();
    expect(parseRecord(text({ ...outcome, id: undefined }))).toBeUndefined();
    expect(parseRecord(text({ ...start, id: undefined }))).toEqual(start);
    expect(parseRecord(text({ ...outcome, result: 'would_delete' }))).toBeUndefined();
    expect(parseRecord(text({ ...outcome, result: undefined }))).toBeUndefined();
    // An intent has no result to check.
    expect(parseRecord(text({ ...intent, result: 'whatever' }))).toMatchObject({ event: 'intent' });
  });
});
