import {
  serviceAsksToWait,
  tokenRefused,
  wrongAddress,
  type DeleteOutcome,
  type DeleteResult,
  type DeleteResultKind,
} from '../deletion/bulk-run.js';
import type { Context } from '../context.js';
import { ExitCode, ExitStatus, HttpError, InterruptedError, OutputError, type StopSignal } from '../shared/errors.js';
import { waitText } from '../http/retry.js';
import { statusText } from '../http/status.js';
import { formatJson, tsvLine } from '../output/formats.js';
import { writeAll, writeOut } from '../output/iostreams.js';
import { failure, info, success, warning } from '../output/messages.js';
import { printable, quoted } from '../shared/text.js';
import type { DeletionOptions } from './deletion-flags.js';

type Counts = Record<DeleteResultKind, number>;

function countResults(results: readonly DeleteResult[]): Counts {
  const counts: Counts = { deleted: 0, gone: 0, not_found: 0, unknown: 0, failed: 0, skipped: 0, would_delete: 0 };
  for (const { result } of results) counts[result] += 1;
  return counts;
}

/** The kinds a summary names when they occurred, in this order, after the deleted count. */
const NAMED: readonly [DeleteResultKind, string][] = [
  ['gone', 'gone'],
  ['not_found', 'not found'],
  ['unknown', 'unknown'],
  ['failed', 'failed'],
  ['skipped', 'skipped'],
];

/** For a person: "Deleted 2, not found 1, skipped 3". */
function summary(counts: Counts): string {
  return [
    `Deleted ${counts.deleted}`,
    ...NAMED.filter(([kind]) => counts[kind]).map(([kind, label]) => `${label} ${counts[kind]}`),
  ].join(', ');
}

/** How many ids of each kind a stopped run names; the rest are in `plants history <run>`. */
export const NAMED_AFTER_STOP = 10;

/**
 * After a stop, the plants by id: `Deleted: 1, 2, 3` and `Unknown (may have
 * been deleted): 7`, at most NAMED_AFTER_STOP of each, then how many more
 * and where all of them are.
 */
function namedAfterStop(
  results: readonly DeleteResult[],
  kinds: readonly DeleteResultKind[],
  runId?: string,
): string[] {
  const lines: string[] = [];
  const groups = [
    { label: 'Deleted', of: ['deleted', 'gone'] },
    { label: 'Unknown (may have been deleted)', of: ['unknown'] },
  ];
  for (const { label, of } of groups) {
    const ids = results.filter((r) => of.includes(r.result) && kinds.includes(r.result)).map((r) => shownId(r.id));
    if (ids.length === 0) continue;
    const rest = ids.length - NAMED_AFTER_STOP;
    const where = runId ? `: plants history ${runId}` : '';
    lines.push(`${label}: ${ids.slice(0, NAMED_AFTER_STOP).join(', ')}${rest > 0 ? `, and ${rest} more${where}` : ''}`);
  }
  return lines;
}

/** An id in a list: as it is when plain, quoted when a space or comma would make the list unclear. */
function shownId(id: string): string {
  return /^[^\s,"]+$/.test(id) ? printable(id) : quoted(id);
}

/** For the final error line: "interrupted: 2 deleted, 1 failed, 3 skipped". */
function interruptedSummary(counts: Counts): string {
  const parts = [
    `${counts.deleted} deleted`,
    ...NAMED.filter(([kind]) => counts[kind]).map(([kind, label]) => `${counts[kind]} ${label}`),
  ];
  return `interrupted: ${parts.join(', ')}`;
}

function gone(id: string): string {
  return `plant ${printable(id)} is gone: the answer to its DELETE was lost or a server error (500, 502, 504) and the retry found no such plant, so that DELETE most likely deleted it (or it never existed)`;
}

/**
 * For the error line of a run whose results could not be written to stdout
 * (a full disk), which is then all the caller learns: that DELETEs were
 * sent, what came of them, and where the journal has them all.
 * Undefined when none was sent (a dry run, a refused token).
 */
export function deletionsMade(results: readonly DeleteResult[], runId: string | undefined): string | undefined {
  if (!results.some((r) => r.request_id !== null)) return undefined;
  const counts = countResults(results);
  const what = [
    `${counts.deleted} deleted`,
    ...NAMED.filter(([kind]) => counts[kind]).map(([kind, label]) => `${counts[kind]} ${label}`),
  ].join(', ');
  const one = results.length === 1;
  const where = runId ? `plants history ${runId} lists ${one ? 'it' : 'them'}` : 'no journal was kept';
  return `the DELETE${one ? ' was' : 's were'} sent (${what}): ${where}`;
}

/** Whether an outcome is a problem the exit code must tell. */
function isProblem(outcome: DeleteOutcome, options: DeletionOptions): boolean {
  return outcome.error !== undefined && !(options.ignoreMissing && outcome.result.result === 'not_found');
}

/** The results of a finished (or gracefully stopped) delete, then the exit status they call for. */
export async function reportDeletions(
  outcomes: readonly DeleteOutcome[],
  options: DeletionOptions,
  ctx: Context,
  /** The signal that stopped the run, if one did. */
  stoppedBy: StopSignal | undefined,
  /** Where a dry run would have deleted: `plants.example.com/api (profile staging)`. */
  target?: string,
  /** The run's id in the deletion journal, when it keeps one: where every plant of a stopped run is. */
  runId?: string,
): Promise<void> {
  const interrupted = stoppedBy !== undefined;
  const { io } = ctx;
  const results = outcomes.map((o) => o.result);
  // stdout that cannot be written (a full disk) ends the run once the rest is said, naming what was deleted.
  let unwritten: OutputError | undefined;
  try {
    if (options.json) {
      await writeOut(io.stdout, formatJson(results, io.stdoutIsTTY));
    } else if (options.dryRun && !io.stdoutIsTTY) {
      // Ids come from the service: escaped like any TSV field, one per line.
      await writeAll(
        io.stdout,
        results.map((r) => tsvLine([r.id], io.stdoutIsTTY)),
      );
    }
  } catch (err) {
    if (!(err instanceof OutputError)) throw err;
    unwritten = err.after(deletionsMade(results, runId));
  }

  const problems = outcomes.filter((o) => isProblem(o, options));
  // Each failure in one line: for a single id this is the whole story.
  for (const { error } of problems) failure(io, ctx.redact(error!.message));
  for (const { result } of outcomes) if (result.result === 'gone') warning(io, gone(result.id));

  const counts = countResults(results);
  if (options.dryRun) {
    const where = target === undefined ? '' : ` from ${target}`;
    info(
      io,
      `Would delete ${results.length} plant${results.length === 1 ? '' : 's'}${where}; dry run: nothing was sent`,
    );
  } else if (results.length === 1 && counts.deleted === 1) {
    success(io, `Deleted plant ${printable(results[0]!.id)}`);
  } else if (!interrupted && results.length > 1 && (io.interactive() || problems.length > 0 || counts.gone > 0)) {
    info(io, summary(counts));
  }

  // The results a script would read are not there: that outranks how they came out.
  if (unwritten) throw unwritten;
  // Stopped: the last line counts every kind, a failure line like any other's
  // ("plants: interrupted: 2 deleted, 1 failed, 3 skipped"), and the JSON error line says the same.
  if (stoppedBy) {
    // Not only how many: which plants went, and which may have (--json has them all on stdout).
    if (!options.json)
      for (const line of namedAfterStop(results, ['deleted', 'gone', 'unknown'], runId)) info(io, line);
    throw new InterruptedError(interruptedSummary(counts), stoppedBy);
  }
  if (problems.length === 0) return;
  if (outcomes.length === 1) {
    const { error, result } = problems[0]!;
    const status = new ExitStatus(error!.exitCode, error!.code, ctx.redact(error!.message), error!.status);
    status.requestId = result.request_id;
    throw status;
  }
  // A wrong address stopped the run: its message says how to fix it.
  const misaddressed = problems.find(wrongAddress);
  const notAttempted = `${counts.skipped} ${counts.skipped === 1 ? 'plant was' : 'plants were'} not attempted`;
  if (misaddressed) {
    const { code, status } = misaddressed.error!;
    throw new ExitStatus(ExitCode.failure, code, `${ctx.redact(misaddressed.error!.message)}; ${notAttempted}`, status);
  }
  // A refused token outranks everything: the rest of the run never happened.
  const refused = problems.find(tokenRefused);
  if (refused) {
    throw new ExitStatus(
      ExitCode.auth,
      'auth',
      `the service refused the token; ${notAttempted}`,
      refused.error!.status,
    );
  }
  // A service asking for fewer requests stopped the run: when to send the rest again.
  // Of several such answers (requests in flight at once), the one asking for the longest wait.
  const throttled = problems
    .filter(serviceAsksToWait)
    .map((outcome) => outcome.error as HttpError)
    .reduce<HttpError | undefined>(
      (longest, error) => ((error.retryAfterMs ?? 0) > (longest?.retryAfterMs ?? 0) ? error : (longest ?? error)),
      undefined,
    );
  if (throttled && counts.skipped > 0) {
    const asked = throttled.retryAfterMs ?? 0;
    const when = asked > 0 ? ` and asks to be retried in ${waitText(asked)}` : '';
    const stopped = `the service answered ${statusText(throttled.status)}${when}; ${notAttempted}, so as not to add to its load: send them again later`;
    // The failure lines above say what the service answered, not why the rest were skipped nor when
    // to send them: a person is told that last, as a script is in the JSON error line.
    failure(io, stopped);
    throw new ExitStatus(ExitCode.failure, 'http_error', stopped, throttled.status);
  }
  const failed = counts.failed + counts.unknown;
  if (failed === 0) {
    throw new ExitStatus(
      ExitCode.notFound,
      'not_found',
      `${counts.not_found} of ${results.length} plants were not found`,
    );
  }
  const unknown = counts.unknown ? ` (${counts.unknown} of them may have been deleted)` : '';
  throw new ExitStatus(ExitCode.failure, 'partial_failure', `${failed} of ${results.length} deletes failed${unknown}`);
}

/**
 * At the second Ctrl-C, just before the process ends: the record of what
 * the service confirmed, written at once (nothing asynchronous runs after
 * this). Returns the summary for the final error line.
 */
export function quitReport(
  outcomes: readonly DeleteOutcome[],
  options: DeletionOptions,
  ctx: Context,
  runId?: string,
): string {
  const { io } = ctx;
  const results = outcomes.map((o) => o.result);
  if (options.json) io.writeNow('stdout', formatJson(results, io.stdoutIsTTY));
  // Those unknown or failed get a line each below.
  else for (const line of namedAfterStop(results, ['deleted', 'gone'], runId)) io.writeNow('stderr', `${line}\n`);
  for (const outcome of outcomes) {
    const { result } = outcome;
    if (result.result === 'unknown' || result.result === 'failed') {
      const message = outcome.error?.message ?? `${printable(result.id)}: ${result.error?.message ?? result.result}`;
      io.writeNow('stderr', `plants: ${ctx.redact(message)}\n`);
    }
  }
  return interruptedSummary(countResults(results));
}
