import { stringifyJson } from '../shared/json.js';
import { jsonPieces } from '../shared/json-writer.js';
import { holdsLarge, LARGE_TEXT, slicesOf } from '../shared/large-values.js';
import { cellText, escapeCharacter, printable, singleLine } from '../shared/text.js';

/**
 * JSON for scripts: one line in a pipe, pretty for a person at a terminal.
 * On a terminal, what printable() escapes is escaped here too (see
 * escapeForTerminal); in a pipe the JSON is the data, exact.
 */
export function formatJson(value: unknown, pretty: boolean, terminal = pretty): string {
  const text = stringifyJson(value, pretty ? 2 : undefined);
  return `${terminal ? escapeForTerminal(text) : text}\n`;
}

// JSON.stringify escapes C0 controls; these are the rest of what printable() escapes.
const JSON_TERMINAL_UNSAFE =
  /[\u007f-\u009f\u2028\u2029\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
const JSON_HAS_TERMINAL_UNSAFE =
  /[\u007f-\u009f\u2028\u2029\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;

/**
 * JSON text with DEL, C1 controls, U+2028/U+2029 and the bidi and zero-width
 * characters written as `\u202e`-style JSON escapes: they can only occur
 * inside strings, so the JSON still reads back as the same data.
 */
export function escapeForTerminal(json: string): string {
  if (!JSON_HAS_TERMINAL_UNSAFE.test(json)) return json;
  return json.replace(JSON_TERMINAL_UNSAFE, escapeCharacter);
}

/**
 * One TSV line. A backslash becomes `\\`, and control characters, U+2028 and
 * U+2029 become `\t`, `\n`, `\r` or `\u001b`-style escapes, so each record
 * stays one line with a fixed number of fields and never carries terminal
 * escape sequences. On a terminal, bidi and zero-width characters are
 * escaped too (printable); piped, they are kept (singleLine).
 */
export function tsvLine(values: readonly unknown[], terminal: boolean): string {
  return `${tsvCells(values, terminal).join('\t')}\n`;
}

/** The fields of one TSV line (tsvLine), escaped, not yet joined. */
export function tsvCells(values: readonly unknown[], terminal: boolean): string[] {
  return values.map((value) => tsvField(value, terminal));
}

/** One field of a TSV line. */
export function tsvField(value: unknown, terminal: boolean): string {
  const text = escapeBackslashes(cellText(value));
  return terminal ? printable(text) : singleLine(text);
}

/**
 * tsvField, piped, of rows that are PlainRows: their text has no backslash
 * to double and no C0 control to escape, so a field is its text; what else
 * singleLine escapes (DEL, C1 controls, U+2028, U+2029) is searched for
 * once in the lines. None for a large value, written in pieces.
 */
export const PLAIN_TSV = {
  field(value: unknown): string | undefined {
    if (holdsLarge(value)) return undefined;
    const text = cellText(value);
    return text.length > LARGE_TEXT ? undefined : text;
  },
  escaped: /[\u007f-\u009f\u2028\u2029]/,
};

/**
 * cellText of a large value in pieces: a string in slices, anything else
 * as its JSON (jsonPieces). Every escape of TSV and CSV is of one character
 * at a time, so each piece escaped alone gives what the whole would.
 */
function cellTextPieces(value: unknown): Iterable<string> {
  return typeof value === 'string' ? slicesOf(value) : jsonPieces(value);
}

/** The TSV field of one large value (a field of tsvCells), in pieces. */
export function* tsvFieldPieces(value: unknown, terminal: boolean): Generator<string> {
  const escape = terminal ? printable : singleLine;
  for (const piece of cellTextPieces(value)) yield escape(escapeBackslashes(piece));
}

function escapeBackslashes(text: string): string {
  return text.includes('\\') ? text.replaceAll('\\', '\\\\') : text;
}

/** Text for a table cell on a terminal: never raw control characters. */
export function tableCell(value: unknown): string {
  return printable(cellText(value));
}

/**
 * One CSV field per RFC 4180: quoted when it holds a comma, quote or line
 * break, with quotes doubled.
 */
export function csvField(value: unknown, terminal: boolean): string {
  const text = terminal ? printable(cellText(value)) : cellText(value);
  return CSV_QUOTED.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const CSV_QUOTED = /[",\r\n]/;

/** The CSV field of one large value (a field of csvCells), in pieces: read twice, to know first whether it is quoted. */
export function* csvFieldPieces(value: unknown, terminal: boolean): Generator<string> {
  const texts = function* () {
    for (const piece of cellTextPieces(value)) yield terminal ? printable(piece) : piece;
  };
  let quoted = false;
  for (const text of texts()) if ((quoted = CSV_QUOTED.test(text))) break;
  if (!quoted) {
    yield* texts();
    return;
  }
  yield '"';
  for (const text of texts()) yield text.replaceAll('"', '""');
  yield '"';
}

export function csvLine(values: readonly unknown[], terminal: boolean): string {
  return `${csvCells(values, terminal).join(',')}\r\n`;
}

/** The fields of one CSV line (csvLine), quoted as needed, not yet joined. */
export function csvCells(values: readonly unknown[], terminal: boolean): string[] {
  return values.map((value) => csvField(value, terminal));
}
