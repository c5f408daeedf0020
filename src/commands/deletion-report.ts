import type { DeleteOutcome, DeleteResult } from '../deletion/results.js';
import { isProblem, runEnd } from '../deletion/exit-rule.js';
import {
  countResults,
  deletionsMade,
  goneWarning,
  interruptedSummary,
  namedAfterStop,
  summary,
  type Counts,
} from '../deletion/run-counts.js';
import { InterruptedError, OutputError, type StopSignal } from '../shared/errors.js';
import { formatJson, tsvLine } from '../output/formats.js';
import { writeAll, writeOut, type IOStreams } from '../output/iostreams.js';
import { failure, info, success, warning } from '../output/messages.js';
import { maskSecrets } from '../secrets/registry.js';
import { printable } from '../shared/text.js';
import type { DeletionOptions } from './deletion-flags.js';

/** What reportDeletions reports, and where. */
export interface DeletionReport {
  outcomes: readonly DeleteOutcome[];
  options: Pick<DeletionOptions, 'json' | 'dryRun' | 'ignoreMissing'>;
  io: IOStreams;
  /** The signal that stopped the run, if one did. */
  stoppedBy?: StopSignal;
  /** Where a dry run would have deleted: `plants.example.com/api (profile staging)`. */
  target?: string;
  /** A plan written instead of a run: the line that says where it is, in place of the dry run's. */
  planned?: string;
  /** The run's id in the deletion journal, when it keeps one: where every plant of a stopped run is. */
  runId?: string;
}

/** The results of a finished (or gracefully stopped) delete, then the exit status they call for. */
export async function reportDeletions(report: DeletionReport): Promise<void> {
  const { outcomes, options, io, stoppedBy, runId } = report;
  const results = outcomes.map((o) => o.result);
  // stdout that cannot be written (a full disk) ends the run once the rest is said, naming what was deleted.
  let unwritten: OutputError | undefined;
  try {
    await writeResults(results, options, io);
  } catch (err) {
    if (!(err instanceof OutputError)) throw err;
    unwritten = err.after(deletionsMade(results, runId));
  }

  const problems = outcomes.filter((o) => isProblem(o, options.ignoreMissing));
  // Each failure in one line: for a single id this is the whole story.
  for (const { error } of problems) failure(io, maskSecrets(error!.message));
  for (const { result } of outcomes) if (result.result === 'gone') warning(io, goneWarning(result.id));
  const counts = countResults(results);
  sayHowItWent(report, counts, problems.length);

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
  const end = runEnd(outcomes, problems);
  if (end === undefined) return;
  if (end.sayFirst !== undefined) failure(io, end.sayFirst);
  throw end.status;
}

/** The results on stdout: every one with --json, the ids of a dry run when stdout is not a terminal. */
async function writeResults(
  results: readonly DeleteResult[],
  options: DeletionReport['options'],
  io: IOStreams,
): Promise<void> {
  if (options.json) {
    await writeOut(io.stdout, formatJson(results, io.stdoutIsTTY));
  } else if (options.dryRun && !io.stdoutIsTTY) {
    // Ids come from the service: escaped like any TSV field, one per line.
    await writeAll(
      io.stdout,
      results.map((r) => tsvLine([r.id], io.stdoutIsTTY)),
    );
  }
}

/** The line for a person: what a dry run would do, the one plant deleted, or the counts. */
function sayHowItWent(report: DeletionReport, counts: Counts, problems: number) {
  const { outcomes, options, io, stoppedBy, target } = report;
  const total = outcomes.length;
  if (report.planned !== undefined) {
    info(io, report.planned);
  } else if (options.dryRun) {
    const where = target === undefined ? '' : ` from ${target}`;
    info(io, `Would delete ${total} plant${total === 1 ? '' : 's'}${where}; dry run: nothing was sent`);
  } else if (total === 1 && counts.deleted === 1) {
    success(io, `Deleted plant ${printable(outcomes[0]!.result.id)}`);
  } else if (stoppedBy === undefined && total > 1 && (io.interactive() || problems > 0 || counts.gone > 0)) {
    info(io, summary(counts));
  }
}

/**
 * At the second Ctrl-C, just before the process ends: the record of what
 * the service confirmed, written at once (nothing asynchronous runs after
 * this). Returns the summary for the final error line.
 */
export function quitReport({ outcomes, options, io, runId }: Omit<DeletionReport, 'stoppedBy' | 'target'>): string {
  const results = outcomes.map((o) => o.result);
  if (options.json) io.writeNow('stdout', formatJson(results, io.stdoutIsTTY));
  // Those unknown or failed get a line each below.
  else for (const line of namedAfterStop(results, ['deleted', 'gone'], runId)) io.writeNow('stderr', `${line}\n`);
  for (const outcome of outcomes) {
    const { result } = outcome;
    if (result.result === 'unknown' || result.result === 'failed') {
      const message = outcome.error?.message ?? `${printable(result.id)}: ${result.error?.message ?? result.result}`;
      io.writeNow('stderr', `plants: ${maskSecrets(message)}\n`);
    }
  }
  return interruptedSummary(countResults(results));
}
