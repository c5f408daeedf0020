import { holdsLarge, LARGE_TEXT } from '../shared/large-values.js';
import type { PlainRows } from '../shared/text.js';
import type { RowEncoder, RowView, Stdout } from './row-encoder.js';

/** How a line format writes its fields. */
export interface LineFields {
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
export function lineEncoder(
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
