import { NetworkError } from '../shared/errors.js';
import type { Attempt } from './attempt.js';
import type { DebugLog } from './debug-log.js';
import { causeCode, type NetworkFailure } from './network.js';
import {
  Attempts,
  backoffMs,
  LOST_RESPONSE_CODES,
  LOST_RESPONSE_STATUSES,
  NEVER_SENT_CODES,
  RETRY_ERROR_CODES,
  RETRY_STATUSES,
  MAX_WAIT_MS,
  retryAfterMs,
  waitText,
} from './retry.js';
import { headerValue, statusText } from './status.js';

/** One logical request, as the retry loop sees it. */
interface RetryingRequest {
  /** `METHOD url`, as the request is named in messages. */
  label: string;
  /** Further attempts after a transient failure (0: none). */
  retries: number;
  /**
   * The method may be sent twice (IDEMPOTENT_METHODS). When not (POST,
   * PATCH), nothing that may have reached the service is sent again: no
   * status is retried, and of the connection failures only those that say
   * the request never left (NEVER_SENT_CODES).
   */
  idempotent: boolean;
  /** Ctrl-C: ends a wait, so no further attempt is sent; the attempt in flight still finishes. */
  signal: AbortSignal | undefined;
  log: DebugLog;
  /** Send one attempt (`attempts.count` says which). */
  send(attempts: Attempts): Promise<Attempt>;
  /** A connection failure in words (a timeout with its figure), the secrets masked. */
  describeFailure(error: unknown): NetworkFailure;
}

/** The last attempt's response, not yet read unless `unretried` says so, and what happened across the attempts. */
export interface RetriedAnswer {
  attempt: Attempt;
  attempts: Attempts;
  /**
   * Retries ended on a status worth another try, which then stands as a
   * failure: Ctrl-C ended the wait (`note` empty), or Retry-After asks for
   * longer than plants waits (`note` says so, for the end of the error's
   * message). `text`: its body, already read; the attempt is closed.
   */
  unretried?: { text: string; note: string };
}

/**
 * Send a request, and again after transient failures (the statuses and
 * connection errors of the tables in retry.ts) while retries and the caller
 * allow. Resolves with the last attempt's response; throws a NetworkError
 * when no response came.
 */
export async function sendWithRetries(request: RetryingRequest): Promise<RetriedAnswer> {
  const { retries, signal, log } = request;
  const attempts = new Attempts();
  for (;;) {
    const started = Date.now();
    let outcome: { attempt: Attempt } | { error: unknown };
    try {
      outcome = { attempt: await request.send(attempts) };
    } catch (error) {
      outcome = { error };
    }
    const more = attempts.count <= retries && !signal?.aborted;
    if ('attempt' in outcome) {
      const { attempt } = outcome;
      if (log.on) log.line(`← ${statusText(attempt.statusCode)} in ${Date.now() - started} ms`, attempt.headers);
      if (!request.idempotent || !RETRY_STATUSES.has(attempt.statusCode) || !more) return { attempt, attempts };
      // Keep what it said, in case Ctrl-C makes this the last answer.
      const text = await attempt.errorText();
      log.body(text);
      attempt.close();
      if (LOST_RESPONSE_STATUSES.has(attempt.statusCode)) attempts.responseMayBeLost = true;
      if (attempt.statusCode === 500) attempts.answered500 = true;
      attempts.lastCause = statusText(attempt.statusCode);
      const asked = retryAfterMs(headerValue(attempt.headers['retry-after']));
      if (asked !== undefined && asked > MAX_WAIT_MS) {
        // Sooner than the service asks would only be refused again; longer, a run seems to hang.
        const seconds = waitText(asked);
        log.line(`not retrying: Retry-After asks for ${seconds}, and plants waits at most ${MAX_WAIT_MS / 1000} s`);
        const note = ` (the service asks to be retried in ${seconds}, later than plants waits: ${MAX_WAIT_MS / 1000} s)`;
        return { attempt, attempts, unretried: { text, note } };
      }
      if (!(await wait(asked, attempts, request))) return { attempt, attempts, unretried: { text, note: '' } };
      continue;
    }
    const code = causeCode(outcome.error);
    const failure = request.describeFailure(outcome.error);
    const { message } = failure;
    log.line(`✗ ${message} after ${Date.now() - started} ms`);
    const retry = (request.idempotent ? RETRY_ERROR_CODES : NEVER_SENT_CODES).has(code) && more;
    if (retry) {
      if (LOST_RESPONSE_CODES.has(code)) attempts.responseMayBeLost = true;
      attempts.lastCause = failure.message;
    }
    if (!retry || !(await wait(undefined, attempts, request))) {
      const tries = attempts.count > 1 ? ` after ${attempts.count} attempts` : '';
      const error = new NetworkError(`${request.label} failed${tries}: ${message}`, failure.timeout);
      // This attempt's own loss counts too: the request was sent, the answer never came.
      error.responseLost = attempts.responseMayBeLost || LOST_RESPONSE_CODES.has(code);
      throw error;
    }
  }
}

/**
 * Wait before the next attempt: Retry-After, else backoff. False when
 * Ctrl-C (the signal) ended the wait: no further attempt is sent, and the
 * last outcome stands.
 */
async function wait(
  retryAfter: number | undefined,
  attempts: Attempts,
  { retries, signal, log }: RetryingRequest,
): Promise<boolean> {
  const wait = retryAfter ?? backoffMs(attempts.count);
  log.line(`retrying in ${wait} ms after ${attempts.lastCause} (attempt ${attempts.count + 1} of ${retries + 1})`);
  try {
    // Loaded here, on the first retry: most runs never wait.
    const { setTimeout: sleep } = process.getBuiltinModule('node:timers/promises');
    await sleep(wait, undefined, { signal });
  } catch {
    log.line('retry cancelled by Ctrl-C');
    return false;
  }
  attempts.count += 1;
  return true;
}
