/**
 * How wide each column of a table may be to fit a terminal: the widest
 * columns give way first.
 */

/** Columns between two columns of a table. */
export const GAP = 2;

/**
 * The narrowest a column is cut to: its header's width when that is more,
 * so headers stay whole; its own width when that is less, as it is then
 * not cut at all.
 */
export const MIN_CUT_WIDTH = 8;

/**
 * Column widths that fit `total` columns, gaps included. A table that
 * fits is left as it is. Otherwise the widest columns are cut first: every
 * column is at most some width W, the largest that fits, and columns at W
 * take the columns to spare one each, left to right. No column is cut
 * below its floor (`floors[i]`, at most `natural[i]`; a column that must
 * stay whole has a floor of its own width): when even the floors do not
 * fit, the floors are the widths, and lines are as long as they must be.
 */
export function fitColumns(natural: readonly number[], floors: readonly number[], total: number): number[] {
  const room = total - GAP * (natural.length - 1);
  const capped = (cap: number) => natural.map((width, i) => Math.max(floors[i]!, Math.min(width, cap)));
  if (sum(natural) <= room) return [...natural];
  if (sum(capped(0)) >= room) return capped(0);
  // The largest cap that fits: capped(low) fits, capped(high) does not.
  let low = 0;
  let high = Math.max(...natural);
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (sum(capped(mid)) <= room) low = mid;
    else high = mid;
  }
  const widths = capped(low);
  let spare = room - sum(widths);
  for (let i = 0; i < widths.length && spare > 0; i += 1) {
    if (widths[i] === low && natural[i]! > low) {
      widths[i] = low + 1;
      spare -= 1;
    }
  }
  return widths;
}

function sum(widths: readonly number[]): number {
  return widths.reduce((total, width) => total + width, 0);
}

/** The floor of a column: see MIN_CUT_WIDTH; a column kept whole is its own floor. */
export function columnFloor(natural: number, header: number, whole: boolean): number {
  return whole ? natural : Math.min(natural, Math.max(header, MIN_CUT_WIDTH));
}
