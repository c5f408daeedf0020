import { palette } from './color.js';
import { tableCell } from './formats.js';

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '',
  right: '', 'right-mid': '', middle: '  ',
};

/** An aligned cli-table3 table with a bold header, for a person at a terminal. */
export async function renderTable(
  headers: readonly string[],
  rows: readonly (readonly unknown[])[],
  color: boolean,
): Promise<string> {
  const [{ default: Table }, c] = await Promise.all([import('cli-table3'), palette(color)]);
  const table = new Table({
    head: headers.map((header) => c.bold(header)),
    // cli-table3 colours headers red by default; colour is decided here instead.
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    // Borderless, columns two spaces apart: one line per plant, easy to copy from.
    chars: BORDERLESS,
  });
  for (const row of rows) table.push(row.map(tableCell));
  // Borderless rows keep the padding of the last column; trim it.
  return `${table.toString().replace(/ +$/gm, '')}\n`;
}
