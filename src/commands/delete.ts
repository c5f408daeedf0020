import { Command } from 'commander';
import type { PlantStoreClient } from '../api/client.js';
import { encodePathSegment } from '../api/url.js';
import type { Context } from '../context.js';
import { CancelledError, CliError, HttpError, UsageError, type ServiceError } from '../errors.js';
import { formatJson } from '../output/formats.js';
import { writeOut } from '../output/iostreams.js';
import { success } from '../output/messages.js';
import { printable } from '../output/text.js';
import { examples, parsePlantId } from './options.js';

export interface DeleteOptions {
  id: string;
  yes: boolean;
  json: boolean;
}

export type DeleteRunner = (options: DeleteOptions, ctx: Context) => Promise<void>;

/** One object of the `--json` array. */
export interface DeleteResult {
  id: string;
  result: 'deleted' | 'not_found' | 'failed';
  /** HTTP status of the response, or null when none arrived. */
  status: number | null;
  /** Only on failure: what the service said, or what went wrong on the way. */
  error?: ServiceError;
}

export function deleteCommand(ctx: Context, run: DeleteRunner = runDelete): Command {
  return new Command('delete')
    .description('Delete a plant by its id')
    .argument('<id>', 'the id of the plant (any text; sent as one URL path segment)', parsePlantId)
    .option('-y, --yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--json', 'print the result as JSON: [{"id", "result", "status", "error"?}]')
    .addHelpText(
      'after',
      examples(
        'plants delete 42',
        'plants delete 42 --yes',
        'plants delete 42 --yes --json',
        'plants delete --yes -- -7       # an id that starts with a dash',
      ),
    )
    .action(async (id: string, opts: { yes?: boolean; json?: boolean }) => {
      await run({ id, yes: opts.yes === true, json: opts.json === true }, ctx);
    });
}

export async function runDelete(options: DeleteOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const { id } = options;
  // The id must be sendable, and the run confirmable, before anything is sent.
  encodePathSegment(id);
  if (!options.yes && !io.stdinIsTTY) {
    throw new UsageError('--yes is required when not running interactively');
  }
  const client = await ctx.client();
  if (!options.yes && !(await ctx.prompter.confirm(`Delete plant ${printable(id)}?`))) {
    throw new CancelledError('cancelled; nothing was deleted');
  }

  const { result, error } = await deleteOne(client, id);
  if (options.json) await writeOut(io.stdout, formatJson([result], io.stdoutIsTTY));
  if (error) throw error;
  await success(io, `Deleted plant ${printable(id)}`);
}

/** Delete one id and describe what happened; request failures are returned, not thrown. */
export async function deleteOne(
  client: PlantStoreClient,
  id: string,
): Promise<{ result: DeleteResult; error?: CliError }> {
  try {
    const { status } = await client.deletePlant(id);
    return { result: { id, result: 'deleted', status } };
  } catch (err) {
    if (err instanceof HttpError) {
      const result = err.status === 404 ? 'not_found' : 'failed';
      return { result: { id, result, status: err.status, error: err.serviceError }, error: err };
    }
    if (err instanceof CliError) {
      return {
        result: { id, result: 'failed', status: err.status, error: { error: null, message: err.message } },
        error: err,
      };
    }
    throw err;
  }
}
