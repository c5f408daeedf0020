import type { Plant } from '../api/responses.js';
import { stringifyJson } from '../json.js';
import { csvLine, escapeForTerminal, tsvLine } from './formats.js';
import { readerGone, writeOut, type IOStreams } from './iostreams.js';
import { info, warning } from './messages.js';
import { renderTable } from './table.js';
import { quoted } from '../shared/text.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'tsv', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

function hasId(plant: Plant): boolean {
  return plant.id !== undefined && plant.id !== null;
}

/** The columns of TSV and CSV: fixed, whatever the data, so `cut -f1` is always the id. */
const DATA_COLUMNS: readonly string[] = ['id', 'name', 'tag'];

/** A table's columns, for people: ID only when some plant has an id, then NAME, TAG. */
function tableColumns(plants: readonly Plant[]): string[] {
  return plants.some(hasId) ? [...DATA_COLUMNS] : ['name', 'tag'];
}

/** The value at a dotted path (`extra.height`); undefined where the path leads nowhere. */
export function columnValue(plant: Plant, path: string): unknown {
  return columnReader(path)(plant);
}

/** columnValue for one column, the path split once rather than once per plant. */
function columnReader(path: string): (plant: Plant) => unknown {
  const keys = path.split('.');
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
  return (plant) => readers.map((read) => read(plant));
}

interface PlantOutputOptions {
  format: OutputFormat;
  /** Columns for table, tsv and csv; JSON formats keep whole objects. */
  columns?: string[];
}

const FLUSH_AT = 64 * 1024;
const FLUSH_AFTER_MS = 100;

/** Text written in large pieces, each waited for: output keeps pace with the reader. */
class Output {
  #buffer = '';
  #flushedAt = Date.now();
  constructor(private readonly io: IOStreams) {}

  /** Written when 64 K characters have gathered, or 100 ms have passed: a slow service's plants show as they come. */
  async add(text: string): Promise<void> {
    this.#buffer += text;
    if (this.#buffer.length >= FLUSH_AT || Date.now() - this.#flushedAt >= FLUSH_AFTER_MS) await this.flush();
  }

  async flush(): Promise<void> {
    this.#flushedAt = Date.now();
    if (!this.#buffer) return;
    const text = this.#buffer;
    this.#buffer = '';
    await writeOut(this.io.stdout, text);
  }
}

/**
 * Write plants to stdout in the chosen format as they come, batch by
 * batch: every format but the table (which needs every row to size its
 * columns) holds one batch at a time. Returns how many were written.
 */
export async function writePlants(
  io: IOStreams,
  batches: AsyncIterable<Plant[]> | Iterable<Plant[]>,
  options: PlantOutputOptions,
): Promise<number> {
  const { format } = options;
  const terminal = io.stdoutIsTTY;
  const out = new Output(io);
  let count = 0;

  if (format === 'table') {
    const all: Plant[] = [];
    for await (const batch of batches) all.push(...batch);
    if (all.length === 0) {
      info(io, 'No plants found');
      return 0;
    }
    const columns = options.columns ?? tableColumns(all);
    // Said once, on stderr: a table without an ID column is not a list to delete from.
    if (!options.columns && !columns.includes('id')) {
      warning(io, 'the service sent no ids: these plants cannot be deleted by id');
    }
    const rows = all.map(rowReader(columns));
    if (options.columns)
      warnEmptyColumns(io, options.columns, (index) => rows.some((cells) => cells[index] !== undefined));
    const id = columns.indexOf('id');
    for await (const block of renderTable(
      columns.map((c) => c.toUpperCase()),
      rows,
      io.colorEnabled('stdout'),
      // On a terminal, the table fits its width; the id is never cut.
      { width: io.terminalWidth('stdout'), whole: id === -1 ? [] : [id] },
    ))
      await out.add(block);
    await out.flush();
    return all.length;
  }

  const columns = options.columns ?? DATA_COLUMNS;
  const readRow = rowReader(columns);
  // Which of the asked-for columns some plant has (tables, TSV and CSV; JSON keeps whole objects).
  const filled = new Array<boolean>(columns.length).fill(false);
  const track = options.columns !== undefined && format !== 'json' && format !== 'ndjson';
  const row = track
    ? (plant: Plant) => {
        const cells = readRow(plant);
        for (let i = 0; i < cells.length; i += 1) if (cells[i] !== undefined) filled[i] = true;
        return cells;
      }
    : readRow;
  // Nothing reaches stdout before the first plants have arrived and been checked
  // (or the list has ended): a run that fails early leaves no half-made JSON or
  // bare CSV header behind.
  const opening = format === 'json' ? '[' : format === 'csv' ? csvLine(columns, terminal) : '';
  const line = (values: unknown[]) => (format === 'csv' ? csvLine(values, terminal) : tsvLine(values, terminal));
  try {
    for await (const batch of batches) {
      if (batch.length === 0) continue;
      let text: string;
      if (format === 'json') {
        // Together, the batches make what JSON.stringify(all, null, 2 or none) would.
        const whole = stringifyJson(batch, terminal ? 2 : undefined);
        const inner = terminal ? whole.slice(2, -2) : whole.slice(1, -1);
        text = `${count === 0 ? '' : ','}${terminal ? '\n' : ''}${inner}`;
      } else if (format === 'ndjson') {
        text = `${batch.map((plant) => stringifyJson(plant)).join('\n')}\n`;
      } else {
        text = batch.map((plant) => line(row(plant))).join('');
      }
      if (count === 0) await out.add(opening);
      await out.add(terminal && (format === 'json' || format === 'ndjson') ? escapeForTerminal(text) : text);
      count += batch.length;
      // The reader went away (`| head`): stop, which also stops reading the response.
      if (readerGone(io.stdout)) break;
    }
  } finally {
    // On an error halfway, what was read and checked before it still reaches stdout.
    await out.flush();
  }
  // The list ended: an empty one is still a whole document (`[]`, the CSV header).
  if (count === 0) await out.add(opening);
  if (format === 'json') await out.add(terminal && count > 0 ? '\n]\n' : ']\n');
  await out.flush();
  if (track && count > 0) warnEmptyColumns(io, columns, (index) => filled[index]!);
  return count;
}

/** One warning naming the --columns that no plant listed has: an empty column is usually a misspelt field. */
function warnEmptyColumns(io: IOStreams, columns: readonly string[], filled: (index: number) => boolean): void {
  const empty = columns.filter((_, index) => !filled(index));
  if (empty.length === 0) return;
  const names = empty.map(quoted).join(', ');
  warning(
    io,
    `--columns ${names}: no plant listed has ${empty.length === 1 ? 'this field' : 'these fields'}, so ${empty.length === 1 ? 'its column is' : 'their columns are'} empty`,
  );
}
