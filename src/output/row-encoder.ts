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
