import { UsageError } from './errors.js';

/**
 * The one home of value parsers (whole numbers in a range, sizes, durations,
 * percentages): what flags, environment variables and stored settings take,
 * parsed the same way wherever they come from.
 */

export const INT32_MAX = 2_147_483_647;

/** `--limit`: a decimal integer from 0 to 2147483647 (the interface's int32, not negative). */
export function parseLimit(raw: string): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) > INT32_MAX) {
    throw new UsageError(
      `invalid --limit ${JSON.stringify(raw)}: expected a whole number of plants from 0 to ${INT32_MAX}`,
    );
  }
  return Number(text);
}

/** `--concurrency`: requests in flight, 1 to 64. */
export function parseConcurrency(raw: string): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 64) {
    throw new UsageError(
      `invalid --concurrency ${JSON.stringify(raw)}: expected a whole number of requests from 1 to 64`,
    );
  }
  return Number(text);
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
};

/** `--max-response-size`: bytes, or with a binary unit: 512K, 256MiB, 1G. */
export function parseSize(raw: string): number {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  const bytes = match && unit ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new UsageError(
      `invalid --max-response-size ${JSON.stringify(raw)}: expected a number of bytes, or a size such as 512K, 256MiB or 1G`,
    );
  }
  return bytes;
}

/** `--timeout <seconds>`: a positive number of seconds, fractions allowed, at most an hour. */
export function parseTimeout(raw: string, source = '--timeout'): number {
  const text = raw.trim();
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(
      `invalid ${source} ${JSON.stringify(raw)}: expected a number of seconds, more than 0 and at most 3600`,
    );
  }
  return seconds;
}

/** `--retries <n>`: 0 (no retries) to 10. */
export function parseRetries(raw: string, source = '--retries'): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) > 10) {
    throw new UsageError(`invalid ${source} ${JSON.stringify(raw)}: expected a whole number of retries from 0 to 10`);
  }
  return Number(text);
}

/**
 * `TRACEPARENT`, a W3C trace context (`00-<trace-id>-<parent-id>-<flags>`),
 * to send on as `traceparent`; undefined when unset or malformed, which the
 * recommendation says to ignore rather than pass on.
 */
export function parseTraceparent(raw: string | undefined): string | undefined {
  const match = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(raw?.trim() ?? '');
  if (!match || match[1] === 'ff' || /^0+$/.test(match[2]!) || /^0+$/.test(match[3]!)) return undefined;
  return match[0];
}

/** A cap on one run's deletes: a number of plants, or a share of the plants the service listed. */
export type MaxDeletes = number | { percent: number };

/**
 * Decimals a percentage keeps: more are dropped (rounding it down), so that
 * a cap is worked out exactly (capOf) from a number that holds it exactly
 * enough: 10^9 times any percentage up to 100 is a safe integer.
 */
const PERCENT_DECIMALS = 9;
const PERCENT_SCALE = 10 ** PERCENT_DECIMALS;

/**
 * `--max-deletes <n>`: a whole number, 0 or more (0 refuses any delete), or
 * a percentage from 0% to 100% (`10%`, `2.5%`) of the plants the service
 * lists, with at most PERCENT_DECIMALS decimals (more are dropped).
 */
export function parseMaxDeletes(raw: string, source = '--max-deletes'): MaxDeletes {
  const text = raw.trim();
  const percent = /^(\d{1,3})(?:\.(\d+))?%$/.exec(text);
  if (percent) {
    const [, whole = '', fraction = ''] = percent;
    // Judged on the text as written: 100.000000000001% is past 100%, whatever a number or the dropped decimals make of it.
    if (Number(whole) < 100 || (Number(whole) === 100 && /^0*$/.test(fraction))) {
      const kept = fraction.slice(0, PERCENT_DECIMALS).replace(/0+$/, '');
      return { percent: Number(kept === '' ? whole : `${whole}.${kept}`) };
    }
  }
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(
      `invalid ${source} ${JSON.stringify(raw)}: expected a whole number of plants, 0 or more, or a percentage such as 10%`,
    );
  }
  return Number(text);
}

/**
 * The cap in plants: a percentage of `listed`, rounded down (10% of 15
 * plants is 1), never up: in integers, since floating point is not exact
 * (2.3% of 1000 would be 22.999999999999996) and a tolerance for that
 * would round 33.3333333333% of 3 plants up to 1.
 */
export function capOf(max: MaxDeletes, listed: number): number {
  if (typeof max === 'number') return max;
  const scaled = BigInt(Math.round(max.percent * PERCENT_SCALE));
  return Number((BigInt(listed) * scaled) / (100n * BigInt(PERCENT_SCALE)));
}

/**
 * A cap as the user writes it, and as the config file keeps it: `50`,
 * `10%`. Not `${percent}`: below 0.000001 that is `1e-7`, which
 * parseMaxDeletes refuses; a percentage keeps at most PERCENT_DECIMALS.
 */
export function formatMaxDeletes(max: MaxDeletes): string {
  if (typeof max === 'number') return `${max}`;
  return `${max.percent.toFixed(PERCENT_DECIMALS).replace(/\.?0+$/, '')}%`;
}

const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since`: a duration back from `now` (`30m`, `24h`, `7d`, `2w`; s, m, h,
 * d, w) or a date or time as ISO 8601 writes it (`2026-11-24`, midnight
 * UTC; `2026-11-24T18:00:00Z`; `2026-11-24T18:00+01:00`). The instant it
 * names, in milliseconds since the epoch.
 */
export function parseSince(raw: string, now = Date.now()): number {
  const text = raw.trim();
  const duration = /^(\d+)\s*([smhdw])$/i.exec(text);
  if (duration) return now - Number(duration[1]) * DURATION_UNITS[duration[2]!.toLowerCase()]!;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/i.exec(text);
  // Date.parse takes 2026-02-30 for March 2: the day must exist.
  const day = iso && new Date(Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])));
  const real = day && day.getUTCMonth() === Number(iso[2]) - 1 && day.getUTCDate() === Number(iso[3]);
  const time = real ? Date.parse(text) : NaN;
  if (Number.isNaN(time)) {
    throw new UsageError(
      `invalid --since ${JSON.stringify(raw)}: expected a duration such as 30m, 24h or 7d, or a date such as 2026-11-24 or 2026-11-24T18:00:00Z`,
    );
  }
  return time;
}

/** `--max-age`: a duration (`30m`, `24h`, `7d`; s, m, h, d, w), or 0 for no limit; in milliseconds. */
export function parseMaxAge(raw: string): number {
  const text = raw.trim();
  if (/^0+$/.test(text)) return 0;
  const duration = /^(\d+)\s*([smhdw])$/i.exec(text);
  const ms = duration ? Number(duration[1]) * DURATION_UNITS[duration[2]!.toLowerCase()]! : NaN;
  if (!Number.isSafeInteger(ms) || ms <= 0) {
    throw new UsageError(
      `invalid --max-age ${JSON.stringify(raw)}: expected a duration such as 30m, 24h or 7d, or 0 for no limit`,
    );
  }
  return ms;
}
