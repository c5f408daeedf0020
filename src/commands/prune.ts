import { Command } from 'commander';
import type { Context } from '../context.js';
import { UsageError } from '../shared/errors.js';
import { hasFilter, plantMatcher, type PlantFilter } from '../api/filters.js';
import { quoted } from '../shared/text.js';
import {
  addDeletionOptions,
  addPlanOption,
  pickDeletionOptions,
  type DeletionFlags,
  type DeletionOptions,
} from './deletion-flags.js';
import { deletePlants } from './deletion-run.js';
import { requirePlantId } from '../deletion/id-input.js';
import { addFilterOptions, fetchPlants } from './listing.js';
import { parseLimit } from '../shared/values.js';
import { examples } from './options.js';

interface PruneOptions extends DeletionOptions {
  limit?: number;
  filter: PlantFilter;
  all: boolean;
}

type PruneRunner = (options: PruneOptions, ctx: Context) => Promise<void>;

export function pruneCommand(ctx: Context, run: PruneRunner = runPrune): Command {
  const command = addFilterOptions(
    new Command('prune')
      .description('Delete every plant that matches filters: list, filter and delete in one step, for CI jobs')
      .option('-l, --limit <n>', 'ask the service for at most n plants, before filters apply', parseLimit)
      .option('--all', 'allow pruning without --tag or --name: every plant listed'),
  );
  return addPlanOption(addDeletionOptions(command))
    .addHelpText(
      'after',
      examples(
        'plants prune --tag seedling --dry-run',
        'plants prune --tag seedling --yes --max-deletes 100',
        "plants prune --name 'Test *' --yes --json --ignore-missing",
        'plants prune --all --limit 100 --yes',
        'plants prune --tag seedling --plan plan.json   # then plants apply plan.json',
      ),
    )
    .action(async (flags: DeletionFlags & { limit?: number; tag?: string[]; name?: string; all?: boolean }) => {
      await run(
        {
          ...pickDeletionOptions(flags),
          limit: flags.limit,
          filter: { tags: flags.tag ?? [], name: flags.name },
          all: flags.all === true,
        },
        ctx,
      );
    });
}

/**
 * An empty --tag or --name selects the plants whose tag or name is empty,
 * as `list` shows them; for a deletion it is far more often a variable
 * that was not set (`--tag "$TAG"`) than a wish: refused, with the way to
 * delete such plants on purpose.
 */
function refuseEmptyFilter(filter: PlantFilter): void {
  const empty = filter.tags.includes('') ? 'tag' : filter.name === '' ? 'name' : undefined;
  if (empty === undefined) return;
  throw new UsageError(
    `invalid --${empty}: it must not be empty (is a variable unset?); to delete the plants whose ${empty} is empty, run plants list --${empty} '' --json | plants delete --stdin --yes`,
  );
}

async function runPrune(options: PruneOptions, ctx: Context): Promise<void> {
  refuseEmptyFilter(options.filter);
  if (!hasFilter(options.filter) && !options.all) {
    throw new UsageError('prune needs a filter (--tag or --name), or --all to delete every plant listed');
  }
  const { filter, limit, all } = options;
  await deletePlants(
    {
      command: 'prune',
      filters: { tags: filter.tags, name: filter.name ?? null, all, limit: limit ?? null },
      findTargets: async () => {
        const matches = plantMatcher(options.filter);
        const listed = await fetchPlants(ctx, options.limit);
        const targets = listed.filter(matches).map((plant, index) => ({
          id: requirePlantId(plant, `matching plant ${index + 1} (${quoted(plant.name)})`),
          plant,
        }));
        // --max-deletes 10% is of the plants listed, before the filters; protections look at every plant listed.
        return { targets, listed };
      },
    },
    options,
    ctx,
  );
}
