import { LARGE_TEXT } from '../shared/large-values.js';
import { palette } from './color.js';
import { columnFloor, fitColumns } from './fit.js';
import { tableCell } from './formats.js';
import { displayMeasure, type DisplayMeasure } from './width.js';

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

/**
 * Rows cli-table3 itself lays out (with the header). It takes about 0.1 ms a
 * row (200 rows were 5% of a table of 100,000) and slows down more than
 * linearly past a few thousand; later rows are padded here the same way.
 */
const ROWS_BY_CLI_TABLE = 20;
/**
 * The longest cell cli-table3 is given. It cuts every cell to 10 columns
 * for a debug log, one character at a time when there are wide characters:
 * time quadratic in the cell's length.
 */
const CLI_TABLE_MAX_CELL = 100;
const ROWS_PER_BLOCK = 1000;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** How a table fits a terminal. */
export interface TableFit {
  /** The terminal's width in columns; undefined (a pipe, a file): nothing is cut. */
  width?: number | undefined;
  /** Columns never cut (the id), by index. */
  whole?: readonly number[];
}

/**
 * An aligned cli-table3 table with a bold header, for a person at a
 * terminal. Yields text blocks so a large table is written as it is made.
 *
 * Widths are displayMeasure's (src/output/width.ts), as for every table
 * and column. cli-table3 lays out the header and the first rows of a table
 * of printable ASCII; the rest are padded to the same column widths the
 * same way, so the look is the same and the cost stays linear (cli-table3
 * alone slows down more than linearly with rows, and overflows the stack on
 * very large tables). A table with a cell longer than CLI_TABLE_MAX_CELL,
 * or with any other character (which cli-table3 would measure by its own
 * measure), is laid out here whole, header included, the same way.
 *
 * With `fit.width`, a table wider than that is cut to fit (see fitColumns):
 * cells end in `…`, never wrap, and the `fit.whole` columns are never cut.
 */
export async function* renderTable(
  headers: readonly string[],
  rows: readonly (readonly unknown[])[],
  color: boolean,
  fit: TableFit = {},
): AsyncGenerator<string> {
  const columns = headers.map((_, i) => rows.map((row) => row[i]));
  yield* renderColumns(headers, columns, rows.length, color, fit);
}

/**
 * renderTable of a table given column by column (`columns[i][r]`, `count`
 * rows): what a long listing keeps, an array a column rather than one a row.
 */
export async function* renderColumns(
  headers: readonly string[],
  columns: readonly (readonly unknown[])[],
  count: number,
  color: boolean,
  fit: TableFit = {},
): AsyncGenerator<string> {
  const [{ Table }, c, measure] = await Promise.all([import('../vendor/table.js'), palette(color), displayMeasure()]);
  const widthOf = measuredOnce(measure.width);
  const cells = tableCells(headers.length, columns, count, widthOf);
  const colWidths = fittedWidths(headers, cells, fit, measure, widthOf);
  const { texts } = cells;
  const row = (r: number) => texts.map((column) => column[r]!);
  const lines = lineMakers(headers, cells, colWidths, widthOf);
  const large =
    colWidths.some((most) => most >= LARGE_TEXT) ||
    texts.some((column) => column.some((cell) => cell.length >= LARGE_TEXT));

  const bold = headers.map((header) => c.bold(header));
  if (large) {
    yield* lines.linePieces(headers, bold);
    for (let r = 0; r < count; r += 1) yield* lines.linePieces(row(r));
    return;
  }
  // cli-table3 pads by its own measure, which agrees with the terminal's on printable ASCII only.
  const laidOutAlike = (text: string) => text.length <= CLI_TABLE_MAX_CELL && PRINTABLE_ASCII.test(text);
  const first = Math.min(count, ROWS_BY_CLI_TABLE);
  let start = 0;
  if (headers.every(laidOutAlike) && texts.every((column) => column.slice(0, first).every(laidOutAlike))) {
    const table = new Table({
      head: bold,
      colWidths,
      // cli-table3 colours headers red by default; colour is decided here instead.
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
      // Borderless, columns two spaces apart: one line per plant, easy to copy from.
      chars: BORDERLESS,
    });
    for (let r = 0; r < first; r += 1) table.push(row(r));
    // Borderless rows keep the padding of the last column; trim it.
    yield `${table.toString().split('\n').map(trimSpaces).join('\n')}\n`;
    start = first;
  } else {
    yield `${lines.headerLine(bold)}\n`;
  }
  for (; start < count; start += ROWS_PER_BLOCK) {
    let block = '';
    for (let r = start; r < Math.min(start + ROWS_PER_BLOCK, count); r += 1) block += `${lines.line(r)}\n`;
    yield block;
  }
}

/** Each cell's text and width, column by column (`texts[i][r]`). */
interface TableCells {
  texts: string[][];
  widths: number[][];
}

/** The measure, but a large cell is measured once: reading it takes long, and it is read again to pad it. */
function measuredOnce(width: (text: string) => number): (text: string) => number {
  const measured = new Map<string, number>();
  return (text) => {
    if (text.length < LARGE_TEXT) return width(text);
    let most = measured.get(text);
    if (most === undefined) measured.set(text, (most = width(text)));
    return most;
  };
}

/** Each cell's text (tableCell) and width, column by column; each cell measured once. */
function tableCells(
  columnCount: number,
  columns: readonly (readonly unknown[])[],
  count: number,
  widthOf: (text: string) => number,
): TableCells {
  const texts: string[][] = [];
  const widths: number[][] = [];
  for (let i = 0; i < columnCount; i += 1) {
    const column = columns[i] ?? [];
    const cells = new Array<string>(count);
    const cellWidths = new Array<number>(count);
    for (let r = 0; r < count; r += 1) {
      const value = column[r];
      // Most cells: a string of printable ASCII (shown as it is, one column a character) or a
      // number (its digits); one test tells both what tableCell and the measure would find.
      const plain =
        typeof value === 'number'
          ? String(value)
          : typeof value === 'string' && PRINTABLE_ASCII.test(value)
            ? value
            : undefined;
      const cell = plain ?? tableCell(value);
      cells[r] = cell;
      cellWidths[r] = plain === undefined ? widthOf(cell) : plain.length;
    }
    texts.push(cells);
    widths.push(cellWidths);
  }
  return { texts, widths };
}

/**
 * The columns' widths: each its widest cell or header; with `fit.width`, the
 * cells of the columns fitColumns narrows are cut (in `cells`) to fit.
 */
function fittedWidths(
  headers: readonly string[],
  cells: TableCells,
  fit: TableFit,
  { width, cut }: DisplayMeasure,
  widthOf: (text: string) => number,
): number[] {
  const widest = () =>
    headers.map((header, i) => {
      let most = width(header);
      for (const each of cells.widths[i]!) if (each > most) most = each;
      return most;
    });
  const natural = widest();
  if (fit.width === undefined) return natural;
  const fitted = fitColumns(
    natural,
    natural.map((most, i) => columnFloor(most, width(headers[i]!), fit.whole?.includes(i) ?? false)),
    fit.width,
  );
  if (!fitted.some((most, i) => most < natural[i]!)) return natural;
  fitted.forEach((most, i) => {
    if (!(most < natural[i]!)) return;
    cells.texts[i] = cells.texts[i]!.map((cell) => cut(cell, most));
    cells.widths[i] = cells.texts[i].map(widthOf);
  });
  // A wide character that did not fit can leave a column narrower still.
  return widest();
}

/**
 * The table's lines, padded as cli-table3 pads them: each cell to its
 * column's width (the header's after its colour), two spaces between
 * columns; then no trailing spaces, as cli-table3's rows are trimmed.
 */
function lineMakers(
  headers: readonly string[],
  { texts, widths }: TableCells,
  colWidths: readonly number[],
  widthOf: (text: string) => number,
) {
  const last = headers.length - 1;
  const paddings: string[] = [];
  const padding = (spaces: number) => (spaces <= 0 ? '' : (paddings[spaces] ??= ' '.repeat(spaces)));
  const headerLine = (shown: readonly string[]) => {
    let text = '';
    for (let i = 0; i <= last; i += 1) {
      if (i > 0) text += BORDERLESS.middle;
      text += shown[i]!;
      if (i !== last) text += padding(colWidths[i]! - widthOf(headers[i]!));
    }
    return trimSpaces(text);
  };
  const line = (r: number) => {
    let text = '';
    for (let i = 0; i <= last; i += 1) {
      if (i > 0) text += BORDERLESS.middle;
      text += texts[i]![r]!;
      if (i !== last) text += padding(colWidths[i]! - widths[i]![r]!);
    }
    // Only a last cell that is empty or ends in a space leaves spaces at the end: the line is
    // not read (which would copy it whole) to find none.
    const end = texts[last]![r]!;
    return end === '' || end.charCodeAt(end.length - 1) === 32 ? trimSpaces(text) : text;
  };
  // The same line in pieces, for a table with a large cell or column: neither a cell nor its padding
  // is copied into a line (nor a line into a block), each of which could be as large.
  function* linePieces(cells: readonly string[], shown: readonly string[] = cells): Generator<string> {
    // What follows the last cell with more than spaces is spaces only, left out as trimSpaces leaves it out.
    let end = last;
    while (end >= 0 && trimSpaces(shown[end]!) === '') end -= 1;
    for (let i = 0; i < end; i += 1) {
      yield shown[i]!;
      yield* spaces(Math.max(0, colWidths[i]! - widthOf(cells[i]!)));
      yield BORDERLESS.middle;
    }
    if (end >= 0) yield trimSpaces(shown[end]!);
    yield '\n';
  }
  return { headerLine, line, linePieces };
}

/** `count` spaces, in slices of at most LARGE_TEXT (views of one string). */
function* spaces(count: number): Generator<string> {
  if (count === 0) return;
  const block = ' '.repeat(Math.min(count, LARGE_TEXT));
  for (let left = count; left > 0; left -= block.length) yield left >= block.length ? block : block.slice(0, left);
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
