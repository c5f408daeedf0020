import { stringifyJson } from '../json.js';
import { cellText, printable } from './text.js';

/**
 * JSON for scripts: one line in a pipe, pretty for a person at a terminal.
 * On a terminal, DEL and C1 controls are escaped too: JSON.stringify escapes
 * only those below U+0020, and C1 controls act on terminals.
 */
export function formatJson(value: unknown, pretty: boolean, terminal = pretty): string {
  const text = stringifyJson(value, pretty ? 2 : undefined);
  return `${terminal ? escapeForTerminal(text) : text}\n`;
}

/** JSON text with DEL and C1 controls escaped too (they can only occur inside strings). */
export function escapeForTerminal(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * One TSV line. A backslash becomes `\\`, and control characters become
 * `\t`, `\n`, `\r` or `\u001b`-style escapes, so each record stays one line
 * with a fixed number of fields and never carries terminal escape sequences.
 */
export function tsvLine(values: readonly unknown[]): string {
  return `${values.map((value) => printable(escapeBackslashes(cellText(value)))).join('\t')}\n`;
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
function csvField(value: unknown, terminal: boolean): string {
  const text = terminal ? printable(cellText(value)) : cellText(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly unknown[], terminal: boolean): string {
  return `${values.map((value) => csvField(value, terminal)).join(',')}\r\n`;
}
