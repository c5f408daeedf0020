import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { parsePlantId } from '../../src/commands/options.js';
import { parseConcurrency, parseLimit, parseSize } from '../../src/shared/values.js';
import { parseMaxDeletes } from '../../src/shared/values.js';
import { parseProfileName } from '../../src/config/profile-names.js';
import { UsageError } from '../../src/shared/errors.js';
import { parseRetries, parseTimeout } from '../../src/shared/values.js';
import { fakeIO } from '../helpers/io.js';

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
    expect(() => parseLimit(raw)).toThrow(/--limit .*whole number of plants from 0 to 2147483647/);
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

describe('limits name their unit', () => {
  it.each([
    [() => parseLimit('x'), 'invalid --limit "x": expected a whole number of plants from 0 to 2147483647'],
    [() => parseConcurrency('0'), 'invalid --concurrency "0": expected a whole number of requests from 1 to 64'],
    [
      () => parseMaxDeletes('-1'),
      'invalid --max-deletes "-1": expected a whole number of plants, 0 or more, or a percentage such as 10%',
    ],
    [() => parseTimeout('0'), 'invalid --timeout "0": expected a number of seconds, more than 0 and at most 3600'],
    [() => parseRetries('11'), 'invalid --retries "11": expected a whole number of retries from 0 to 10'],
    [
      () => parseSize('1x'),
      'invalid --max-response-size "1x": expected a number of bytes, or a size such as 512K, 256MiB or 1G',
    ],
    [
      () => parseProfileName('a'.repeat(65)),
      `invalid profile name "${'a'.repeat(65)}" (--profile): use letters, digits, dot, dash or underscore, at most 64 characters`,
    ],
  ])('%#', (parse, message) => {
    expect(parse).toThrow(new UsageError(message));
  });

  it('in the help of the options that take one', async () => {
    const fake = fakeIO();
    await main(['--help'], { io: fake.io, env: {} });
    const help = fake.stdout().replace(/\s+/g, ' ');
    expect(help).toContain(
      '--timeout <seconds> seconds each attempt of a request may take (default: PLANTS_TIMEOUT, else 30)',
    );
    expect(help).toContain(
      '--max-response-size <size> refuse larger responses, in bytes or e.g. 512K, 64MiB (default: 256MiB)',
    );
  });
});
