import { describe, expect, it } from 'vitest';
import { collect, examples, parseColumns, parseOutputFormat } from '../../src/commands/options.js';
import { UsageError } from '../../src/shared/errors.js';
import {
  capOf,
  formatMaxDeletes,
  parseConcurrency,
  parseMaxDeletes,
  parseSince,
  parseSize,
} from '../../src/shared/values.js';

/** The flag values below are what a user types; each parser accepts or refuses them before any request. */

describe('--max-response-size', () => {
  it.each([
    ['1', 1],
    ['512', 512],
    ['10b', 10],
    ['512K', 512 * 1024],
    ['512k', 512 * 1024],
    ['2KiB', 2048],
    ['64MiB', 64 * 1024 ** 2],
    ['3m', 3 * 1024 ** 2],
    ['1G', 1024 ** 3],
    ['2gib', 2 * 1024 ** 3],
    ['256 MiB', 256 * 1024 ** 2],
    ['  16K  ', 16 * 1024],
  ])('accepts %j as %d bytes', (raw, bytes) => {
    expect(parseSize(raw)).toBe(bytes);
  });

  it.each(['', '0', '0K', 'K', 'MiB', '-1', '1.5M', '1T', '1 2', 'x1', '1Kx', '1 K B', '9999999999999G', 'abc'])(
    'refuses %j',
    (raw) => {
      expect(() => parseSize(raw)).toThrow(UsageError);
      expect(() => parseSize(raw)).toThrow(/^invalid --max-response-size /);
    },
  );
});

describe('--concurrency', () => {
  it.each([
    ['1', 1],
    ['2', 2],
    ['8', 8],
    [' 64 ', 64],
  ])('accepts %j as %d', (raw, n) => {
    expect(parseConcurrency(raw)).toBe(n);
  });

  it.each(['0', '65', '-1', '1.5', 'x', '', '1x', 'x1', '2 4'])('refuses %j', (raw) => {
    expect(() => parseConcurrency(raw)).toThrow(/^invalid --concurrency /);
  });
});

describe('--max-deletes', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['20', 20],
    [' 100 ', 100],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('accepts %j as %d', (raw, n) => {
    expect(parseMaxDeletes(raw)).toBe(n);
  });

  it.each([
    '-1',
    '1.5',
    'x',
    '',
    '1x',
    'x1',
    '9007199254740992',
    '1e3',
    '101%',
    '100.1%',
    '-1%',
    '%',
    '10 %',
    '1e1%',
    '.5%',
    '10%x',
    '10%%',
    '1000%',
    '10.%',
  ])('refuses %j', (raw) => {
    expect(() => parseMaxDeletes(raw)).toThrow(/^invalid --max-deletes /);
  });

  it.each([
    ['10%', 10],
    ['2.5%', 2.5],
    ['0%', 0],
    ['100%', 100],
    [' 50% ', 50],
  ])('accepts %j as %d percent', (raw, percent) => {
    expect(parseMaxDeletes(raw)).toEqual({ percent });
  });

  // A percentage is of the plants listed, rounded down: "at most", never one more.
  it.each([
    [10, 15, 1],
    [10, 10, 1],
    [10, 9, 0],
    [100, 7, 7],
    [0, 1000, 0],
    [50, 3, 1],
    [2.5, 40, 1],
    [30, 10, 3],
    [70, 10, 7],
    [33.3, 3, 0],
    [10, 0, 0],
  ])('%d%% of %d plants is a cap of %d', (percent, listed, cap) => {
    expect(capOf({ percent }, listed)).toBe(cap);
  });

  // Exactly: neither a float's error (2.3 * 1000 is 2299.9999999999995) nor a tolerance for it adds one.
  it.each([
    ['2.3%', 1000, 23],
    ['0.7%', 1000, 7],
    ['33.3333333333%', 3, 0],
    ['99.9999999999%', 1, 0],
    ['33.33333333333333333333%', 3, 0],
    ['99.99999999999999999999%', 100, 99],
    ['12.5%', 8, 1],
    ['100%', 2147483647, 2147483647],
    ['0.000000001%', 100_000_000_000, 1],
    // The 10th decimal is dropped, not kept: 0.000000001% of 10^12 plants is 10, not 19.
    ['0.0000000019%', 1_000_000_000_000, 10],
    // 0.067 * 10^9 is 67000000.00000001 and 8.2 * 10^9 is 8199999999.999999 in floating point: neither is one off.
    ['0.067%', 100_000_000_000, 67_000_000],
    ['8.2%', 100_000_000_000, 8_200_000_000],
  ])('%s of %d plants is a cap of %d', (raw, listed, cap) => {
    expect(capOf(parseMaxDeletes(raw), listed)).toBe(cap);
  });

  it.each(['100.0000000001%', '100.00000000000000000001%'])('refuses %j, past 100%', (raw) => {
    expect(() => parseMaxDeletes(raw)).toThrow(/^invalid --max-deletes /);
  });

  it('a number is the cap whatever was listed', () => {
    expect(capOf(5, 1000)).toBe(5);
  });

  // As config set stores it: written so that it reads back the same, never as 1e-7%.
  it.each([
    ['0.0000001%', '0.0000001%'],
    ['0.000000001%', '0.000000001%'],
    ['0.00000123%', '0.00000123%'],
    ['2.50%', '2.5%'],
    ['100.000%', '100%'],
    ['0%', '0%'],
    ['007', '7'],
  ])('%j is written %j, and reads back as the same cap', (raw, written) => {
    expect(formatMaxDeletes(parseMaxDeletes(raw))).toBe(written);
    expect(parseMaxDeletes(written)).toEqual(parseMaxDeletes(raw));
  });
});

describe('-o, --output', () => {
  it.each([
    ['json', 'json'],
    ['CSV', 'csv'],
    [' ndjson ', 'ndjson'],
    ['Table', 'table'],
  ])('accepts %j as %s', (raw, format) => {
    expect(parseOutputFormat(raw)).toBe(format);
  });

  it('refuses anything else, listing the formats', () => {
    expect(() => parseOutputFormat('yaml')).toThrow(
      new UsageError('invalid --output "yaml": expected one of table, json, ndjson, tsv, csv'),
    );
  });
});

describe('--columns', () => {
  it('splits at commas and trims each field', () => {
    expect(parseColumns('id, name ,extra.height')).toEqual(['id', 'name', 'extra.height']);
    expect(parseColumns('tag')).toEqual(['tag']);
  });

  it.each(['', ' ', 'id,', ',id', 'id,,name', 'id, ,name', 'extra.', '.height', 'extra..height'])(
    'refuses %j: an empty field or path part',
    (raw) => {
      expect(() => parseColumns(raw)).toThrow(
        new UsageError(
          `invalid --columns ${JSON.stringify(raw)}: expected field names separated by commas, such as id,name,tag,extra.height`,
        ),
      );
    },
  );
});

describe('repeatable flags and help', () => {
  it('--tag collects every value in order', () => {
    expect(collect('a', undefined)).toEqual(['a']);
    expect(collect('b', ['a'])).toEqual(['a', 'b']);
  });

  it('examples are one indented invocation a line', () => {
    expect(examples('plants list', 'plants list --json')).toBe('\nExamples:\n  plants list\n  plants list --json\n');
  });
});

describe('--since (history)', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it.each([
    ['30m', '2026-11-25T11:30:00.000Z'],
    ['24h', '2026-11-24T12:00:00.000Z'],
    ['7d', '2026-11-18T12:00:00.000Z'],
    ['2W', '2026-11-11T12:00:00.000Z'],
    [' 90s ', '2026-11-25T11:58:30.000Z'],
    ['0h', '2026-11-25T12:00:00.000Z'],
    ['2026-11-24', '2026-11-24T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2026-11-24T18:00:00Z', '2026-11-24T18:00:00.000Z'],
    ['2026-11-24T18:00+01:00', '2026-11-24T17:00:00.000Z'],
    ['2026-11-24t18:00:00.5z', '2026-11-24T18:00:00.500Z'],
  ])('%j is %s', (raw, instant) => {
    expect(new Date(parseSince(raw, now)).toISOString()).toBe(instant);
  });

  it.each([
    '',
    'yesterday',
    '7',
    '-7d',
    '7 days',
    '1y',
    '2026-02-30',
    '2026-13-01',
    '2026-11-24T18:00',
    '24/11/2026',
    '2026-11-24T25:00Z',
  ])('%j is refused, naming what it takes', (raw) => {
    expect(() => parseSince(raw, now)).toThrow(UsageError);
    expect(() => parseSince(raw, now)).toThrow(
      /expected a duration such as 30m, 24h or 7d, or a date such as 2026-11-24/,
    );
  });
});
