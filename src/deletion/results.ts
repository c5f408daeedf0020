import { CliError, ExitCode, HttpError, NotTheServiceError, type ServiceError } from '../shared/errors.js';
import { printable } from '../shared/text.js';
import type { DeleteResponse } from '../api/client.js';

// The vocabulary of a deletion run: what came of each id, as the results, the journal and the exit code say it.

/**
 * What happened to one id:
 * - `deleted`: the service confirmed it (2xx);
 * - `gone`: a 404 (or 410) to a repeated DELETE whose first answer was lost: the
 *   plant is gone, most likely deleted by that first attempt, but it may never have existed;
 * - `not_found`: a 404 with the service's Error object, or a 410 Gone;
 * - `unknown`: the request was sent but its answer never came (lost, or the
 *   run was stopped): the plant may have been deleted;
 * - `failed`: the service refused, or the request never reached it;
 * - `skipped`: never sent (stopped, or an answer that every later request would get too);
 * - `would_delete`: a dry run;
 * - `changed`: a plan's plant listed with another name or tag than the plan's: not sent (plants apply).
 */
export type DeleteResultKind =
  'deleted' | 'gone' | 'not_found' | 'unknown' | 'failed' | 'would_delete' | 'skipped' | 'changed';

/** One object of the `--json` array, in input order. */
export interface DeleteResult {
  id: string;
  result: DeleteResultKind;
  /** HTTP status of the response, or null when none arrived (or nothing was sent). */
  status: number | null;
  /** The request's X-Request-Id (the same on its retries), or null when nothing was sent. */
  request_id: string | null;
  /** Only on failure: what the service said, or what went wrong on the way. */
  error?: ServiceError;
}

export interface DeleteOutcome {
  result: DeleteResult;
  /** The error behind a not_found, unknown or failed result. */
  error?: CliError;
  /** How many attempts the request took, when it was sent. */
  attempts?: number;
}

/** Said of a request whose answer never came. */
export const MAY_HAVE_BEEN_DELETED = 'the plant may have been deleted';

/**
 * What one DELETE came to, as the journal and the results say it: `send`
 * sends it (bulk deletes, `plants api -X DELETE`) and throws the request's
 * error for anything but success; that error is returned, not thrown.
 */
export async function deletionOutcome(
  id: string,
  requestId: string,
  send: () => Promise<DeleteResponse>,
): Promise<DeleteOutcome> {
  const request_id = requestId;
  try {
    const { status, afterLostResponse, attempts } = await send();
    return {
      result: {
        id,
        result: afterLostResponse && (status === 404 || status === 410) ? 'gone' : 'deleted',
        status,
        request_id,
      },
      attempts,
    };
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    const attempts = err.attempts ?? undefined;
    if (err.responseLost) {
      // The error is this request's own: saying what it means is safe.
      const serviceError = err instanceof HttpError ? err.serviceError : { error: null, message: err.message };
      err.message = `${err.message}; ${MAY_HAVE_BEEN_DELETED}`;
      const error = { ...serviceError, message: `${serviceError.message}; ${MAY_HAVE_BEEN_DELETED}` };
      return { result: { id, result: 'unknown', status: err.status, request_id, error }, error: err, attempts };
    }
    if (err instanceof HttpError) {
      if (err.status === 403) {
        // That plant is refused, not the token: the run goes on.
        const said = err.serviceError.message;
        err.message = `the service refused to delete plant ${printable(id)} (403 Forbidden): ${said}`;
      }
      // A 404 with the interface's Error object: the plant is missing; without one, the address is wrong.
      const result = err.code === 'not_found' ? 'not_found' : 'failed';
      return { result: { id, result, status: err.status, request_id, error: err.serviceError }, error: err, attempts };
    }
    return {
      result: { id, result: 'failed', status: err.status, request_id, error: { error: null, message: err.message } },
      error: err,
      attempts,
    };
  }
}

/** A 401: the token was refused, and every later request would be refused too (a 403 refuses only its plant). */
export function tokenRefused(outcome: DeleteOutcome): boolean {
  return outcome.error?.exitCode === ExitCode.auth && outcome.error.status === 401;
}

/**
 * A 404 that was not about the plant (no Error object came with it), or a
 * 2xx with an HTML page (a web site's answer): the base URL is wrong.
 */
export function wrongAddress(outcome: DeleteOutcome): boolean {
  if (outcome.error instanceof NotTheServiceError) return true;
  return outcome.error instanceof HttpError && outcome.error.status === 404 && outcome.error.code !== 'not_found';
}

/**
 * The service asks for fewer requests: a 429 Too Many Requests, or a 503
 * with Retry-After, that retries did not get past. Every later request
 * would add to the load it asks to shed, and most likely be refused too.
 */
export function serviceAsksToWait(outcome: DeleteOutcome): boolean {
  const { error } = outcome;
  return (
    error instanceof HttpError && (error.status === 429 || (error.status === 503 && error.retryAfterMs !== undefined))
  );
}
