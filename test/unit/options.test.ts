import { describe, expect, it } from 'vitest';
import { parseLimit, parsePlantId } from '../../src/commands/options.js';
import { UsageError } from '../../src/errors.js';

describe('parseLimit', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['20', 20],
    ['007', 7],
    [' 5 ', 5],
    ['2147483647', 2147483647],
  ])('accepts %j as %d', (raw, expected) => {
    expect(parseLimit(raw)).toBe(expected);
  });

  it.each([
    '',
    ' ',
    '-1',
    '+1',
    '1.5',
    '1e3',
    '0x10',
    'abc',
    '2147483648',
    '99999999999999999999',
    'NaN',
    'Infinity',
    '1 2',
  ])('rejects %j with a usage error naming the range', (raw) => {
    expect(() => parseLimit(raw)).toThrow(UsageError);
    expect(() => parseLimit(raw)).toThrow(/--limit .*whole number from 0 to 2147483647/);
  });
});

describe('parsePlantId', () => {
  it('keeps any non-empty text as it is', () => {
    for (const id of ['42', 'a/b?c', ' padded ', '..', '🌱']) expect(parsePlantId(id)).toBe(id);
  });

  it('rejects the empty id', () => {
    expect(() => parsePlantId('')).toThrow(/must not be empty/);
  });
});
