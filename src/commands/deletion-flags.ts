import { Option, type Command } from 'commander';
import { parseConcurrency, parseMaxDeletes } from '../shared/values.js';
import { parseJournalOutput } from './options.js';
import type { GuardOptions } from '../deletion/guard.js';
import type { JournalChoice } from '../deletion/journal/choice.js';

// Its own module: deletion-run.ts and deletion-report.ts both need DeletionOptions, and neither imports the other back.

/** The flags `delete` and `prune` share, as commander parses them (with defaults). */
export interface DeletionOptions extends JournalChoice, GuardOptions {
  yes: boolean;
  json: boolean;
  dryRun: boolean;
  ignoreMissing: boolean;
  concurrency: number;
  /** --plan <file>: write the run's plan there instead of deleting (delete, prune). */
  plan?: string;
}

/** What a flag means for one command, where it differs: `apply --dry-run` shows the plan's plants. */
interface FlagWords {
  dryRun?: string;
}

export function addDeletionOptions(command: Command, words: FlagWords = {}): Command {
  return (
    command
      .option('-y, --yes', 'do not ask for confirmation (required when stdin is not a terminal)')
      .option('--dry-run', words.dryRun ?? 'send no DELETE; report each id as would_delete')
      .option(
        '--max-deletes <n>',
        'refuse, deleting nothing, when more than n plants (or n% of the plants listed, e.g. 10%) would be deleted (default: the max-deletes of the profile, else no cap)',
        (raw: string) => parseMaxDeletes(raw),
      )
      .option('--include-protected', "delete plants the profile's protections cover (see config protect)")
      .option('--ignore-missing', 'count a 404 (not found) or 410 (gone) as success, exit 0 (also --ignore-not-found)')
      // kubectl's word for it.
      .addOption(new Option('--ignore-not-found', 'the same as --ignore-missing').hideHelp())
      .option('--concurrency <n>', 'requests in flight at once, 1-64', parseConcurrency, 8)
      .option('--json', 'print one result per id as JSON: [{"id", "result", "status", "request_id", "error"?}]')
      .option(
        '--journal-file <path>',
        "also record the run's deletions in this file (JSON Lines), e.g. for a CI artifact",
        parseJournalOutput,
      )
      .option(
        '--no-journal',
        'do not record the deletions in the journal of the state directory (also PLANTS_JOURNAL=off)',
      )
  );
}

/** `--plan <file>`, for the commands that select plants (delete, prune); `plants apply` deletes what a plan holds. */
export function addPlanOption(command: Command): Command {
  return command.option(
    '--plan <file>',
    'write what would be deleted to this plan file (JSON, 0600) instead of deleting; delete it later with plants apply <file>',
  );
}

/** The flags as commander leaves them: booleans absent when not given. */
export type DeletionFlags = Partial<Omit<DeletionOptions, 'concurrency' | 'journal'>> & {
  ignoreNotFound?: boolean;
  concurrency: number;
  journal: boolean;
};

/** Only the flags of DeletionOptions, from commander's options object. */
export function pickDeletionOptions(flags: DeletionFlags): DeletionOptions {
  return {
    yes: flags.yes === true,
    json: flags.json === true,
    dryRun: flags.dryRun === true,
    ignoreMissing: flags.ignoreMissing === true || flags.ignoreNotFound === true,
    concurrency: flags.concurrency,
    maxDeletes: flags.maxDeletes,
    includeProtected: flags.includeProtected === true,
    journal: flags.journal,
    journalFile: flags.journalFile,
    plan: flags.plan,
  };
}
