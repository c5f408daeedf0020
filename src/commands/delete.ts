import { Argument, type Command } from 'commander';
import { completeWith } from '../completion/hints.js';
import type { Context } from '../context.js';
import { UsageError } from '../shared/errors.js';
import { readText, TooLargeError } from '../shared/read-text.js';
import {
  addDeletionOptions,
  addPlanOption,
  pickDeletionOptions,
  type DeletionFlags,
  type DeletionOptions,
} from './deletion-flags.js';
import { deletePlants } from './deletion-run.js';
import { DoubleDashCommand, splitAtDoubleDash } from './double-dash.js';
import { parseIdInput, readBackFormats } from '../deletion/id-input.js';
import { examples, parsePlantId } from './options.js';

export interface DeleteOptions extends DeletionOptions {
  ids: string[];
  /** Read more ids from standard input (`--stdin`, or the id `-`). */
  stdin: boolean;
}

type DeleteRunner = (options: DeleteOptions, ctx: Context) => Promise<void>;

/** Ids on standard input are small; this bounds a runaway producer. */
const MAX_ID_INPUT = 256 * 1024 * 1024;

export function deleteCommand(ctx: Context, run: DeleteRunner = runDelete): Command {
  const command = new DoubleDashCommand('delete')
    .description('Delete plants by id')
    .addArgument(
      completeWith(
        new Argument(
          '[ids...]',
          'ids of plants (any text, each sent as one URL path segment); - reads standard input, except after --',
        ),
        'plant-ids',
      ),
    )
    .option('--stdin', `read ids from standard input: one a line, or the ${readBackFormats()} of plants list`);
  return addPlanOption(addDeletionOptions(command))
    .addHelpText(
      'after',
      examples(
        'plants delete 42',
        'plants delete 42 43 44 --yes',
        'plants list --tag weed --json | plants delete --stdin --yes',
        'cat ids.txt | plants delete - --yes --concurrency 16',
        'plants delete 42 --dry-run',
        'plants delete 42 43 --plan plan.json   # review, then: plants apply plan.json',
        'plants list -o csv | plants delete --stdin --yes --max-deletes 50',
        'plants delete --yes -- -7       # an id that starts with a dash',
        'plants delete --yes -- -        # the id -, not standard input',
      ),
    )
    .action(async (rawIds: string[], flags: DeletionFlags & { stdin?: boolean; plan?: string }, self: Command) => {
      // `-` reads standard input, unless it comes after `--`: there it is an id like any other word.
      const [marked, literal] = splitAtDoubleDash(rawIds, self);
      const stdin = flags.stdin === true || marked.includes('-');
      const ids = [...marked.filter((id) => id !== '-'), ...literal].map(parsePlantId);
      if (!stdin && ids.length === 0) {
        throw new UsageError(
          'no plant ids given; pass ids, or --stdin to read them (e.g. plants list --json | plants delete --stdin --yes)',
        );
      }
      await run({ ...pickDeletionOptions(flags), ids, stdin }, ctx);
    });
}

async function runDelete(options: DeleteOptions, ctx: Context): Promise<void> {
  await deletePlants(
    {
      command: 'delete',
      findTargets: async () => {
        const ids = options.stdin ? [...options.ids, ...parseIdInput(await readIds(ctx))] : options.ids;
        return ids.map((id) => ({ id }));
      },
    },
    options,
    ctx,
  );
}

async function readIds(ctx: Context): Promise<string> {
  if (ctx.io.canPrompt()) {
    throw new UsageError('--stdin reads ids from a pipe or file (plants list --json | plants delete --stdin --yes)');
  }
  try {
    return await readText(ctx.io.stdin, MAX_ID_INPUT);
  } catch (err) {
    if (err instanceof TooLargeError) throw new UsageError(`standard input is ${err.message}; nothing was deleted`);
    throw err;
  }
}
