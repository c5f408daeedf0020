import { Command } from 'commander';
import type { Context } from '../context.js';
import { filterPlants, type PlantFilter } from '../api/filters.js';
import { chosenFormat, formatsWhere, formatWriter, type OutputFormat } from '../output/format-writers.js';
import { warning } from '../output/messages.js';
import { writePlants } from '../output/plants.js';
import { addFilterOptions, plantsUpTo } from './listing.js';
import { parseLimit } from '../shared/values.js';
import { wordList } from '../shared/text.js';
import { examples, outputFormat, outputOption, parseColumns } from './options.js';

export interface ListOptions {
  limit?: number;
  /** Undefined: table on a terminal, tsv when piped. */
  output?: OutputFormat;
  columns?: string[];
  filter: PlantFilter;
}

type ListRunner = (options: ListOptions, ctx: Context) => Promise<void>;

interface ListFlags {
  limit?: number;
  output?: OutputFormat;
  json?: boolean;
  columns?: string[];
  tag?: string[];
  name?: string;
}

/** The formats `--columns` applies to ("table, tsv and csv"): JSON keeps whole objects. */
function columnFormats(): string {
  return wordList(
    formatsWhere((writer) => writer.shows !== 'json'),
    'and',
  );
}

export function listCommand(ctx: Context, run: ListRunner = runList): Command {
  const command = new Command('list')
    .description('List the plants you have access to')
    .option(
      '-l, --limit <n>',
      'ask the service for at most n plants (0-2147483647), before filters apply; the service decides when omitted',
      parseLimit,
    )
    .addOption(outputOption())
    .option('--json', 'same as -o json: the plants as the service sent them, every field kept')
    .option('--columns <list>', `fields for ${columnFormats()}, e.g. id,name,tag,extra.height`, parseColumns);
  return addFilterOptions(command)
    .addHelpText(
      'after',
      examples(
        'plants list',
        'plants list --limit 10',
        'plants list --tag seedling --tag cutting',
        "plants list --name 'Ficus*' -o csv > ficus.csv",
        'plants list --columns id,name,extra.height',
        "plants list --json | jq -r '.[].name'",
        'plants list -o ndjson | wc -l',
      ),
    )
    .action(async (flags: ListFlags) => {
      await run(
        {
          limit: flags.limit,
          output: outputFormat(flags),
          columns: flags.columns,
          filter: { tags: flags.tag ?? [], name: flags.name },
        },
        ctx,
      );
    });
}

async function runList(options: ListOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const format = chosenFormat(options.output, io.stdoutIsTTY);
  if (options.columns && formatWriter(format).shows === 'json') {
    warning(io, `--columns applies to ${columnFormats()}; -o ${format} keeps whole objects`);
  }
  await writePlants(io, filterPlants(plantsUpTo(ctx, options.limit), options.filter), {
    format,
    columns: options.columns,
  });
}
