import { CliError, ExitCode, HttpError, type ServiceError } from '../errors.js';
import type { PlantStoreClient } from './client.js';

export type DeleteResultKind = 'deleted' | 'not_found' | 'failed' | 'would_delete' | 'skipped';

/** One object of the `--json` array, in input order. */
export interface DeleteResult {
  id: string;
  result: DeleteResultKind;
  /** HTTP status of the response, or null when none arrived (or nothing was sent). */
  status: number | null;
  /** Only on failure: what the service said, or what went wrong on the way. */
  error?: ServiceError;
}

export interface DeleteOutcome {
  result: DeleteResult;
  /** The error behind a not_found or failed result. */
  error?: CliError;
}

export interface DeleteManyOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** Aborted at Ctrl-C: no new request starts, and no retry; those in flight finish. */
  signal: AbortSignal;
  /** Called as each id settles. */
  onSettled?(settled: number): void;
}

/** Delete one id and describe what happened; request failures are returned, not thrown. */
export async function deleteOne(client: PlantStoreClient, id: string, signal?: AbortSignal): Promise<DeleteOutcome> {
  try {
    const { status } = await client.deletePlant(id, { signal });
    return { result: { id, result: 'deleted', status } };
  } catch (err) {
    if (err instanceof HttpError) {
      const result = err.status === 404 ? 'not_found' : 'failed';
      return { result: { id, result, status: err.status, error: err.serviceError }, error: err };
    }
    if (err instanceof CliError) {
      return {
        result: { id, result: 'failed', status: err.status, error: { error: null, message: err.message } },
        error: err,
      };
    }
    throw err;
  }
}

/**
 * Delete ids with up to `concurrency` requests in flight over the client's
 * keep-alive connections. Ids never started (after a stop, or after the
 * service refused the token, since every later request would be refused too)
 * are `skipped`. Outcomes keep the input order.
 */
export async function deleteMany(
  client: PlantStoreClient,
  ids: readonly string[],
  options: DeleteManyOptions,
): Promise<DeleteOutcome[]> {
  const outcomes: DeleteOutcome[] = ids.map((id) => ({ result: { id, result: 'skipped', status: null } }));
  let next = 0;
  let settled = 0;
  let authRefused = false;
  const worker = async () => {
    while (next < ids.length && !authRefused && !options.signal.aborted) {
      const index = next;
      next += 1;
      const outcome = await deleteOne(client, ids[index]!, options.signal);
      outcomes[index] = outcome;
      if (outcome.error?.exitCode === ExitCode.auth) authRefused = true;
      settled += 1;
      options.onSettled?.(settled);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, ids.length) }, worker));
  return outcomes;
}
