import { CliError, ExitCode, HttpError, NotTheServiceError, type ServiceError } from '../shared/errors.js';
import { printable } from '../shared/text.js';
import { newRequestId, type DeleteResponse, type PlantStoreClient } from '../api/client.js';

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
 * - `would_delete`: a dry run.
 */
export type DeleteResultKind = 'deleted' | 'gone' | 'not_found' | 'unknown' | 'failed' | 'would_delete' | 'skipped';

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

/**
 * Where a bulk delete records what it sends (the deletion journal): `intent`
 * before each request leaves, `outcome` once it is known. When either
 * throws, no further request is sent; the one whose intent failed is not sent at all.
 */
export interface DeletionRecorder {
  intent(index: number, requestId: string): void | Promise<void>;
  outcome(index: number, outcome: DeleteOutcome): void | Promise<void>;
  /**
   * outcome(), then intent() of the next request, as one record where the
   * recorder can (the journal: one write); when it throws, the next request
   * is not sent either.
   */
  outcomeThenIntent?(index: number, outcome: DeleteOutcome, nextIndex: number, requestId: string): void | Promise<void>;
}

interface DeleteManyOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** Aborted at Ctrl-C: no new request starts, and no retry; those in flight finish. */
  signal: AbortSignal;
  /** Called as each id settles. */
  onSettled?(settled: number): void;
  recorder?: DeletionRecorder;
}

/** Said of a request whose answer never came. */
const MAY_HAVE_BEEN_DELETED = 'the plant may have been deleted';

/** Delete one id and describe what happened; request failures are returned, not thrown. */
function deleteOne(
  client: PlantStoreClient,
  id: string,
  requestId: string,
  signal?: AbortSignal,
): Promise<DeleteOutcome> {
  return deletionOutcome(id, requestId, () => client.deletePlant(id, { signal, requestId }));
}

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

/** A bulk delete under way: its outcomes so far can be read at any moment. */
interface BulkDelete {
  /** Every outcome, once every request has settled. */
  readonly done: Promise<DeleteOutcome[]>;
  /**
   * The outcomes now: settled ones as they are, requests in flight as
   * `unknown` (their answer has not come), the rest `skipped`.
   */
  snapshot(): DeleteOutcome[];
  /** What the recorder threw, which stopped the run; undefined while it has not. */
  recordingFailure(): unknown;
}

const IN_FLIGHT: ServiceError = {
  error: null,
  message: `stopped before the service answered; ${MAY_HAVE_BEEN_DELETED}`,
};

/**
 * Delete ids with up to `concurrency` requests in flight over the client's
 * keep-alive connections. Ids never started (after a stop, or after the
 * service refused the token, said the address is wrong or asked for fewer
 * requests, since every later request would fare the same) are `skipped`. Outcomes keep the input order.
 */
export function deleteMany(client: PlantStoreClient, ids: readonly string[], options: DeleteManyOptions): BulkDelete {
  const outcomes: DeleteOutcome[] = ids.map((id) => ({
    result: { id, result: 'skipped', status: null, request_id: null },
  }));
  /** The X-Request-Id of each request in flight, by index. */
  const inFlight = new Map<number, string>();
  let next = 0;
  let settled = 0;
  let stopSending = false;
  let recordingFailure: { error: unknown } | undefined;
  const { recorder } = options;
  /** The next index to send, or undefined once none may be. */
  const claim = (): number | undefined =>
    next < ids.length && !stopSending && !recordingFailure && !options.signal.aborted ? next++ : undefined;
  const worker = async () => {
    let index = claim();
    if (index === undefined) return;
    let requestId = newRequestId();
    try {
      // Awaited only when it is a promise: without a recorder the first request leaves at once.
      const recorded = recorder?.intent(index, requestId);
      if (recorded) await recorded;
    } catch (error) {
      // Not on record, so not sent; nor is anything after it.
      recordingFailure = { error };
      return;
    }
    for (;;) {
      inFlight.set(index, requestId);
      const outcome = await deleteOne(client, ids[index]!, requestId, options.signal);
      inFlight.delete(index);
      outcomes[index] = outcome;
      // After a refused token, a 404 that says the address is wrong, or a service asking for fewer
      // requests, every later request would fare the same.
      if (tokenRefused(outcome) || wrongAddress(outcome) || serviceAsksToWait(outcome)) stopSending = true;
      settled += 1;
      try {
        // Before the next is claimed: whatever it stops (Ctrl-C) stops that one too.
        options.onSettled?.(settled);
      } catch (error) {
        // It ends the run; what settled is on record first, as far as it can be.
        try {
          await recorder?.outcome(index, outcome);
        } catch {
          // Then it reads as unknown: on the safe side.
        }
        throw error;
      }
      const claimed = claim();
      const following = claimed === undefined ? undefined : { index: claimed, requestId: newRequestId() };
      try {
        if (following === undefined) await recorder?.outcome(index, outcome);
        else if (recorder?.outcomeThenIntent) {
          await recorder.outcomeThenIntent(index, outcome, following.index, following.requestId);
        } else if (recorder) {
          await recorder.outcome(index, outcome);
          await recorder.intent(following.index, following.requestId);
        }
      } catch (error) {
        // The next one is not on record, so not sent (it stays skipped); nor is anything after it.
        recordingFailure ??= { error };
      }
      if (following === undefined || recordingFailure) return;
      ({ index, requestId } = following);
    }
  };
  const done = Promise.all(Array.from({ length: Math.min(options.concurrency, ids.length) }, worker)).then(
    () => outcomes,
  );
  return {
    done,
    snapshot: () =>
      outcomes.map((outcome, index) => {
        const requestId = inFlight.get(index);
        return requestId === undefined
          ? outcome
          : { result: { id: ids[index]!, result: 'unknown', status: null, request_id: requestId, error: IN_FLIGHT } };
      }),
    recordingFailure: () => recordingFailure?.error,
  };
}
