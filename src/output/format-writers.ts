import { stringifyJson } from '../shared/json.js';
import { jsonPieces } from '../shared/json-writer.js';
import { holdsLarge, LARGE_TEXT } from '../shared/large-values.js';
import type { PlainRows } from '../shared/text.js';
import { csvField, csvFieldPieces, escapeForTerminal, PLAIN_TSV, tsvField, tsvFieldPieces } from './formats.js';
import { renderColumns } from './table.js';

/**
 * What a listing shows of a row in each kind of format. plants list and
 * plants history each have one (plants.ts, src/commands/history.ts).
 */
export interface RowView<T> {
  /**
   * The table. It sizes its columns by all the rows, so it keeps them:
   * only their values in the columns it may show, read as each row
   * arrives, column by column (no object or array a row).
   */
  table: {
    /** A row's values in each column the table may show. */
    values(this: void, row: T): unknown[];
    /**
     * Once every row is in, and only for a listing with rows: the headers,
     * which columns are shown (indices into `values`, in order), and which
     * of the shown are never cut (the id), by their place among them.
     */
    layout(
      this: void,
      columns: readonly (readonly unknown[])[],
    ): { headers: string[]; shown: number[]; whole: number[] };
  };
  /** TSV and CSV columns (CSV's header), and the values of a row. */
  data: { columns: readonly string[]; values(this: void, row: T): unknown[] };
  /** The row as JSON and NDJSON show it. */
  json(this: void, row: T): unknown;
}

/** What a format knows of stdout, read when asked. */
export interface Stdout {
  /** A terminal: JSON is pretty, and what a terminal would act on is escaped. */
  readonly terminal: boolean;
  color(): boolean;
  /** The width to fit to: undefined off a terminal, or for a format that is never cut. Read late: a terminal may be resized. */
  width(): number | undefined;
}

/**
 * Text as one string, or in pieces (some made only as they are read): a
 * large value is never copied into one string with the rest, nor whole.
 */
export type TextPieces = string | Iterable<string | Iterable<string>>;

/** One listing written in one format: its text, piece by piece. */
export interface RowEncoder<T> {
  /** Written before the first row, and alone for a listing with none (JSON's `[`, CSV's header). */
  readonly opening: string;
  /**
   * The text of a batch of rows (never an empty one); in pieces when a row
   * holds a large value (src/shared/large-values.ts).
   */
  rows(rows: readonly T[]): TextPieces;
  /** The rest, once `count` rows have been given: JSON's `]`, the whole table. */
  end(count: number): AsyncIterable<string> | Iterable<string>;
}

/** One output format: how it writes, and what the rest of plants needs to know of it. */
export interface FormatWriter {
  /** Which part of a RowView it shows: only table and data formats take `--columns`; JSON keeps whole objects. */
  shows: 'table' | 'data' | 'json';
  /** Cut to fit the terminal's width (when stdout is one). */
  fitted: boolean;
  /**
   * `plants delete --stdin` reads what `plants list` writes in it back as ids
   * (parseIdInput, src/commands/ids.ts, tells the formats apart by their text).
   */
  readBack: boolean;
  /** An empty listing is still a whole value that says so (`[]`): no "none found" is needed on stderr. */
  showsEmpty: boolean;
  encoder<T>(view: RowView<T>, stdout: Stdout): RowEncoder<T>;
}

/** The aligned table, for people: it waits for every row to size its columns. */
function tableEncoder<T>(view: RowView<T>, stdout: Stdout): RowEncoder<T> {
  const columns: unknown[][] = [];
  let kept = 0;
  return {
    opening: '',
    rows(rows) {
      for (const row of rows) {
        const values = view.table.values(row);
        // By index: a row with fewer values leaves its other cells empty, and none moves up.
        for (let i = 0; i < values.length; i += 1) (columns[i] ??= [])[kept] = values[i];
        kept += 1;
      }
      return '';
    },
    async *end(count) {
      if (count === 0) return;
      const { headers, shown, whole } = view.table.layout(columns);
      const picked = shown.map((i) => columns[i] ?? []);
      yield* renderColumns(headers, picked, kept, stdout.color(), { width: stdout.width(), whole });
    },
  };
}

/** A JSON array, written batch by batch: together they make what JSON.stringify(all, null, 2 or none) would. */
function jsonEncoder<T>(view: RowView<T>, stdout: Stdout): RowEncoder<T> {
  const { terminal } = stdout;
  let first = true;
  return {
    opening: '[',
    rows(rows) {
      const values = rows.map(view.json);
      const lead = first ? '' : ',';
      first = false;
      if (values.some(holdsLarge)) return jsonRowPieces(values, lead, terminal);
      const whole = stringifyJson(values, terminal ? 2 : undefined);
      // A view of the text, not a copy (V8 slices strings): the pieces go out as they are.
      const inner = terminal ? whole.slice(2, -2) : whole.slice(1, -1);
      const pieces = [`${lead}${terminal ? '\n' : ''}`, inner];
      return terminal ? pieces.map(escapeForTerminal) : pieces;
    },
    end: (count) => [terminal && count > 0 ? '\n]\n' : ']\n'],
  };
}

/**
 * JSON rows holding a large value, as the batch's text would be (after
 * `lead`): each row's JSON in pieces (jsonPieces), one level in.
 */
function* jsonRowPieces(values: readonly unknown[], lead: string, terminal: boolean): Generator<string> {
  for (let i = 0; i < values.length; i += 1) {
    yield `${i === 0 ? lead : ','}${terminal ? '\n  ' : ''}`;
    for (const piece of jsonPieces(values[i], terminal ? 2 : undefined, 1)) {
      yield terminal ? escapeForTerminal(piece) : piece;
    }
  }
}

/** One JSON object a line. */
function ndjsonEncoder<T>(view: RowView<T>, { terminal }: Stdout): RowEncoder<T> {
  return {
    opening: '',
    rows(rows) {
      const values = rows.map(view.json);
      if (values.some(holdsLarge)) return ndjsonPieces(values, terminal);
      const text = `${values.map((value) => stringifyJson(value)).join('\n')}\n`;
      return terminal ? escapeForTerminal(text) : text;
    },
    end: () => [],
  };
}

/** NDJSON lines, a line holding a large value in pieces. */
function* ndjsonPieces(values: readonly unknown[], terminal: boolean): Generator<string> {
  const shown = (text: string) => (terminal ? escapeForTerminal(text) : text);
  let lines = '';
  for (const value of values) {
    if (!holdsLarge(value)) {
      // As join() writes an undefined row: nothing.
      lines += `${(stringifyJson(value) as string | undefined) ?? ''}\n`;
      continue;
    }
    yield shown(lines);
    lines = '\n';
    for (const piece of jsonPieces(value)) yield shown(piece);
  }
  yield shown(lines);
}

/** How a line format writes its fields. */
interface LineFields {
  /** One field's text, for one value. */
  cell(value: unknown, terminal: boolean): string;
  /**
   * Piped, for rows that are PlainRows: the field as `cell` gives it, or
   * undefined when it may differ (then the rows are made with `cell`).
   * Its lines are searched once for what else `cell` would escape.
   */
  plain?: { field(value: unknown): string | undefined; escaped: RegExp };
  /** One field of a large value, in pieces: the same text as its cell. */
  pieces(value: unknown, terminal: boolean): Iterable<string>;
}

/** Lines of the data columns, their fields joined by `separator`, after a header if asked. */
function lineEncoder(
  fields: LineFields,
  separator: string,
  end: string,
  header: boolean,
): <T>(view: RowView<T>, stdout: Stdout) => RowEncoder<T> {
  return (view, { terminal }) => ({
    opening: header ? view.data.columns.map((column) => fields.cell(column, terminal)).join(separator) + end : '',
    rows(rows) {
      if (fields.plain && !terminal && (rows as PlainRows).plain) {
        const lines = plainLines(rows, view, fields.plain, separator, end);
        if (lines !== undefined) return lines;
      }
      const pieces: (string | Iterable<string>)[] = [];
      let lines = '';
      rows: for (const row of rows) {
        const values = view.data.values(row);
        // The common row, field by field into its line: no large value, no large field.
        let line = '';
        for (let index = 0; index < values.length; index += 1) {
          const value = values[index];
          const cell = holdsLarge(value) ? undefined : fields.cell(value, terminal);
          if (cell === undefined || cell.length > LARGE_TEXT) {
            // A large field is a piece of its own: never joined with the rest, nor (from a large value) made whole.
            pieces.push(lines);
            lines = '';
            values.forEach((each, at) => {
              if (at > 0) pieces.push(separator);
              // The field just made is not made again (it may be megabytes).
              const made = at === index ? cell : undefined;
              pieces.push(made ?? (holdsLarge(each) ? fields.pieces(each, terminal) : fields.cell(each, terminal)));
            });
            pieces.push(end);
            continue rows;
          }
          line = index === 0 ? cell : line + separator + cell;
        }
        lines += line + end;
      }
      if (pieces.length === 0) return lines;
      pieces.push(lines);
      return pieces;
    },
    end: () => [],
  });
}

/** lineEncoder's lines of PlainRows, each field its own text; undefined when one may need more. */
function plainLines<T>(
  rows: readonly T[],
  view: RowView<T>,
  plain: NonNullable<LineFields['plain']>,
  separator: string,
  end: string,
): string | undefined {
  let lines = '';
  for (const row of rows) {
    const values = view.data.values(row);
    let line = '';
    for (let index = 0; index < values.length; index += 1) {
      const field = plain.field(values[index]);
      if (field === undefined) return undefined;
      line = index === 0 ? field : line + separator + field;
    }
    lines += line + end;
  }
  return plain.escaped.test(lines) ? undefined : lines;
}

/**
 * The output formats (`-o`), in the order help lists them. A new format is
 * an entry here; the flags' choices, their checks and messages follow.
 */
export const FORMAT_WRITERS = {
  table: { shows: 'table', fitted: true, readBack: false, showsEmpty: false, encoder: tableEncoder },
  json: { shows: 'json', fitted: false, readBack: true, showsEmpty: true, encoder: jsonEncoder },
  ndjson: { shows: 'json', fitted: false, readBack: true, showsEmpty: false, encoder: ndjsonEncoder },
  // No header: `cut -f1` is the id column.
  tsv: {
    shows: 'data',
    fitted: false,
    readBack: false,
    showsEmpty: false,
    encoder: lineEncoder({ cell: tsvField, pieces: tsvFieldPieces, plain: PLAIN_TSV }, '\t', '\n', false),
  },
  csv: {
    shows: 'data',
    fitted: false,
    readBack: true,
    showsEmpty: false,
    encoder: lineEncoder({ cell: csvField, pieces: csvFieldPieces }, ',', '\r\n', true),
  },
} as const satisfies Record<string, FormatWriter>;

export type OutputFormat = keyof typeof FORMAT_WRITERS;

export const OUTPUT_FORMATS = Object.keys(FORMAT_WRITERS) as readonly OutputFormat[];

/** The format when none is asked for: a table for a person at a terminal, TSV for a pipe. */
export const DEFAULT_FORMATS = { terminal: 'table', piped: 'tsv' } as const satisfies Record<string, OutputFormat>;

/** The format asked for, else the default for where stdout goes. */
export function chosenFormat(asked: OutputFormat | undefined, terminal: boolean): OutputFormat {
  return asked ?? (terminal ? DEFAULT_FORMATS.terminal : DEFAULT_FORMATS.piped);
}

export function isOutputFormat(name: string): name is OutputFormat {
  return Object.hasOwn(FORMAT_WRITERS, name);
}

export function formatWriter(format: OutputFormat): FormatWriter {
  return FORMAT_WRITERS[format];
}

/** The formats for which `test` holds, in table order. */
export function formatsWhere(test: (writer: FormatWriter) => boolean): OutputFormat[] {
  return OUTPUT_FORMATS.filter((format) => test(FORMAT_WRITERS[format]));
}
