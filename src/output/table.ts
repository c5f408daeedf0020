import { palette } from './color.js';
import { tableCell } from './formats.js';

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
    style: { head: [], border: [] },
  });
  for (const row of rows) table.push(row.map(tableCell));
  return `${table.toString()}\n`;
}
