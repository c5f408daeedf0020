import { MALFORMED_RESPONSE, UNASKED_CONTINUE } from './network.js';

/** Statuses worth another try: the request may succeed later. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/** Connection errors worth another try (refused, reset, DNS, timeouts). */
export const RETRY_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
]);

/**
 * Failures after which the server may have acted on the request although no
 * response was read: the request was sent, then the connection broke or went
 * quiet, or the server answered in a way that cannot be read (not HTTP/1.1,
 * headers past the limit, a body shorter or longer than its Content-Length, an
 * unasked 100 Continue). (Refused, DNS and connect timeouts mean it was never sent.)
 */
export const LOST_RESPONSE_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_HEADERS_OVERFLOW',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  UNASKED_CONTINUE,
  MALFORMED_RESPONSE,
]);

/**
 * Connection failures that leave no doubt the request never left: the only
 * ones after which a request that is not idempotent (POST, PATCH) is sent again.
 */
// Not ENETUNREACH nor EHOSTUNREACH: Linux may report them on a connection already open.
export const NEVER_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Methods that may be sent twice with the effect of once (RFC 9110, 9.2.2): only these are retried after a response. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Gateway statuses that may follow a request the service did act on (it was forwarded, the answer lost). */
export const LOST_RESPONSE_STATUSES: ReadonlySet<number> = new Set([502, 504]);

/** No single wait is longer than this, whatever Retry-After asks. */
export const MAX_WAIT_MS = 30_000;
const BASE_WAIT_MS = 500;

/**
 * Retry-After as milliseconds from now: delay-seconds or an HTTP date, as
 * asked (the caller decides what is too long to wait). Undefined when
 * absent or unreadable.
 */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // HTTP dates name the month ("Sat, 21 Nov 2026 10:00:05 GMT"); Date.parse alone would take "-5".
  const date = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** A year in seconds: a wait past it is said as "more than a year", not as a figure of 20 digits. */
const YEAR_S = 365 * 24 * 60 * 60;

/** A wait as a message says it: `120 s`, or `more than a year` (a Retry-After of 10^20 s, or one that overflows). */
export function waitText(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return seconds > YEAR_S ? 'more than a year' : `${seconds} s`;
}

/** Exponential backoff with jitter: half the step fixed, half random, capped. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const step = Math.min(BASE_WAIT_MS * 2 ** (retry - 1), MAX_WAIT_MS);
  return Math.round(step / 2 + random() * (step / 2));
}

/** What happened to one logical request across its attempts. */
export class Attempts {
  count = 1;
  /** The last failure that led to a retry, in words. */
  lastCause: string | undefined;
  /** Some attempt may have reached the server although its response was lost. */
  responseMayBeLost = false;
  /**
   * Some attempt was answered 500: the service may have made the change
   * and failed after it (committed, then crashed). Alone that is a failure;
   * what a later answer then means is the caller's (api/'s gone rule).
   */
  answered500 = false;

  /** An earlier attempt may have carried the request out: its answer was lost, or was a 500. */
  get mayHaveActed(): boolean {
    return this.responseMayBeLost || this.answered500;
  }

  /** " (after 3 attempts)" once retries happened. */
  suffix(): string {
    return this.count > 1 ? ` (after ${this.count} attempts)` : '';
  }
}
