import { deletionOutcome, type DeleteOutcome } from '../../deletion/results.js';
import { headerValue } from '../../http/status.js';
import type { PlantStoreClient, ServiceRequest, ServiceResponse } from '../../api/client.js';
import type { Context } from '../../context.js';
import { JournalError, RefusedError, type StopSignal } from '../../shared/errors.js';
import { info, warning } from '../../output/messages.js';
import { bodyText } from '../../shared/charset.js';
import { quoted } from '../../shared/text.js';
import type { ApiTarget } from '../../shared/url.js';
import { guardDeletion, type DeletionTarget } from '../../deletion/guard.js';
import {
  checkDeletionJournal,
  journalOnByEnv,
  recorderFor,
  type JournalChoice,
} from '../../deletion/journal/choice.js';
import { hasRules } from '../../deletion/protections.js';
import { randomUUID } from '../../shared/random.js';
import { deletedBy } from '../../deletion/api-request/deletion-path.js';
import { openJournalOf, plantListerOf, profileGuardOf } from '../deletion-context.js';

/** What a DELETE sent through `plants api` came to. */
export interface ApiDeletion {
  response: ServiceResponse;
  /** The body, when it was read to describe a failure. */
  body?: Buffer;
  outcome: DeleteOutcome;
  /** The journal could not record the outcome: said after the response is printed. */
  unrecorded?: JournalError;
  /** Ctrl-C (or SIGTERM, SIGHUP) came while the DELETE was in flight: the run ends with it once the answer is shown. */
  stoppedBy?: StopSignal;
  /** The run's id in the deletion journal, when it keeps one. */
  runId?: string;
}

/**
 * A DELETE, as every deletion is made: the profile's protections and
 * max-deletes checked for a plant's path (a DELETE of the whole collection,
 * which they cannot check, is refused when the profile has any), the journal
 * opened and the intent recorded before it leaves, the outcome after. It is
 * not redirected (the guard checked this path). Ctrl-C stops retries; the
 * attempt in flight finishes. Returns the response, even a failure's; a
 * request that got no response throws.
 */
export async function sendDelete(
  target: Pick<ApiTarget, 'path' | 'below'>,
  request: ServiceRequest,
  options: JournalChoice & { includeProtected: boolean },
  ctx: Context,
  client: PlantStoreClient,
): Promise<ApiDeletion> {
  journalOnByEnv(ctx.env);
  // Before the guard, which may list the plants: a journal the DELETE could not be recorded in costs no request.
  checkDeletionJournal(options, ctx.env);
  const targets = await guardedTarget(target, options, ctx);
  const stop = new AbortController();
  const journal = await openJournalOf(ctx, { command: 'api', plants: 1, choice: options, signal: stop.signal });
  const recorder = journal && recorderFor(journal, targets);
  const requestId = request.requestId ?? randomUUID();
  let stoppedBy: StopSignal | undefined;
  const release = ctx.onInterrupt(
    (signal) => {
      stoppedBy = signal;
      stop.abort();
      info(ctx.io, 'Stopping: waiting for the DELETE in flight (Ctrl-C again to quit now)');
    },
    () =>
      `stopped; the DELETE may have been sent: its outcome is unknown${journal ? ` (plants history ${journal.run})` : ''}`,
  );
  try {
    await recorder?.intent(0, requestId);
    let response: ServiceResponse | undefined;
    let body: Buffer | undefined;
    // A failure's body that could not be read (too large, cut short): the run ends with it, once recorded.
    let unreadable: Error | undefined;
    const outcome = await deletionOutcome(targets[0]!.id, requestId, async () => {
      response = await client.sendDelete({ ...request, requestId, signal: stop.signal });
      const { attempt, attempts, gone = false } = response;
      const status = attempt.statusCode;
      if ((status < 200 || status >= 300) && !gone) {
        // Read here to describe the failure in the outcome; it is printed as read.
        try {
          body = await client.readBody(response);
        } catch (err) {
          unreadable = err as Error;
          throw err;
        }
        const type = headerValue(attempt.headers['content-type']);
        // In the body's charset: an Error object in UTF-16 is one (the status it gives read as a UTF-8 one's).
        throw client.errorFor(response, bodyText(body.subarray(0, 64 * 1024), type, true), request.addressedPlant);
      }
      return { status, afterLostResponse: attempts.mayHaveActed, attempts: attempts.count };
    });
    let unrecorded: JournalError | undefined;
    try {
      await recorder?.outcome(0, outcome);
    } catch (err) {
      if (!(err instanceof JournalError)) throw err;
      const answered = outcome.result.status === null ? 'got no answer' : `was answered ${outcome.result.status}`;
      unrecorded = new JournalError(
        `${err.message}; the DELETE ${answered}, but its outcome is not on record (its intent is: it reads as unknown)`,
      );
    }
    if (response === undefined) throw outcome.error ?? new Error('the DELETE got no response');
    if (unreadable !== undefined) throw unrecorded ?? unreadable;
    return { response, body, outcome, unrecorded, stoppedBy, runId: journal?.run };
  } finally {
    release();
    journal?.close();
  }
}

/**
 * What a DELETE of this path deletes, checked against the profile's
 * protections and max-deletes: a plant's path is recorded by its id, any
 * other path as it is.
 */
async function guardedTarget(
  target: Pick<ApiTarget, 'path' | 'below'>,
  options: { includeProtected: boolean },
  ctx: Context,
): Promise<DeletionTarget[]> {
  const { below } = target;
  const deleted = deletedBy(target.path);
  const targets = [{ id: deleted.kind === 'plant' ? deleted.id : below }];
  if (deleted.kind === 'other') return targets;
  const guard = await profileGuardOf(ctx);
  if (deleted.kind === 'plant') {
    return guardDeletion({
      targets,
      options: { includeProtected: options.includeProtected, noMaxDeletesFlag: true },
      guard,
      listPlants: plantListerOf(ctx),
      warn: (text) => warning(ctx.io, text),
    });
  }
  if (!options.includeProtected && (hasRules(guard.rules) || guard.cap !== undefined)) {
    throw new RefusedError(
      `refusing DELETE ${quoted(below)}: profile ${guard.profile} has protections or a max-deletes, which cannot be checked for the whole collection; name one plant (/plants/<id>), or pass --include-protected; nothing was deleted`,
    );
  }
  return targets;
}
