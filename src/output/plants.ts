import type { Plant } from '../api/responses.js';
import { csvLine, formatJson, tsvLine } from './formats.js';
import { writeAll, writeOut, type IOStreams } from './iostreams.js';
import { info } from './messages.js';
import { renderTable } from './table.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'tsv', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** ID (only when some plant has an id), NAME, TAG. */
export function defaultColumns(plants: readonly Plant[]): string[] {
  const withId = plants.some((plant) => plant.id !== undefined && plant.id !== null);
  return withId ? ['id', 'name', 'tag'] : ['name', 'tag'];
}

/** The value at a dotted path (`extra.height`); undefined where the path leads nowhere. */
export function columnValue(plant: Plant, path: string): unknown {
  let value: unknown = plant;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export interface PlantOutputOptions {
  format: OutputFormat;
  /** Columns for table, tsv and csv; JSON formats keep whole objects. */
  columns?: string[];
}

/** Write plants to stdout in the chosen format. */
export async function writePlants(io: IOStreams, plants: readonly Plant[], options: PlantOutputOptions): Promise<void> {
  const { format } = options;
  const terminal = io.stdoutIsTTY;
  if (format === 'json') {
    await writeOut(io.stdout, formatJson(plants, terminal));
    return;
  }
  if (format === 'ndjson') {
    await writeAll(io.stdout, plants.map((plant) => formatJson(plant, false, terminal)));
    return;
  }
  // CSV's header row is a contract: fixed unless --columns says otherwise.
  const columns = options.columns ?? (format === 'csv' ? ['id', 'name', 'tag'] : defaultColumns(plants));
  const rows = plants.map((plant) => columns.map((column) => columnValue(plant, column)));
  if (format === 'tsv') {
    await writeAll(io.stdout, rows.map(tsvLine));
  } else if (format === 'csv') {
    await writeAll(io.stdout, [csvLine(columns, terminal), ...rows.map((row) => csvLine(row, terminal))]);
  } else if (plants.length === 0) {
    info(io, 'No plants found');
  } else {
    const headers = columns.map((column) => column.toUpperCase());
    for await (const block of renderTable(headers, rows, io.stdoutColor)) await writeOut(io.stdout, block);
  }
}
