import type { Plant } from '../api/responses.js';
import type { PlantStoreClient } from '../api/client.js';
import type { Context } from '../context.js';
import { deleteMany } from '../deletion/bulk-run.js';
import { guardDeletion, lookUp, plantFor, type DeletionTarget } from '../deletion/guard.js';
import {
  checkDeletionJournal,
  journalOnByEnv,
  journalStopped,
  recordSkipped,
  recordSkippedNow,
  recorderFor,
} from '../deletion/journal/choice.js';
import { failedByStop, type DeletionJournal } from '../deletion/journal/journal.js';
import { idKey } from '../deletion/protections.js';
import type { DeleteOutcome } from '../deletion/results.js';
import { confirmQuestion, requireSendable, uniqueTargets, withPlantsSeen, wouldDelete } from '../deletion/targets.js';
import { formatJson } from '../output/formats.js';
import { writeOut } from '../output/iostreams.js';
import { failure as failureLine, info, warning } from '../output/messages.js';
import { PREVIEW_ROWS, renderPreview, type PreviewRow } from '../output/preview.js';
import { progressBar, type Progress } from '../output/progress.js';
import { maskSecrets } from '../secrets/registry.js';
import { CancelledError, HttpError, UsageError, type StopSignal } from '../shared/errors.js';
import { printable } from '../shared/text.js';
import type { DeletionOptions } from './deletion-flags.js';
import { deletionPlace, openJournalOf, plantListerOf, profileGuardOf } from './deletion-context.js';
import { quitReport, reportDeletions } from './deletion-report.js';

// The person's side of a delete or prune: deletion/ decides and records; this shows, asks and reports.

/** The targets, and what the service listed when the caller listed it (prune): every plant, matching or not. */
type FoundTargets = DeletionTarget[] | { targets: DeletionTarget[]; listed: readonly Plant[] };

/** A progress bar for runs of more than this many plants. */
const PROGRESS_ABOVE = 10;

/**
 * Find the targets, check the cap and the protections, show and confirm, delete and report: the
 * part `delete` and `prune` share. Whether the run can be confirmed at all
 * is settled before anything is read or listed; nothing is deleted before
 * the confirmation; ids are deleted once each, in input order.
 */
export async function deletePlants(
  command: string,
  findTargets: () => Promise<FoundTargets>,
  options: DeletionOptions,
  ctx: Context,
): Promise<void> {
  const { io } = ctx;
  if (!options.yes && !options.dryRun && !io.canPrompt()) {
    throw new UsageError('--yes is required when not running interactively');
  }
  journalOnByEnv(ctx.env);
  // A journal the run could not write costs nothing: refused before anything is read, listed or asked
  // (a dry run too, in the same words); it is made and written only once the run is going to send.
  checkDeletionJournal(options, ctx.env);
  const guard = await profileGuardOf(ctx);
  const found = await findTargets();
  const unique = uniqueTargets(Array.isArray(found) ? found : found.targets);
  const ids = unique.map((target) => target.id);
  // The way past an id plants cannot send: without it (prune lists it: its filters can leave it out).
  requireSendable(ids, command === 'prune' ? 'narrow --tag or --name to leave it out' : 'leave it out');
  if (ids.length === 0) {
    if (options.json) await writeOut(io.stdout, formatJson([], io.stdoutIsTTY));
    info(io, 'No plants to delete');
    return;
  }
  // The cap and the protections, before anything is shown: the plants looked up for them are kept.
  let targets = await guardDeletion({
    targets: unique,
    listed: Array.isArray(found) ? undefined : found.listed,
    options,
    guard,
    listPlants: plantListerOf(ctx),
    warn: (text) => warning(io, text),
  });
  const client = await ctx.client();
  if (options.dryRun) {
    await showDryRun(targets, options, ctx);
    return;
  }
  if (!options.yes) targets = await confirmRun(targets, ctx);
  await sendDeletions(command, targets, client, options, ctx);
}

/** A dry run: every row shown on a terminal (it is there to be read), each id reported as would_delete. */
async function showDryRun(targets: readonly DeletionTarget[], options: DeletionOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  if (io.stdoutIsTTY && !options.json) {
    const rows = await previewRows(targets, ctx, targets.length);
    const shown = { color: io.colorEnabled('stdout'), max: Infinity, width: io.terminalWidth('stdout') };
    await writeOut(io.stdout, await renderPreview(rows, shown));
  }
  const outcomes = wouldDelete(targets.map((target) => target.id));
  await reportDeletions({ outcomes, options, io, target: await deletionPlace(ctx) });
}

/** The preview and the question; the targets with the plants the person saw named, or a CancelledError. */
async function confirmRun(targets: DeletionTarget[], ctx: Context): Promise<DeletionTarget[]> {
  const { io } = ctx;
  const rows = await previewRows(targets, ctx, PREVIEW_ROWS);
  io.stderr.write(await renderPreview(rows, { color: io.colorEnabled('stderr'), width: io.terminalWidth('stderr') }));
  const where = await deletionPlace(ctx);
  if (!(await ctx.prompter.confirm(confirmQuestion(targets, where)))) {
    throw new CancelledError('cancelled; nothing was deleted');
  }
  return withPlantsSeen(targets, rows);
}

/** The run itself: journal opened, DELETEs sent with progress shown, Ctrl-C heard, then the report. */
async function sendDeletions(
  command: string,
  targets: readonly DeletionTarget[],
  client: PlantStoreClient,
  options: DeletionOptions,
  ctx: Context,
): Promise<void> {
  const { io } = ctx;
  const ids = targets.map((target) => target.id);
  const stop = new AbortController();
  // Nothing is deleted that cannot be recorded: the journal is opened, and the run's start written, first.
  const journal = await openJournalOf(ctx, {
    command,
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
      return quitReport({ outcomes: now, options, io, runId: journal?.run });
    },
  );
  let outcomes: DeleteOutcome[];
  let unrecorded: string | undefined;
  try {
    outcomes = await run.done;
    // Every target is on record: those never sent as skipped (in the files a failure has not stopped).
    if (journal) unrecorded = await recordSkipped(journal, targets, outcomes);
  } finally {
    progress?.end();
    release();
    journal?.close();
  }
  if (unrecorded) failureLine(io, unrecorded);
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

/**
 * The rows a person sees before a delete: the plants the caller listed, or
 * else the plants looked up in the list, read only until the `shown` ids
 * are found. A failed lookup costs only the names.
 */
async function previewRows(targets: readonly DeletionTarget[], ctx: Context, shown: number): Promise<PreviewRow[]> {
  const ids = new Set(
    targets
      .slice(0, shown)
      .filter((target) => target.plant === undefined)
      .map((target) => target.id),
  );
  const wanted = new Set([...ids].map(idKey));
  if (wanted.size === 0) return targets.map(({ id, plant }) => ({ id, plant }));
  let found: Map<string, Plant[]>;
  try {
    ({ byId: found } = await lookUp(plantListerOf(ctx), wanted, { firstOnly: true, exact: ids }));
  } catch (err) {
    // The token was refused: every DELETE would be too, so the run ends here rather than ask.
    if (err instanceof HttpError && err.status === 401) throw err;
    warning(ctx.io, `could not look up the plants' names: ${maskSecrets((err as Error).message)}`);
    return targets.map(({ id }) => ({ id }));
  }
  return targets.map(({ id, plant }) => ({ id, plant: plant ?? plantFor(found, id) ?? null }));
}
