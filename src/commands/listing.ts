import type { Command } from 'commander';
import type { Plant } from '../api/responses.js';
import type { Context } from '../context.js';
import { warning } from '../output/messages.js';
import { collect, once } from './options.js';

/** What `list` and `prune` share: the filter flags, and the list as it arrives. */

/** `--tag` and `--name`, shared by `list` and `prune`. */
export function addFilterOptions(command: Command): Command {
  return command
    .option('--tag <tag>', 'only plants with this tag (repeat for any of several)', collect)
    .option(
      '--name <glob>',
      'only plants whose name matches this glob (* any text, ? one character)',
      once('--name', 'one glob matches several names (* any text, ? one character)'),
    );
}

/**
 * GET /plants as the plants arrive, with the limit enforced here too for
 * services that return more than asked: the rest is not read.
 */
export async function* plantsUpTo(
  ctx: Context,
  limit: number | undefined,
  forDeletion = false,
): AsyncGenerator<Plant[]> {
  const client = await ctx.client();
  for await (const batch of client.streamPlants({ limit, forDeletion })) {
    if (batch.length) yield batch;
    if (batch.overflow) {
      warning(ctx.io, `the service returned more plants than --limit ${limit}; showing the first ${limit}`);
      return;
    }
  }
}

/** The whole list (up to the limit), for a command that deletes from it (prune): refused if it has moved. */
export async function fetchPlants(ctx: Context, limit: number | undefined): Promise<Plant[]> {
  const plants: Plant[] = [];
  for await (const batch of plantsUpTo(ctx, limit, true)) plants.push(...batch);
  return plants;
}
