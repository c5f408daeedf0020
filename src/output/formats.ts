import { cellText, printable } from './text.js';

/** JSON for scripts: pretty for a person at a terminal, one line in a pipe. */
export function formatJson(value: unknown, pretty: boolean): string {
  return `${pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`;
}

/**
 * One TSV line. Backslash, tab, newline and carriage return inside a value
 * are escaped (`\\`, `\t`, `\n`, `\r`), so each record stays one line with a
 * fixed number of fields.
 */
export function tsvLine(values: readonly unknown[]): string {
  return `${values.map((value) => escapeTsv(cellText(value))).join('\t')}\n`;
}

function escapeTsv(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (ch) => {
    if (ch === '\t') return '\\t';
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    return '\\\\';
  });
}

/** Text for a table cell on a terminal: never raw control characters. */
export function tableCell(value: unknown): string {
  return printable(cellText(value));
}
