import { deleteMany, type DeleteOutcome } from './bulk-run.js';
import type { Plant } from '../api/responses.js';
import { encodePathSegment } from '../shared/url.js';
import type { Context } from '../context.js';
import { CancelledError, HttpError, UsageError, type StopSignal } from '../shared/errors.js';
import { formatJson } from '../output/formats.js';
import { writeOut } from '../output/iostreams.js';
import { failure as failureLine, info, warning } from '../output/messages.js';
import { PREVIEW_ROWS, renderPreview, type PreviewRow } from '../output/preview.js';
import { progressBar, type Progress } from '../output/progress.js';
import { printable } from '../shared/text.js';
import type { DeletionOptions } from '../commands/deletion-flags.js';
import { plantId } from './id-input.js';
import {
  checkDeletionJournal,
  journalOnByEnv,
  journalStopped,
  openDeletionJournal,
  recordSkipped,
  recordSkippedNow,
  recorderFor,
} from './journal/choice.js';
import { failedByStop } from './journal/journal.js';
import { quitReport, reportDeletions } from '../commands/deletion-report.js';
import { idKey } from './protections.js';
import { guardDeletion, lookUp, plantFor, profileGuard, type DeletionTarget } from './guard.js';

/** The targets, and what the service listed when the caller listed it (prune): every plant, matching or not. */
type FoundTargets = DeletionTarget[] | { targets: DeletionTarget[]; listed: readonly Plant[] };

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
  checkDeletionJournal(options, ctx);
  const guard = await profileGuard(ctx);
  const found = await findTargets();
  const unique = uniqueTargets(Array.isArray(found) ? found : found.targets);
  const ids = unique.map((target) => target.id);
  // Every id must be sendable before anything is sent.
  for (const id of ids) {
    try {
      encodePathSegment(id);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      // The way past: without it (prune lists it: its filters can leave it out). plants cannot delete it.
      const without = command === 'prune' ? 'narrow --tag or --name to leave it out' : 'leave it out';
      throw new UsageError(
        `${err.message}; nothing was deleted: ${without}, and delete that plant with the service's own tools`,
      );
    }
  }
  if (ids.length === 0) {
    if (options.json) await writeOut(io.stdout, formatJson([], io.stdoutIsTTY));
    info(io, 'No plants to delete');
    return;
  }
  // The cap and the protections, before anything is shown: the plants looked up for them are kept.
  let targets = await guardDeletion(unique, Array.isArray(found) ? undefined : found.listed, options, guard, ctx);
  const client = await ctx.client();

  if (options.dryRun) {
    if (io.stdoutIsTTY && !options.json) {
      // A dry run is there to be read: every row.
      await writeOut(
        io.stdout,
        await renderPreview(await previewRows(targets, ctx, targets.length), {
          color: io.colorEnabled('stdout'),
          max: Infinity,
          width: io.terminalWidth('stdout'),
        }),
      );
    }
    const outcomes = ids.map((id): DeleteOutcome => ({
      result: { id, result: 'would_delete', status: null, request_id: null },
    }));
    await reportDeletions(outcomes, options, ctx, undefined, await deletionTarget(ctx));
    return;
  }
  if (!options.yes) {
    const rows = await previewRows(targets, ctx, PREVIEW_ROWS);
    io.stderr.write(
      await renderPreview(rows, {
        color: io.colorEnabled('stderr'),
        width: io.terminalWidth('stderr'),
      }),
    );
    const where = await deletionTarget(ctx);
    if (!(await ctx.prompter.confirm(question(targets, where))))
      throw new CancelledError('cancelled; nothing was deleted');
    // The plants the person saw named are recorded with those names (the journal's intents): those
    // listed under the id as given. One found by another spelling of its number (09 for 9) may be
    // another plant to the service, and its name would be a guess.
    targets = targets.map((target, index) => {
      const seen = rows[index]?.plant;
      return target.plant === undefined && seen && plantId(seen) === target.id ? { ...target, plant: seen } : target;
    });
  }

  const stop = new AbortController();
  // Nothing is deleted that cannot be recorded: the journal is opened, and the run's start written, first.
  const journal = await openDeletionJournal(command, ids.length, options, ctx, targets, stop.signal);
  let progress: Progress | undefined =
    io.interactive() && ids.length > PROGRESS_ABOVE ? progressBar(io, 'Deleting', ids.length) : undefined;
  let stoppedBy: StopSignal | undefined;
  const run = deleteMany(client, ids, {
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
      return quitReport(now, options, ctx, journal?.run);
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
  const failure = run.recordingFailure();
  // A journal pipe whose reader took nothing while the run was stopping: the stop ended the run, as it
  // would have, and what it left unrecorded is said on the way.
  if (failure !== undefined && journal && stoppedBy !== undefined && failedByStop(failure)) {
    failureLine(io, (journalStopped(failure, outcomes, journal, unrecorded) as Error).message);
  } else if (failure !== undefined && journal) {
    try {
      await reportDeletions(outcomes, options, ctx, stoppedBy, undefined, journal.run);
    } catch {
      // The results are out; the run ends with what stopped it.
    }
    throw journalStopped(failure, outcomes, journal, unrecorded);
  }
  await reportDeletions(outcomes, options, ctx, stoppedBy, undefined, journal?.run);
}

/** First occurrence of each id wins. */
function uniqueTargets(targets: readonly DeletionTarget[]): DeletionTarget[] {
  const seen = new Set<string>();
  return targets.filter((target) => !seen.has(target.id) && seen.add(target.id));
}

function question(targets: readonly DeletionTarget[], where: string): string {
  const what = targets.length === 1 ? `plant ${printable(targets[0]!.id)}` : `these ${targets.length} plants`;
  return `Delete ${what} from ${where}?`;
}

/**
 * Where a run deletes, as a person checks it before saying yes: the base
 * URL's host and path prefix, and the profile (`plants.example.com/api
 * (profile staging)`), the token masked should the URL hold it.
 */
async function deletionTarget(ctx: Context): Promise<string> {
  const [client, profile] = await Promise.all([ctx.client(), ctx.profile()]);
  const { host, pathname } = client.baseUrl;
  return printable(ctx.redact(`${host}${pathname.replace(/\/+$/, '')} (profile ${profile.value})`));
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
    ({ byId: found } = await lookUp(ctx, wanted, { firstOnly: true, exact: ids }));
  } catch (err) {
    // The token was refused: every DELETE would be too, so the run ends here rather than ask.
    if (err instanceof HttpError && err.status === 401) throw err;
    warning(ctx.io, `could not look up the plants' names: ${ctx.redact((err as Error).message)}`);
    return targets.map(({ id }) => ({ id }));
  }
  return targets.map(({ id, plant }) => ({ id, plant: plant ?? plantFor(found, id) ?? null }));
}
