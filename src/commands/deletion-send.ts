import type { PlantStoreClient } from '../api/client.js';
import type { Context } from '../context.js';
import { deleteMany } from '../deletion/bulk-run.js';
import type { DeletionTarget } from '../deletion/guard.js';
import { journalStopped, recordSkipped, recordSkippedNow, recorderFor } from '../deletion/journal/choice.js';
import { failedByStop, type DeletionJournal } from '../deletion/journal/journal.js';
import type { DeleteOutcome } from '../deletion/results.js';
import { failure as failureLine, info } from '../output/messages.js';
import { progressBar, type Progress } from '../output/progress.js';
import type { StopSignal } from '../shared/errors.js';
import { printable } from '../shared/text.js';
import type { DeletionOptions } from './deletion-flags.js';
import { openJournalOf } from './deletion-context.js';
import { quitReport, reportDeletions } from './deletion-report.js';

// The sending part of a delete, prune or apply: journal opened, DELETEs sent, Ctrl-C heard, the report.

/** A progress bar for runs of more than this many plants. */
const PROGRESS_ABOVE = 10;

/** What a run sends, and how its report is made of what came back. */
export interface Sending {
  command: string;
  targets: readonly DeletionTarget[];
  /** The plan an apply applies: its records in the journal name it. */
  plan?: string;
  /**
   * The outcomes to report, made of the outcomes of the targets (in their
   * order): an apply puts those it did not send among them, in the plan's order.
   */
  arrange?: (sent: DeleteOutcome[]) => DeleteOutcome[];
  /** The outcomes arranged, settled once the run is over (an apply's plants an earlier apply deleted). */
  settle?: (outcomes: DeleteOutcome[]) => Promise<DeleteOutcome[]>;
}

/** The run itself: journal opened, DELETEs sent with progress shown, Ctrl-C heard, then the report. */
export async function sendDeletions(
  sending: Sending,
  client: PlantStoreClient,
  options: DeletionOptions,
  ctx: Context,
): Promise<void> {
  const { io } = ctx;
  const { command, targets, plan, arrange = (sent) => sent } = sending;
  const ids = targets.map((target) => target.id);
  const stop = new AbortController();
  // Nothing is deleted that cannot be recorded: the journal is opened, and the run's start written, first.
  const journal = await openJournalOf(ctx, {
    command,
    plan,
    plants: ids.length,
    choice: options,
    targets,
    signal: stop.signal,
  });
  let progress: Progress | undefined =
    io.interactive() && ids.length > PROGRESS_ABOVE ? progressBar(io, 'Deleting', ids.length) : undefined;
  let stoppedBy: StopSignal | undefined;
  const run = deleteMany(ids, {
    send: (id, request) => client.deletePlant(id, request),
    concurrency: options.concurrency,
    signal: stop.signal,
    onSettled: (done) => progress?.update(done),
    recorder: journal && recorderFor(journal, targets),
  });
  const release = ctx.onInterrupt(
    (signal) => {
      stoppedBy = signal;
      stop.abort();
      progress?.end();
      progress = undefined;
      const again = signal === 'SIGINT' ? 'Ctrl-C' : signal;
      info(io, `Stopping: finishing the requests in flight (${again} again to quit now)`);
    },
    // Quit now: what the service confirmed is still reported, in-flight ids as unknown, the rest on record as skipped.
    () => {
      const now = run.snapshot();
      const unrecorded = journal && recordSkippedNow(journal, targets, now);
      if (unrecorded) io.writeNow('stderr', `plants: ${printable(unrecorded)}\n`);
      return quitReport({ outcomes: arrange(now), options, io, runId: journal?.run });
    },
  );
  let sent: DeleteOutcome[];
  let unrecorded: string | undefined;
  try {
    sent = await run.done;
    // Every target is on record: those never sent as skipped (in the files a failure has not stopped).
    if (journal) unrecorded = await recordSkipped(journal, targets, sent);
  } finally {
    progress?.end();
    release();
    journal?.close();
  }
  if (unrecorded) failureLine(io, unrecorded);
  let outcomes = arrange(sent);
  if (sending.settle) outcomes = await sending.settle(outcomes);
  await finishRun({ outcomes, failure: run.recordingFailure(), journal, unrecorded, stoppedBy }, options, ctx);
}

/** The report of a run that sent, and how a journal that failed on the way ends it. */
async function finishRun(
  run: {
    outcomes: DeleteOutcome[];
    /** What the journal threw, which stopped the run. */
    failure: unknown;
    journal: DeletionJournal | undefined;
    unrecorded: string | undefined;
    stoppedBy: StopSignal | undefined;
  },
  options: DeletionOptions,
  ctx: Context,
): Promise<void> {
  const { outcomes, failure, journal, unrecorded, stoppedBy } = run;
  const report = { outcomes, options, io: ctx.io, stoppedBy, runId: journal?.run };
  // A journal pipe whose reader took nothing while the run was stopping: the stop ended the run, as it
  // would have, and what it left unrecorded is said on the way.
  if (failure !== undefined && journal && stoppedBy !== undefined && failedByStop(failure)) {
    failureLine(ctx.io, (journalStopped(failure, outcomes, journal, unrecorded) as Error).message);
  } else if (failure !== undefined && journal) {
    try {
      await reportDeletions(report);
    } catch {
      // The results are out; the run ends with what stopped it.
    }
    throw journalStopped(failure, outcomes, journal, unrecorded);
  }
  await reportDeletions(report);
}
