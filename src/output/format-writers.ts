import { csvField, csvFieldPieces, PLAIN_TSV, tsvField, tsvFieldPieces } from './formats.js';
import { jsonEncoder, ndjsonEncoder } from './json-encoders.js';
import { lineEncoder } from './line-encoders.js';
import type { FormatWriter, RowEncoder, RowView, Stdout } from './row-encoder.js';
import { renderColumns } from './table.js';

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
