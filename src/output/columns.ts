import { displayMeasure } from './width.js';

/**
 * Rows of cells as lines, each column as wide as its widest cell on a
 * terminal (by displayMeasure, as tables measure), two spaces apart, nothing after
 * the last cell. For short lists of settings (`config profiles`); the
 * plant tables are table.ts's. The cells must be printable already.
 */
export async function alignColumns(rows: readonly (readonly string[])[]): Promise<string[]> {
  const { width } = await displayMeasure();
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, width(cell));
    });
  }
  return rows.map((row) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - width(cell)))).join('  '),
  );
}
