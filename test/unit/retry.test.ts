import { describe, expect, it } from 'vitest';
import { backoffMs, MAX_WAIT_MS, retryAfterMs, waitText } from '../../src/http/retry.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');

  it('reads the first of repeated headers', () => {
    expect(retryAfterMs(['2', '9'], now)).toBe(2000);
  });

  it('reads delay-seconds', () => {
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs(' 3 ', now)).toBe(3000);
  });

  it('reads an HTTP date, never negative', () => {
    expect(retryAfterMs('Sat, 21 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('gives what the service asks, however long: the caller decides whether to wait', () => {
    expect(retryAfterMs('3600', now)).toBe(3_600_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:00:00 GMT', now)).toBe(86_400_000);
    expect(MAX_WAIT_MS).toBe(30_000);
  });

  it('ignores what it cannot read', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs('  ', now)).toBeUndefined();
    expect(retryAfterMs('5 minutes', now)).toBeUndefined();
    expect(retryAfterMs('1.5', now)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles per retry, with jitter between half and all of the step', () => {
    expect(backoffMs(1, () => 0)).toBe(250);
    expect(backoffMs(1, () => 1)).toBe(500);
    expect(backoffMs(2, () => 0)).toBe(500);
    expect(backoffMs(3, () => 1)).toBe(2000);
  });

  it('never waits more than 30 s', () => {
    expect(backoffMs(20, () => 1)).toBe(MAX_WAIT_MS);
  });
});

describe('waitText', () => {
  const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

  it('says whole seconds, rounded up: never a wait shorter than asked', () => {
    expect(waitText(0)).toBe('0 s');
    expect(waitText(1)).toBe('1 s');
    expect(waitText(1000)).toBe('1 s');
    expect(waitText(1001)).toBe('2 s');
    expect(waitText(3_599_400)).toBe('3600 s');
  });

  it('a year is said in seconds; past it, "more than a year"', () => {
    expect(waitText(YEAR_MS)).toBe('31536000 s');
    expect(waitText(YEAR_MS + 1)).toBe('more than a year');
    expect(waitText(1e23)).toBe('more than a year');
    expect(waitText(Infinity)).toBe('more than a year');
  });
});
