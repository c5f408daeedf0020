const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Rows of cells as lines, each column as wide as its widest cell on a
 * terminal (wide characters count double), two spaces apart, nothing after
 * the last cell. For short lists of settings (`config profiles`); the
 * plant tables are table.ts's. The cells must be printable already.
 */
export async function alignColumns(rows: readonly (readonly string[])[]): Promise<string[]> {
  // Plain ASCII needs no measuring, nor cli-table3's bundle for its width measure.
  const ascii = rows.every((row) => row.every((cell) => PRINTABLE_ASCII.test(cell)));
  const width = ascii ? (text: string) => text.length : (await import('../vendor/table.js')).strlen;
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
