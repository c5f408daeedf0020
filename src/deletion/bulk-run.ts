import type { ServiceError } from '../shared/errors.js';
import { newRequestId, type DeleteResponse } from '../api/client.js';
import {
  deletionOutcome,
  MAY_HAVE_BEEN_DELETED,
  serviceAsksToWait,
  tokenRefused,
  wrongAddress,
  type DeleteOutcome,
} from './results.js';

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

/** Sends the DELETE of one id; throws the request's error for anything but success (results.ts, deletionOutcome). */
export type SendDelete = (id: string, request: { requestId: string; signal: AbortSignal }) => Promise<DeleteResponse>;

export interface DeleteManyOptions {
  send: SendDelete;
  /** Requests in flight at once. */
  concurrency: number;
  /** Aborted at Ctrl-C: no new request starts, and no retry; those in flight finish. */
  signal: AbortSignal;
  /** Called as each id settles. */
  onSettled?(settled: number): void;
  recorder?: DeletionRecorder;
}

/** A bulk delete under way: its outcomes so far can be read at any moment. */
export interface BulkDelete {
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
 * Delete ids with up to `concurrency` requests in flight (`send` is the
 * client's, over its keep-alive connections). Ids never started (after a stop, or after the
 * service refused the token, said the address is wrong or asked for fewer
 * requests, since every later request would fare the same) are `skipped`. Outcomes keep the input order.
 */
export function deleteMany(ids: readonly string[], options: DeleteManyOptions): BulkDelete {
  const pool = new DeletionPool(ids, options);
  const workers = Array.from({ length: Math.min(options.concurrency, ids.length) }, () => pool.work());
  return {
    done: Promise.all(workers).then(() => pool.outcomes),
    snapshot: () => pool.snapshot(),
    recordingFailure: () => pool.failure?.error,
  };
}

/** The state the workers share: each claims the next index, sends it, records it, and claims again. */
class DeletionPool {
  readonly outcomes: DeleteOutcome[];
  /** What the recorder threw first. */
  failure: { error: unknown } | undefined;
  /** The X-Request-Id of each request in flight, by index. */
  readonly #inFlight = new Map<number, string>();
  #next = 0;
  #settled = 0;
  #stopSending = false;

  constructor(
    private readonly ids: readonly string[],
    private readonly options: DeleteManyOptions,
  ) {
    this.outcomes = ids.map((id) => ({ result: { id, result: 'skipped', status: null, request_id: null } }));
  }

  /** The next index to send, or undefined once none may be. */
  #claim(): number | undefined {
    const sendable = this.#next < this.ids.length && !this.#stopSending && !this.failure;
    return sendable && !this.options.signal.aborted ? this.#next++ : undefined;
  }

  /** One worker: sends until nothing is left to claim, or the recorder fails. */
  async work(): Promise<void> {
    let index = this.#claim();
    if (index === undefined) return;
    let requestId = newRequestId();
    try {
      // Awaited only when it is a promise: without a recorder the first request leaves at once.
      const recorded = this.options.recorder?.intent(index, requestId);
      if (recorded) await recorded;
    } catch (error) {
      // Not on record, so not sent; nor is anything after it.
      this.failure = { error };
      return;
    }
    for (;;) {
      const outcome = await this.#send(index, requestId);
      this.#settled += 1;
      try {
        // Before the next is claimed: whatever it stops (Ctrl-C) stops that one too.
        this.options.onSettled?.(this.#settled);
      } catch (error) {
        await this.#recordAsItEnds(index, outcome);
        throw error;
      }
      const following = await this.#recordThenClaim(index, outcome);
      if (following === undefined || this.failure) return;
      ({ index, requestId } = following);
    }
  }

  async #send(index: number, requestId: string): Promise<DeleteOutcome> {
    const { send, signal } = this.options;
    const id = this.ids[index]!;
    this.#inFlight.set(index, requestId);
    const outcome = await deletionOutcome(id, requestId, () => send(id, { requestId, signal }));
    this.#inFlight.delete(index);
    this.outcomes[index] = outcome;
    // After a refused token, a 404 that says the address is wrong, or a service asking for fewer
    // requests, every later request would fare the same.
    if (tokenRefused(outcome) || wrongAddress(outcome) || serviceAsksToWait(outcome)) this.#stopSending = true;
    return outcome;
  }

  /** onSettled threw, which ends the run: what settled is on record first, as far as it can be. */
  async #recordAsItEnds(index: number, outcome: DeleteOutcome): Promise<void> {
    try {
      await this.options.recorder?.outcome(index, outcome);
    } catch {
      // Then it reads as unknown: on the safe side.
    }
  }

  /** Records the outcome and, when there is a next index to send, its intent: the next request, or undefined. */
  async #recordThenClaim(
    index: number,
    outcome: DeleteOutcome,
  ): Promise<{ index: number; requestId: string } | undefined> {
    const { recorder } = this.options;
    const claimed = this.#claim();
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
      this.failure ??= { error };
    }
    return following;
  }

  snapshot(): DeleteOutcome[] {
    return this.outcomes.map((outcome, index) => {
      const requestId = this.#inFlight.get(index);
      if (requestId === undefined) return outcome;
      const id = this.ids[index]!;
      return { result: { id, result: 'unknown', status: null, request_id: requestId, error: IN_FLIGHT } };
    });
  }
}
