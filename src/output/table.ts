import { palette } from './color.js';
import { tableCell } from './formats.js';

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/** Rows cli-table3 itself lays out (with the header); it slows down more than linearly past a few thousand. */
const ROWS_BY_CLI_TABLE = 200;
/**
 * The longest cell cli-table3 is given. It cuts every cell to 10 columns
 * for a debug log, one character at a time when there are wide characters:
 * time quadratic in the cell's length.
 */
const CLI_TABLE_MAX_CELL = 100;
const ROWS_PER_BLOCK = 1000;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * An aligned cli-table3 table with a bold header, for a person at a
 * terminal. Yields text blocks so a large table is written as it is made.
 *
 * cli-table3 lays out the header and the first rows; the rest are padded
 * to the same column widths with cli-table3's own width measure, so the
 * look is the same and the cost stays linear (cli-table3 alone slows down
 * more than linearly with rows, and overflows the stack on very large tables).
 * A table with a cell longer than CLI_TABLE_MAX_CELL is laid out here
 * whole, header included, the same way.
 */
export async function* renderTable(
  headers: readonly string[],
  rows: readonly (readonly unknown[])[],
  color: boolean,
): AsyncGenerator<string> {
  const [{ Table, strlen }, c] = await Promise.all([import('../vendor/table.js'), palette(color)]);
  // Wide characters count double, as on the terminal; plain ASCII needs no measuring.
  const width = (text: string) => (PRINTABLE_ASCII.test(text) ? text.length : strlen(text));
  const cells = rows.map((row) => row.map(tableCell));
  const colWidths = headers.map((header, i) =>
    cells.reduce((most, row) => Math.max(most, width(row[i] ?? '')), width(header)),
  );

  const last = headers.length - 1;
  // As cli-table3 does: pad each cell to its column's width (the header's after its colour),
  // two spaces between columns; then no trailing spaces, as cli-table3's rows are trimmed.
  const line = (row: readonly string[], shown: readonly string[] = row) =>
    trimSpaces(
      shown
        .map((cell, i) => (i === last ? cell : cell + ' '.repeat(Math.max(0, colWidths[i]! - width(row[i]!)))))
        .join(BORDERLESS.middle),
    );

  const first = cells.slice(0, ROWS_BY_CLI_TABLE);
  const short = (text: string) => text.length <= CLI_TABLE_MAX_CELL;
  let start = 0;
  if (headers.every(short) && first.every((row) => row.every(short))) {
    const table = new Table({
      head: headers.map((header) => c.bold(header)),
      colWidths,
      // cli-table3 colours headers red by default; colour is decided here instead.
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
      // Borderless, columns two spaces apart: one line per plant, easy to copy from.
      chars: BORDERLESS,
    });
    table.push(...first);
    // Borderless rows keep the padding of the last column; trim it.
    yield `${table.toString().split('\n').map(trimSpaces).join('\n')}\n`;
    start = ROWS_BY_CLI_TABLE;
  } else {
    yield `${line(
      headers,
      headers.map((header) => c.bold(header)),
    )}\n`;
  }
  for (; start < cells.length; start += ROWS_PER_BLOCK) {
    yield `${cells
      .slice(start, start + ROWS_PER_BLOCK)
      .map((row) => line(row))
      .join('\n')}\n`;
  }
}

/**
 * The text without its trailing spaces. A loop: / +$/ tries every space of
 * a run that more text follows, which is quadratic in a padded column.
 */
function trimSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 32) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}
