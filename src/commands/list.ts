import { Command } from 'commander';
import type { Plant } from '../api/responses.js';
import type { Context } from '../context.js';
import { formatJson, tsvLine } from '../output/formats.js';
import { writeAll, writeOut } from '../output/iostreams.js';
import { info, warning } from '../output/messages.js';
import { renderTable } from '../output/table.js';
import { examples, parseLimit } from './options.js';

export interface ListOptions {
  limit?: number;
  json: boolean;
}

export type ListRunner = (options: ListOptions, ctx: Context) => Promise<void>;

export function listCommand(ctx: Context, run: ListRunner = runList): Command {
  return new Command('list')
    .description('List the plants you have access to')
    .option(
      '-l, --limit <n>',
      'at most this many plants (0-2147483647); the service decides when omitted',
      parseLimit,
    )
    .option('--json', 'print the JSON array as the service sent it (every field kept)')
    .addHelpText(
      'after',
      examples(
        'plants list',
        'plants list --limit 10',
        "plants list --json | jq -r '.[].name'",
        'plants list > plants.tsv     # piped: tab-separated, no header',
      ),
    )
    .action(async (opts: { limit?: number; json?: boolean }) => {
      await run({ limit: opts.limit, json: opts.json === true }, ctx);
    });
}

export async function runList(options: ListOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const client = await ctx.client();
  let plants = await client.listPlants({ limit: options.limit });
  if (options.limit !== undefined && plants.length > options.limit) {
    await warning(
      io,
      `the service returned ${plants.length} plants for --limit ${options.limit}; showing the first ${options.limit}`,
    );
    plants = plants.slice(0, options.limit);
  }

  if (options.json) {
    await writeOut(io.stdout, formatJson(plants, io.stdoutIsTTY));
    return;
  }
  const { headers, rows } = plantRows(plants);
  if (io.stdoutIsTTY) {
    if (plants.length === 0) {
      info(io, 'No plants found');
      return;
    }
    for await (const block of renderTable(headers, rows, io.stdoutColor)) await writeOut(io.stdout, block);
    return;
  }
  await writeAll(io.stdout, rows.map(tsvLine));
}

/** Columns ID (only when some plant has an id), NAME, TAG. */
export function plantRows(plants: readonly Plant[]): { headers: string[]; rows: unknown[][] } {
  const withId = plants.some((plant) => plant.id !== undefined && plant.id !== null);
  const headers = withId ? ['ID', 'NAME', 'TAG'] : ['NAME', 'TAG'];
  const rows = plants.map((plant) => (withId ? [plant.id, plant.name, plant.tag] : [plant.name, plant.tag]));
  return { headers, rows };
}
