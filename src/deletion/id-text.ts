import { parseCsvLines } from '../shared/csv.js';
import { UsageError } from '../shared/errors.js';
import { maskSecrets } from '../secrets/registry.js';
import { excerpt, printable, quoted, wordList } from '../shared/text.js';

/**
 * Ids from text that is not JSON: CSV with an id column, or ids separated
 * by whitespace. What `plants list` prints for people (a table, TSV rows,
 * CSV without an id column) holds names and tags too, and is refused: a
 * name such as "Ficus 7" must never become the id 7.
 */

// Only ASCII whitespace separates ids: NBSP, U+2028 and the like are part of an id.
const ASCII_SPACE = '[ \\t\\n\\r\\f\\v]';
const SEPARATOR = new RegExp(`${ASCII_SPACE}+`);
const EDGE_SPACE = new RegExp(`^${ASCII_SPACE}+|${ASCII_SPACE}+$`, 'g');
/** The columns plants prints by default; a header naming one is plants' own output. */
const KNOWN_COLUMNS = new Set(['id', 'name', 'tag']);
/** A column name as a table header shows it (`ID`, `NAME`, `EXTRA.HEIGHT`). */
const TABLE_HEADER_WORD = /^[A-Z][A-Z0-9_-]*(\.[A-Z0-9_-]+)*$/;
/** A field path as `--columns` takes it (`extra.height`). */
const COLUMN_PATH = /^[A-Za-z_][\w-]*(\.[\w-]+)+$/;
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;
/** Control characters other than the ASCII whitespace that separates ids. */
// eslint-disable-next-line no-control-regex
const CONTROL_NOT_SPACE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/;

const NOTHING = 'nothing was deleted';
/**
 * The formats of plants list that parseIdInput reads back, as help lists
 * them, each with the flag that asks for it. output/format-writers.ts marks
 * the same formats `readBack` (a unit test keeps the two the same).
 */
export const READ_BACK_FORMATS = [
  { format: 'json', flag: '--json' },
  { format: 'ndjson', flag: '-o ndjson' },
  { format: 'csv', flag: '-o csv' },
] as const;

/** What to pipe instead: the formats of plants list that hold ids only where they are named (`--json, -o ndjson or -o csv`). */
function instead(): string {
  return `pipe plants list ${wordList(
    READ_BACK_FORMATS.map(({ flag }) => flag),
    'or',
  )} instead`;
}

/** `text` with ASCII whitespace trimmed from both ends (other spaces belong to ids). */
export function trimAsciiSpace(text: string): string {
  return text.replace(EDGE_SPACE, '');
}

/**
 * `text` without the blank lines (ASCII white space only) at its start and
 * end: its first and last lines keep their spaces, as every other line
 * does (`rose ` is refused, or in CSV an id with a space, wherever it is).
 */
export function trimBlankLines(text: string): string {
  let first = 0;
  while (first < text.length && isAsciiSpace(text.charCodeAt(first))) first += 1;
  if (first === text.length) return '';
  let last = text.length - 1;
  while (isAsciiSpace(text.charCodeAt(last))) last -= 1;
  // From the start of the first line with more than spaces to the end of the last one.
  const start = Math.max(text.lastIndexOf('\n', first), text.lastIndexOf('\r', first)) + 1;
  const breakAfter = text.slice(last + 1).search(/[\r\n]/);
  return text.slice(start, breakAfter === -1 ? text.length : last + 1 + breakAfter);
}

/** Space, tab, line feed, vertical tab, form feed, carriage return. */
function isAsciiSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/** The line breaks (CRLF, LF or CR) in the blank lines trimAsciiSpace takes off the start of `text`. */
export function leadingLineBreaks(text: string): number {
  return /^[ \t\n\r\f\v]*/.exec(text)![0].match(/\r\n|\r|\n/g)?.length ?? 0;
}

/**
 * Ids from `text`, its blank lines at either end taken off
 * (trimBlankLines); `startLine` is the line of standard input it starts
 * on, for messages; `untrimmed`, the text before they were taken off (a
 * tab there is still TSV: `\tMonstera\t` is the one row of plants with no
 * id).
 */
export function idsFromText(text: string, startLine = 1, untrimmed = text): string[] {
  const firstLine = /^[^\r\n]*/.exec(text)![0];
  // jq without -r prints strings quoted, one a line; a quoted `"id"` is a CSV header.
  const lone = /^"([^",]*)"$/.exec(firstLine);
  if (lone && lone[1]!.toLowerCase() !== 'id') throw quotedId(firstLine);
  if (firstLine.includes('\t')) throw tabSeparated();
  if (firstLine.includes(',') || firstLine.startsWith('"')) return idsFromCsv(text, startLine, untrimmed);
  const words = firstLine.replace(SGR, '').split(SEPARATOR);
  if (words.length === 1) {
    const word = words[0]!;
    // `-o csv --columns id` or a table of ids only: a header, then one id a line.
    if (word.toLowerCase() === 'id') return idsFromCsv(text, startLine, untrimmed);
    // The header of a one-column table or CSV of something else: names, not ids.
    const endsInCrlf = text.startsWith(`${firstLine}\r\n`);
    if (
      KNOWN_COLUMNS.has(word.toLowerCase()) ||
      (TABLE_HEADER_WORD.test(word) && word.includes('.')) ||
      (endsInCrlf && COLUMN_PATH.test(word))
    ) {
      throw new UsageError(
        `standard input starts with the header ${printable(excerpt(word, 60))} and has no id column; its values are not ids: ${instead()}; ${NOTHING}`,
      );
    }
  } else if (
    words.every((word) => TABLE_HEADER_WORD.test(word)) &&
    (words.some((word) => KNOWN_COLUMNS.has(word.toLowerCase()) || word.includes('.')) || / {2}/.test(firstLine))
  ) {
    throw new UsageError(
      `standard input looks like a table (its first line is the header ${printable(excerpt(firstLine, 60))}); its cells are not ids: ${instead()}; ${NOTHING}`,
    );
  }
  if (untrimmed.includes('\t')) throw tabSeparated();
  if (CONTROL_NOT_SPACE.test(text)) {
    throw new UsageError(
      `standard input holds control characters (coloured or terminal output?); ${instead()}; ${NOTHING}`,
    );
  }
  // One id a line, taken whole: what cut -f1, jq -r and printf '%s\n' print. A line that could be
  // read two ways is refused: `Ficus 7` (one id, or the ids Ficus and 7?), `b\tc` (cut -f1's escape
  // of a tab, or a backslash as jq -r writes it?).
  const ids: string[] = [];
  text.split(LINE_BREAK).forEach((line, index) => {
    if (EDGE_SPACE_ONLY.test(line)) return;
    const where = `line ${startLine + index} of standard input`;
    if (/^".*"$/.test(line)) throw quotedId(line);
    // What jq prints for a missing field (`jq -r '.[].id'` over a plant without one): no id at all.
    if (line === 'null') {
      throw new UsageError(
        `${where} is null, as jq prints a field that is missing: it names no plant (an id that is the word null can be passed as an argument); ${NOTHING}`,
      );
    }
    if (INNER_SPACE.test(line)) {
      // Masked before it is cut (a cut token would escape the writer's mask): a pasted header may hold one.
      const masked = maskSecrets(line);
      throw new UsageError(
        `${where} holds a space (${quoted(masked.length > 60 ? `${masked.slice(0, 60)}…` : masked)}), so it may be one id or several: put each id on a line of its own, pass the ids as arguments, or ${instead()}; ${NOTHING}`,
      );
    }
    if (line.includes('\\')) {
      throw new UsageError(
        `${where} holds a backslash (${printable(excerpt(maskSecrets(line), 60))}): plants list -o tsv writes a tab in an id as \\t and jq -r writes it as it is, so which id is meant cannot be told; ${instead()}; ${NOTHING}`,
      );
    }
    ids.push(line);
  });
  return ids;
}

const LINE_BREAK = /\r\n|\r|\n/;
/** A line of ASCII spaces only, or none: no id. */
const EDGE_SPACE_ONLY = new RegExp(`^${ASCII_SPACE}*$`);
/** ASCII space within a line (tabs are refused before, as plants list's output). */
const INNER_SPACE = /[ \f\v]/;

/** plants list's piped output: its fields hold names and tags, not only ids. */
function tabSeparated(): UsageError {
  return new UsageError(
    `standard input holds tab-separated lines (plants list output?); ${instead()}, or cut -f1 for the id column; ${NOTHING}`,
  );
}

function quotedId(id: string): UsageError {
  return new UsageError(
    `standard input holds the quoted id ${printable(id)} (jq output without -r?); pass ids unquoted; ${NOTHING}`,
  );
}

/**
 * The id column of CSV with a header row. A header without one, a record
 * whose field count differs from the header's (a stray comma would shift
 * the columns) and a record without an id are refused.
 */
function idsFromCsv(text: string, startLine: number, untrimmed: string): string[] {
  let records: string[][];
  let lines: number[];
  try {
    ({ records, lines } = parseCsvLines(text, startLine));
  } catch (err) {
    throw new UsageError(`standard input looks like CSV but cannot be read: ${(err as Error).message}; ${NOTHING}`);
  }
  const header = records[0]!.map((name) => trimAsciiSpace(name));
  const column = header.findIndex((name) => name.toLowerCase() === 'id');
  if (column === -1) {
    throw new UsageError(
      `standard input is CSV without an id column (its header is ${printable(excerpt(header.join(','), 60))}); add id to --columns, or pipe plants list --json; ${NOTHING}`,
    );
  }
  // More columns named id (`--columns id,name,id` writes the same twice): they must agree.
  const others = header.flatMap((name, index) => (index > column && name.toLowerCase() === 'id' ? [index] : []));
  let blank = blankLinesAfter(text, untrimmed);
  const ids = records.slice(1).flatMap((record, index) => {
    // Where the record starts, as an editor numbers the input's lines.
    const line = lines[index + 1]!;
    // A blank line is no record.
    if (record.length === 1 && trimAsciiSpace(record[0]!) === '') {
      blank += 1;
      return [];
    }
    if (record.length !== header.length) {
      throw new UsageError(
        `line ${line} of standard input has ${record.length} fields, but the CSV header has ${header.length}; ${NOTHING}`,
      );
    }
    const id = record[column]!;
    if (others.some((other) => record[other] !== id)) {
      throw new UsageError(
        `line ${line} of standard input has different values in its ${others.length + 1} id columns, so which is the id cannot be told (write id once in --columns); ${NOTHING}`,
      );
    }
    if (trimAsciiSpace(id) === '') {
      throw new UsageError(
        `line ${line} of standard input has no id; plants without ids cannot be deleted by id; ${NOTHING}`,
      );
    }
    return [id];
  });
  // Rows, but blank ones only: `-o csv --columns id` writes a plant without an id so. Only a header is an empty selection.
  if (ids.length === 0 && blank > 0) {
    throw new UsageError(
      `standard input is CSV whose ${blank === 1 ? 'one row' : `${blank} rows`} after the header ${blank === 1 ? 'is' : 'are'} blank: ` +
        `it names no plant (a plant without an id is written so); ${NOTHING}`,
    );
  }
  return ids;
}

/** Blank lines in `untrimmed` after `text` (which trimBlankLines cut from it): past the line end of text's last line. */
function blankLinesAfter(text: string, untrimmed: string): number {
  const rest = untrimmed.slice(untrimmed.indexOf(text) + text.length).split(LINE_BREAK);
  // The first piece ends text's last line; a last empty piece follows the final line break.
  return Math.max(0, rest.length - 1 - (rest.at(-1) === '' ? 1 : 0));
}
