import { Command, Option } from 'commander';
import type { DeleteResultKind } from '../deletion/results.js';
import type { Context } from '../context.js';
import { UsageError } from '../shared/errors.js';
import { streamJournal, streamJournalFiles, type JournalRecord, type JournalSink } from '../deletion/journal/read.js';
import { stateDir } from '../deletion/journal/location.js';
import { RECORDED_RESULTS, RunCollector, type RunSummary } from '../deletion/journal/runs.js';
import { chosenFormat, formatWriter, type OutputFormat } from '../output/format-writers.js';
import type { RowView } from '../output/row-encoder.js';
import type { IOStreams } from '../output/iostreams.js';
import { info, warning } from '../output/messages.js';
import { writeRows } from '../output/rows.js';
import { quoted } from '../shared/text.js';
import { parseSince } from '../shared/values.js';
import { lookUpKnownTokens } from './known-tokens.js';
import { maskSecrets } from '../secrets/registry.js';
import { examples, outputFormat, outputOption, parseJournalFile } from './options.js';
import { PLANT_VIEW, RUN_VIEW } from './history-views.js';

export interface HistoryOptions {
  /** A run id, or a unique beginning of one: that run's plants. */
  run?: string;
  /** Runs that started at or after this instant (ms since the epoch). */
  since?: number;
  profile?: string;
  /** Runs that deleted, or tried to delete, this plant. */
  id?: string;
  /** Runs with a plant of any of these results; in one run, its plants of these results. */
  result?: DeleteResultKind[];
  /** Undefined: table on a terminal, tsv when piped. */
  output?: OutputFormat;
  /** Journal files to read (what --journal-file wrote) instead of the state directory's journal. */
  journalFiles?: string[];
}

type HistoryRunner = (options: HistoryOptions, ctx: Context) => Promise<void>;

interface HistoryFlags {
  since?: number;
  id?: string;
  result?: DeleteResultKind[];
  output?: OutputFormat;
  json?: boolean;
  journalFile?: string[];
}

// The recipe that resumes a run is longer than a line of 80 columns: a section of its own, broken after the pipe.
const RESUME_HELP = `Resume a run (the plants it did not delete):
  plants history 3f2a9c1e --result skipped,unknown,failed --json |
    plants delete --stdin --yes --ignore-missing
`;

export function historyCommand(ctx: Context, run: HistoryRunner = runHistory): Command {
  return new Command('history')
    .description('Show the deletions on record in the journal: one line per run, or the plants of one run')
    .argument('[run]', "a run's id (or the first characters of it): list that run's plants and their outcome")
    .option('--since <when>', 'only runs since then: a duration (30m, 24h, 7d) or a date (2026-11-24)', (raw) =>
      parseSince(raw),
    )
    .option('--id <plant-id>', 'only runs that deleted, or tried to delete, this plant')
    .addOption(
      new Option(
        '--result <results>',
        'only runs with a plant of one of these results, comma-separated (and, for one run, only those plants)',
      )
        // The choices are listed in help and offered by completion; the parser takes a list of them.
        .choices(RECORDED_RESULTS)
        // Repeated, they add up, as a comma list does.
        .argParser((raw: string, previous: DeleteResultKind[] | undefined) => [
          ...new Set([...(previous ?? []), ...parseResults(raw)]),
        ]),
    )
    .addOption(outputOption())
    .option('--json', 'same as -o json')
    .option(
      '--journal-file <path>',
      "read this file (what delete's --journal-file wrote, a CI job's artifact) instead of the journal; repeat for more",
      (path: string, previous: string[] = []) => [...previous, parseJournalFile(path)],
    )
    .addHelpText(
      'after',
      examples(
        'plants history',
        'plants history --since 24h --profile staging    # the runs of one profile',
        'plants history --id 42',
        'plants history 3f2a9c1e',
        'plants history 3f2a9c1e --result unknown --json',
        'plants history --journal-file prune-journal.jsonl',
      ),
    )
    .addHelpText('after', RESUME_HELP)
    .action(async (runId: string | undefined, flags: HistoryFlags) => {
      await run(
        {
          run: runId,
          since: flags.since,
          // The global --profile: here it picks the runs of that profile (PLANTS_PROFILE does not).
          profile: ctx.flags.profile,
          id: flags.id,
          result: flags.result,
          output: outputFormat(flags),
          journalFiles: flags.journalFile,
        },
        ctx,
      );
    });
}

/** How many damaged lines are named one by one; the rest are counted. */
const DAMAGED_NAMED = 20;

async function runHistory(options: HistoryOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  // Where the records come from, as the messages name it.
  const source = options.journalFiles ? options.journalFiles.join(', ') : stateDir(ctx.env);
  // plants writes no token into the journal, but a journal edited by hand, or written under
  // another token's name, might hold one: every token plants knows of is masked in what is shown.
  await lookUpKnownTokens(ctx);
  const all = await readRuns(options, source, io);
  const format = chosenFormat(options.output, io.stdoutIsTTY);
  // The filters asked for, as a message names them: --id and --result pick plants, all four pick runs.
  // Masked as the records are: a value typed by mistake may be a token.
  const named = (flag: string, value: string | undefined) =>
    value === undefined ? [] : [`${flag} ${maskSecrets(/^[\w.:@+-]+$/.test(value) ? value : quoted(value))}`];
  const plantFilters = [...named('--id', options.id), ...named('--result', options.result?.join(','))];
  const wanted = options.result === undefined ? undefined : new Set<string>(options.result);
  // A duration that reaches back past any date a Date holds leaves out nothing: it is not named.
  const sinceDate = options.since === undefined ? undefined : new Date(options.since);
  const since =
    sinceDate === undefined || Number.isNaN(sinceDate.getTime())
      ? undefined
      : sinceDate.toISOString().replace(/\.\d+Z$/, 'Z');
  const runOnly = [...named('--since', since), ...named('--profile', options.profile)];
  const runFilters = [...runOnly, ...plantFilters];
  const runMatches = (run: RunSummary) =>
    (options.since === undefined || Date.parse(run.time) >= options.since) &&
    (options.profile === undefined || run.profile === options.profile);
  if (options.run !== undefined) {
    // One run, found among all of them; --since and --profile say whether it is wanted, the others pick its plants.
    const run = findRun(all, options.run);
    if (!runMatches(run)) {
      await writeHistory(ctx, format, PLANT_VIEW, [], `Run ${run.run} does not match ${runOnly.join(' ')}`);
      return;
    }
    await showRun(run, { id: options.id, wanted, plantFilters }, format, ctx);
    return;
  }
  const runs = all.filter(
    (run) =>
      runMatches(run) &&
      (options.id === undefined || run.hasId) &&
      // By the counts: a run recorded before its skipped plants were has them only as a number.
      (wanted === undefined || Object.entries(run.counts).some(([result, n]) => n > 0 && wanted.has(result))),
  );
  // With runs on record, none of which the filters pick: say so, not that there are none.
  const none =
    all.length === 0 || runFilters.length === 0
      ? `No deletions on record in ${source}`
      : all.length === 1
        ? `The one run on record in ${source} does not match ${runFilters.join(' ')}`
        : `None of the ${all.length} runs on record in ${source} match ${runFilters.join(' ')}`;
  await writeHistory(ctx, format, RUN_VIEW, runs, none);
}

/**
 * Every run on record, its records masked; read as a stream: a run's plants
 * are kept only for `history <run>`, the runs it may name.
 */
async function readRuns(options: HistoryOptions, source: string, io: IOStreams): Promise<RunSummary[]> {
  const prefix = options.run?.toLowerCase();
  const collector = new RunCollector({
    id: options.id,
    keepPlants: (run) => prefix !== undefined && prefix.length >= 4 && (run.startsWith(prefix) || run === options.run),
  });
  let damaged = 0;
  const sink: JournalSink = {
    record: (record) => collector.add(masked(record)),
    damaged: ({ file, line }) => {
      damaged += 1;
      if (damaged <= DAMAGED_NAMED) warning(io, `skipped a damaged line of the journal: ${file} line ${line}`);
    },
    large: (file, bytes) =>
      warning(io, `the journal ${file} is ${(bytes / 1024 ** 3).toFixed(1)} GiB: reading it takes a while`),
  };
  if (options.journalFiles) await streamJournalFiles(options.journalFiles, sink);
  else streamJournal(source, sink);
  if (damaged > DAMAGED_NAMED) {
    warning(io, `skipped ${damaged - DAMAGED_NAMED} more damaged lines of the journal (${damaged} in all)`);
  }
  return collector.runs();
}

/** One run's plants, those the filters pick; and how many more it counts than its records name. */
async function showRun(
  run: RunSummary,
  filters: { id?: string; wanted?: ReadonlySet<string>; plantFilters: readonly string[] },
  format: OutputFormat,
  ctx: Context,
): Promise<void> {
  const { id, wanted, plantFilters } = filters;
  const plants = (run.plants ?? []).filter(
    (plant) => (wanted === undefined || wanted.has(plant.result)) && (id === undefined || plant.id === id),
  );
  const none = `No plants of this run on record${plantFilters.length > 0 ? ` match ${plantFilters.join(' ')}` : ''}`;
  await writeHistory(ctx, format, PLANT_VIEW, plants, none);
  // Skipped plants counted by the start record but not on record by id cannot be listed: said, not left out silently.
  const unlisted = run.planned - run.recorded;
  if (unlisted > 0 && (wanted === undefined || wanted.has('unknown')) && id === undefined) {
    warning(
      ctx.io,
      `${unlisted} more plant${unlisted === 1 ? '' : 's'} of this run ${unlisted === 1 ? 'is' : 'are'} counted as unknown: no record names ${unlisted === 1 ? 'it' : 'them'} (a damaged line, a journal that could not be written, or an older plants that did not record skipped plants by id)`,
    );
  }
}

/** `--result skipped,unknown`: one or more of the results a run records, each named once. */
export function parseResults(raw: string): DeleteResultKind[] {
  const words = raw.split(',').map((word) => word.trim().toLowerCase());
  const known = new Set<string>(RECORDED_RESULTS);
  const wrong = words.find((word) => !known.has(word));
  if (wrong !== undefined) {
    throw new UsageError(
      `invalid --result ${JSON.stringify(raw)}: ${wrong === '' ? 'an empty result' : `${JSON.stringify(wrong)} is not a result`}; expected one or more of ${RECORDED_RESULTS.join(', ')}, comma-separated`,
    );
  }
  return [...new Set(words)] as DeleteResultKind[];
}

/** A record as shown: every text in it masked (a journal edited by hand may hold a token). */
function masked(record: JournalRecord): JournalRecord {
  const copy: Record<string, unknown> = { ...record };
  for (const [key, value] of Object.entries(copy)) if (typeof value === 'string') copy[key] = maskSecrets(value);
  return copy as unknown as JournalRecord;
}

/** A run by its id or a beginning of it that only one run has. */
function findRun(runs: readonly RunSummary[], wanted: string): RunSummary {
  if (wanted === '')
    throw new UsageError(
      'invalid run "": give a run\'s id (at least its first 4 characters), or none to list the runs',
    );
  const matches = runs.filter((run) => run.run.startsWith(wanted.toLowerCase()));
  if (matches.length === 1 && wanted.length >= 4) return matches[0]!;
  if (matches.length > 1 && !matches.some((run) => run.run === wanted)) {
    throw new UsageError(
      `run ${JSON.stringify(wanted)} is the beginning of ${matches.length} runs' ids; give more of it`,
    );
  }
  const exact = matches.find((run) => run.run === wanted);
  if (exact) return exact;
  throw new UsageError(
    `no run ${JSON.stringify(wanted)} on record${wanted.length < 4 ? ' (give at least 4 characters of its id)' : ''}; 'plants history' lists the runs`,
  );
}

/** The rows in the chosen format; `none` said on stderr when there are none, unless the output says so (`[]`). */
async function writeHistory<T>(
  ctx: Context,
  format: OutputFormat,
  view: RowView<T>,
  rows: readonly T[],
  none: string,
): Promise<void> {
  const count = await writeRows(ctx.io, format, view, [rows]);
  if (count === 0 && !formatWriter(format).showsEmpty) info(ctx.io, none);
}
