import type { Plant } from '../api/responses.js';
import { formatWriter, type OutputFormat } from './format-writers.js';
import type { RowView } from './row-encoder.js';
import type { IOStreams } from './iostreams.js';
import { info, warning } from './messages.js';
import { writeRows } from './rows.js';
import { quoted } from '../shared/text.js';

/**
 * The columns of TSV and CSV: fixed, whatever the data, so `cut -f1` is
 * always the id. A table's too, without its ID when no plant has an id.
 */
const DATA_COLUMNS: readonly string[] = ['id', 'name', 'tag'];

/** The value at a dotted path (`extra.height`); undefined where the path leads nowhere. */
export function columnValue(plant: Plant, path: string): unknown {
  return columnReader(path)(plant);
}

/** columnValue for one column, the path split once rather than once per plant. */
function columnReader(path: string): (plant: Plant) => unknown {
  const keys = path.split('.');
  if (keys.length === 1) {
    // A field of the plant itself (id, name, tag): read without a loop.
    return (plant) =>
      typeof plant === 'object' && plant !== null && Object.hasOwn(plant, path)
        ? (plant as Record<string, unknown>)[path]
        : undefined;
  }
  return (plant) => {
    let value: unknown = plant;
    for (const key of keys) {
      if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  };
}

/** A plant's row: the value of each column, in order. */
function rowReader(columns: readonly string[]): (plant: Plant) => unknown[] {
  const readers = columns.map(columnReader);
  return (plant) => {
    const row = new Array<unknown>(readers.length);
    for (let index = 0; index < readers.length; index += 1) row[index] = readers[index]!(plant);
    return row;
  };
}

interface PlantOutputOptions {
  format: OutputFormat;
  /** Columns for table, tsv and csv; JSON formats keep whole objects. */
  columns?: string[];
}

/**
 * Write plants to stdout in the chosen format as they come, batch by
 * batch (see writeRows). Returns how many were written.
 */
export async function writePlants(
  io: IOStreams,
  batches: AsyncIterable<Plant[]> | Iterable<Plant[]>,
  options: PlantOutputOptions,
): Promise<number> {
  const asked = options.columns;
  const columns = asked ?? DATA_COLUMNS;
  const readRow = rowReader(columns);
  // Which of the asked-for columns some plant has, in TSV and CSV (a table checks its own cells).
  const filled = new Array<boolean>(columns.length).fill(false);
  const view: RowView<Plant> = {
    table: {
      // Kept until the table is drawn: the columns' values, not the plants (their other fields).
      values: readRow,
      layout(kept) {
        const has = (index: number, test: (value: unknown) => boolean) => (kept[index] ?? []).some(test);
        // Without --columns: no ID column when no plant has an id, said once, on stderr: not a list to delete from.
        const shown = columns.map((_, index) => index);
        if (!asked && !has(DATA_COLUMNS.indexOf('id'), (id) => id !== undefined && id !== null)) {
          warning(io, 'the service sent no ids: these plants cannot be deleted by id');
          shown.splice(DATA_COLUMNS.indexOf('id'), 1);
        }
        if (asked) warnEmptyColumns(io, asked, (index) => has(index, (value) => value !== undefined));
        const names = shown.map((index) => columns[index]!);
        const id = names.indexOf('id');
        // On a terminal, the table fits its width; the id is never cut.
        return { headers: names.map((c) => c.toUpperCase()), shown, whole: id === -1 ? [] : [id] };
      },
    },
    data: {
      columns,
      values: asked
        ? (plant) => {
            const cells = readRow(plant);
            for (let i = 0; i < cells.length; i += 1) if (cells[i] !== undefined) filled[i] = true;
            return cells;
          }
        : readRow,
    },
    json: (plant) => plant,
  };
  const count = await writeRows(io, options.format, view, batches, 'plant');
  const { shows } = formatWriter(options.format);
  if (count === 0 && shows === 'table') info(io, 'No plants found');
  if (asked && count > 0 && shows === 'data') warnEmptyColumns(io, columns, (index) => filled[index]!);
  return count;
}

/** One warning naming the --columns that no plant listed has: an empty column is usually a misspelt field. */
function warnEmptyColumns(io: IOStreams, columns: readonly string[], filled: (index: number) => boolean): void {
  // A field asked for twice is named once.
  const empty = [...new Set(columns.filter((_, index) => !filled(index)))];
  if (empty.length === 0) return;
  const names = empty.map(quoted).join(', ');
  warning(
    io,
    `--columns ${names}: no plant listed has ${empty.length === 1 ? 'this field' : 'these fields'}, so ${empty.length === 1 ? 'its column is' : 'their columns are'} empty`,
  );
}
