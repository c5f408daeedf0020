import { UsageError } from '../errors.js';

/** Values that flags and environment variables share, parsed the same way wherever they come from. */

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
