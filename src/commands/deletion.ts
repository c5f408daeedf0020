import type { Command } from 'commander';
import { deleteMany, type DeleteOutcome, type DeleteResult } from '../api/delete-many.js';
import { encodePathSegment } from '../api/url.js';
import type { Context } from '../context.js';
import { CancelledError, ExitCode, ExitStatus, UsageError, errorCode } from '../errors.js';
import { formatJson, tsvLine } from '../output/formats.js';
import { writeAll, writeOut } from '../output/iostreams.js';
import { failure, info, success } from '../output/messages.js';
import { progressBar, type Progress } from '../output/progress.js';
import { printable } from '../output/text.js';
import { parseConcurrency } from './options.js';

/** The flags `delete` and `prune` share, as commander parses them (with defaults). */
export interface DeletionOptions {
  yes: boolean;
  json: boolean;
  dryRun: boolean;
  ignoreMissing: boolean;
  concurrency: number;
}

export function addDeletionOptions(command: Command): Command {
  return command
    .option('-y, --yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--dry-run', 'send no DELETE; report each id as would_delete')
    .option('--ignore-missing', 'count a 404 (not found) as success, exit 0')
    .option('--concurrency <n>', 'requests in flight at once, 1-64', parseConcurrency, 8)
    .option('--json', 'print one result per id as JSON: [{"id", "result", "status", "error"?}]');
}

/** The flags as commander leaves them: booleans absent when not given. */
export type DeletionFlags = Partial<Omit<DeletionOptions, 'concurrency'>> & { concurrency: number };

/** Only the flags of DeletionOptions, from commander's options object. */
export function pickDeletionOptions(flags: DeletionFlags): DeletionOptions {
  return {
    yes: flags.yes === true,
    json: flags.json === true,
    dryRun: flags.dryRun === true,
    ignoreMissing: flags.ignoreMissing === true,
    concurrency: flags.concurrency,
  };
}

const PROGRESS_ABOVE = 10;
const IDS_SHOWN_IN_PROMPT = 5;

function question(ids: readonly string[]): string {
  if (ids.length === 1) return `Delete plant ${printable(ids[0]!)}?`;
  const shown = ids.slice(0, IDS_SHOWN_IN_PROMPT).map(printable).join(', ');
  return `Delete ${ids.length} plants (${shown}${ids.length > IDS_SHOWN_IN_PROMPT ? ', …' : ''})?`;
}

/**
 * Find the ids, confirm, delete and report: the part `delete` and `prune`
 * share. Whether the run can be confirmed at all is settled before the ids
 * are read or listed; nothing is deleted before the confirmation; ids are
 * deleted once each, in input order.
 */
export async function deletePlants(
  findIds: () => Promise<string[]>,
  options: DeletionOptions,
  ctx: Context,
): Promise<void> {
  const { io } = ctx;
  if (!options.yes && !options.dryRun && !io.stdinIsTTY) {
    throw new UsageError('--yes is required when not running interactively');
  }
  const ids = [...new Set(await findIds())];
  // Every id must be sendable before anything is sent.
  for (const id of ids) encodePathSegment(id);
  if (ids.length === 0) {
    if (options.json) await writeOut(io.stdout, formatJson([], io.stdoutIsTTY));
    info(io, 'No plants to delete');
    return;
  }
  const client = await ctx.client();

  if (options.dryRun) {
    const outcomes = ids.map((id): DeleteOutcome => ({ result: { id, result: 'would_delete', status: null } }));
    await report(outcomes, options, ctx, false);
    return;
  }
  if (!options.yes && !(await ctx.prompter.confirm(question(ids)))) {
    throw new CancelledError('cancelled; nothing was deleted');
  }
  let progress: Progress | undefined =
    io.stderrIsTTY && ids.length > PROGRESS_ABOVE ? progressBar(io, 'Deleting', ids.length) : undefined;
  const stop = new AbortController();
  const release = ctx.onInterrupt(() => {
    stop.abort();
    progress?.end();
    progress = undefined;
    info(io, 'Stopping: finishing the requests in flight (Ctrl-C again to quit now)');
  });
  let outcomes: DeleteOutcome[];
  try {
    outcomes = await deleteMany(client, ids, {
      concurrency: options.concurrency,
      signal: stop.signal,
      onSettled: (done) => progress?.update(done),
    });
  } finally {
    progress?.end();
    release();
  }
  await report(outcomes, options, ctx, stop.signal.aborted);
}

function count(results: readonly DeleteResult[], kind: DeleteResult['result']): number {
  return results.filter((r) => r.result === kind).length;
}

async function report(
  outcomes: readonly DeleteOutcome[],
  options: DeletionOptions,
  ctx: Context,
  interrupted: boolean,
): Promise<void> {
  const { io } = ctx;
  const results = outcomes.map((o) => o.result);
  if (options.json) {
    await writeOut(io.stdout, formatJson(results, io.stdoutIsTTY));
  } else if (options.dryRun) {
    // Ids come from the service: escaped like any TSV field, one per line.
    await writeAll(io.stdout, results.map((r) => tsvLine([r.id], io.stdoutIsTTY)));
  }

  const problems = outcomes.filter((o) => o.error && !(options.ignoreMissing && o.result.result === 'not_found'));
  // Each failure in one line: for a single id this is the whole story.
  for (const { error } of problems) await failure(io, ctx.redact(error!.message));

  const deleted = count(results, 'deleted');
  const notFound = count(results, 'not_found');
  const failed = count(results, 'failed');
  const skipped = count(results, 'skipped');
  if (options.dryRun) {
    info(io, `Would delete ${results.length} plant${results.length === 1 ? '' : 's'} (dry run: nothing was sent)`);
  } else if (results.length === 1 && deleted === 1) {
    await success(io, `Deleted plant ${printable(results[0]!.id)}`);
  } else if (results.length > 1 && (io.stderrIsTTY || problems.length > 0 || interrupted)) {
    const parts = [`Deleted ${deleted}`];
    if (notFound) parts.push(`not found ${notFound}`);
    if (failed) parts.push(`failed ${failed}`);
    if (skipped) parts.push(`skipped ${skipped}`);
    info(io, parts.join(', '));
  }

  if (interrupted) {
    throw new ExitStatus(ExitCode.interrupted, 'interrupted', `interrupted: ${deleted} deleted, ${skipped} skipped`);
  }
  if (problems.length === 0) return;
  if (outcomes.length === 1) {
    const error = problems[0]!.error!;
    throw new ExitStatus(error.exitCode, errorCode(error), ctx.redact(error.message), error.status);
  }
  // A refused token outranks everything: the rest of the run never happened.
  if (problems.some((o) => o.error!.exitCode === ExitCode.auth)) {
    throw new ExitStatus(ExitCode.auth, 'auth', `the service refused the token; ${skipped} plants were not attempted`);
  }
  if (failed === 0) {
    throw new ExitStatus(ExitCode.notFound, 'not_found', `${notFound} of ${results.length} plants were not found`);
  }
  throw new ExitStatus(ExitCode.failure, 'partial_failure', `${failed} of ${results.length} deletes failed`);
}
