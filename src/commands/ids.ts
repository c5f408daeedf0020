import { UsageError } from '../errors.js';
import { JsonNumber, parseJson } from '../json.js';
import { parseCsv } from '../csv.js';
import { excerpt, printable } from '../output/text.js';

/**
 * The id of a plant object as text, or undefined when it has none usable.
 * Ids are opaque: strings as they are, numbers as the service wrote them.
 */
export function plantId(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const id = (item as { id?: unknown }).id;
  if (typeof id === 'string') return id === '' ? undefined : id;
  if (typeof id === 'number' || id instanceof JsonNumber) return String(id);
  return undefined;
}

/** The id of a plant object, or a usage error naming `where` it is missing. */
export function requirePlantId(item: unknown, where: string): string {
  const id = plantId(item);
  if (id === undefined) {
    throw new UsageError(
      `${where} has no usable "id" (a non-empty string or a number); plants without ids cannot be deleted by id; nothing was deleted`,
    );
  }
  return id;
}

function idFromItem(item: unknown, where: string): string {
  if (typeof item === 'string' && item !== '') return item;
  if (typeof item === 'number' || item instanceof JsonNumber) return String(item);
  return requirePlantId(item, where);
}

// Only ASCII whitespace separates ids: NBSP, U+2028 and the like are part of an id.
const SEPARATOR = /[ \t\n\r\f\v]+/;
const EDGE_SPACE = /^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g;
/** A column name as `plants list` prints it in a CSV header (`id`, `extra.height`). */
const CSV_HEADER_FIELD = /^[A-Za-z_][\w.-]*$/;
/** A column name as a table header shows it (`ID`, `NAME`, `EXTRA.HEIGHT`). */
const TABLE_HEADER_WORD = /^[A-Z][A-Z0-9_.-]*$/;
const TABLE_COLUMNS = new Set(['ID', 'NAME', 'TAG']);
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;
/** Control characters other than the ASCII whitespace that separates ids. */
// eslint-disable-next-line no-control-regex
const CONTROL_NOT_SPACE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/;

/**
 * Ids from standard input, in one of the shapes scripts produce:
 * - the JSON array `plants list --json` prints (objects with `id`; plain strings or numbers work too);
 * - NDJSON, one object per line, as `plants list -o ndjson` prints;
 * - CSV with a header row that names an `id` column, as `plants list -o csv` prints: that column only;
 * - otherwise ids separated by ASCII whitespace.
 * Text that holds more than ids (a table, tab-separated rows, CSV without
 * an id column) is refused: its names and tags are not ids.
 */
export function parseIdInput(text: string): string[] {
  const trimmed = text.replace(EDGE_SPACE, '');
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) {
    let items: unknown;
    try {
      items = parseJson(trimmed);
    } catch (err) {
      throw new UsageError(`standard input starts like a JSON array but is not valid JSON: ${(err as Error).message}`);
    }
    if (!Array.isArray(items)) throw new UsageError('standard input is JSON but not an array');
    return items.map((item: unknown, index) => idFromItem(item, `item ${index} of the JSON on standard input`));
  }
  if (trimmed.startsWith('{')) {
    return trimmed
      .split('\n')
      .map((line, index) => ({ line: line.trim(), number: index + 1 }))
      .filter(({ line }) => line !== '')
      .map(({ line, number }) => {
        let item: unknown;
        try {
          item = parseJson(line);
        } catch {
          throw new UsageError(`line ${number} of standard input is not a JSON object (NDJSON expected there)`);
        }
        return idFromItem(item, `line ${number} of standard input`);
      });
  }
  const firstLine = trimmed.split('\n', 1)[0]!.replace(/\r$/, '');
  const csvHeader = firstLine.split(',');
  if (csvHeader.length > 1 && csvHeader.every((field) => CSV_HEADER_FIELD.test(field))) return idsFromCsv(trimmed);
  const words = firstLine.replace(SGR, '').split(SEPARATOR);
  if (words.every((word) => TABLE_HEADER_WORD.test(word)) && words.some((word) => TABLE_COLUMNS.has(word))) {
    throw new UsageError(
      `standard input looks like a table (its first line is the header ${printable(excerpt(firstLine, 60))}); its names and tags are not ids: pipe plants list --json, -o ndjson or -o csv instead; nothing was deleted`,
    );
  }
  if (trimmed.includes('\t')) {
    // plants list's piped output: its fields hold names and tags, not only ids.
    throw new UsageError(
      'standard input holds tab-separated lines (plants list output?); pipe plants list --json, -o ndjson or -o csv instead, or cut -f1 for the id column; nothing was deleted',
    );
  }
  if (CONTROL_NOT_SPACE.test(trimmed)) {
    throw new UsageError(
      'standard input holds control characters (coloured or terminal output?); pipe plants list --json instead; nothing was deleted',
    );
  }
  const ids = trimmed.split(SEPARATOR);
  const quoted = ids.find((id) => /^".*"$/.test(id));
  if (quoted !== undefined) {
    throw new UsageError(
      `standard input holds the quoted id ${printable(quoted)} (jq output without -r?); pass ids unquoted; nothing was deleted`,
    );
  }
  return ids;
}

/** The id column of CSV with a header row; a header without one is refused. */
function idsFromCsv(text: string): string[] {
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (err) {
    throw new UsageError(`standard input looks like CSV but cannot be read: ${(err as Error).message}; nothing was deleted`);
  }
  const header = records[0]!;
  const column = header.findIndex((name) => name.toLowerCase() === 'id');
  if (column === -1) {
    throw new UsageError(
      `standard input is CSV without an id column (its header is ${printable(excerpt(header.join(','), 60))}); add id to --columns, or pipe plants list --json; nothing was deleted`,
    );
  }
  return records.slice(1).flatMap((record, index) => {
    // A blank line is no record.
    if (record.length === 1 && record[0] === '') return [];
    const id = record[column];
    if (id === undefined || id === '') {
      throw new UsageError(
        `row ${index + 1} of the CSV on standard input has no id; plants without ids cannot be deleted by id; nothing was deleted`,
      );
    }
    return [id];
  });
}
