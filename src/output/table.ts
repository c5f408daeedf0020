import { commonJs } from '../commonjs.js';
import { palette } from './color.js';
import { tableCell } from './formats.js';

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '',
  right: '', 'right-mid': '', middle: '  ',
};

/**
 * cli-table3 slows down more than linearly with rows and overflows the stack
 * past about 120,000, so rows are rendered in blocks that share column widths.
 */
const ROWS_PER_BLOCK = 200;

/**
 * An aligned cli-table3 table with a bold header, for a person at a
 * terminal. Yields text blocks so a large table is written as it is made.
 */
export async function* renderTable(
  headers: readonly string[],
  rows: readonly (readonly unknown[])[],
  color: boolean,
): AsyncGenerator<string> {
  const [{ default: Table }, utils, c] = await Promise.all([
    import('cli-table3'),
    // cli-table3's own measure (wide characters count double), so the widths agree with its layout.
    import('cli-table3/src/utils.js'),
    palette(color),
  ]);
  const { strlen } = commonJs(utils);
  const cells = rows.map((row) => row.map(tableCell));
  const colWidths = headers.map((header, i) =>
    cells.reduce((width, row) => Math.max(width, strlen(row[i] ?? '')), strlen(header)),
  );
  const block = (head: string[], body: string[][]) => {
    const table = new Table({
      head,
      colWidths,
      // cli-table3 colours headers red by default; colour is decided here instead.
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
      // Borderless, columns two spaces apart: one line per plant, easy to copy from.
      chars: BORDERLESS,
    });
    table.push(...body);
    // Borderless rows keep the padding of the last column; trim it.
    return `${table.toString().replace(/ +$/gm, '')}\n`;
  };
  yield block(headers.map((header) => c.bold(header)), cells.slice(0, ROWS_PER_BLOCK));
  for (let start = ROWS_PER_BLOCK; start < cells.length; start += ROWS_PER_BLOCK) {
    yield block([], cells.slice(start, start + ROWS_PER_BLOCK));
  }
}
