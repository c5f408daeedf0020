import { cellText, printable } from './text.js';

/** JSON for scripts: pretty for a person at a terminal, one line in a pipe. */
export function formatJson(value: unknown, pretty: boolean): string {
  return `${pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`;
}

/**
 * One TSV line. A backslash becomes `\\`, and control characters become
 * `\t`, `\n`, `\r` or `\u001b`-style escapes, so each record stays one line
 * with a fixed number of fields and never carries terminal escape sequences.
 */
export function tsvLine(values: readonly unknown[]): string {
  return `${values.map((value) => printable(cellText(value).replaceAll('\\', '\\\\'))).join('\t')}\n`;
}

/** Text for a table cell on a terminal: never raw control characters. */
export function tableCell(value: unknown): string {
  return printable(cellText(value));
}
