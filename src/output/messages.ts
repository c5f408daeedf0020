import type { IOStreams } from './iostreams.js';
import { printable } from '../shared/text.js';

/**
 * The three colours a message uses, as chalk writes them at any colour level
 * (SGR 31-33, reset 39). Written here rather than through chalk: a message is
 * then written synchronously, and a run that only warns never loads chalk.
 * The text is printable (no escape sequences of its own), so no nesting to undo.
 */
const SGR = { red: 31, green: 32, yellow: 33 } as const;

function paint(color: keyof typeof SGR, text: string, enabled: boolean): string {
  return enabled ? `\u001b[${SGR[color]}m${text}\u001b[39m` : text;
}

/**
 * Messages for people, always on stderr so stdout stays data. Success marks
 * appear only on a terminal; warnings and errors always. Each is one line,
 * made printable here as well: whatever part of it came from the service
 * was escaped where the message was made, and this catches any that was not.
 */
export function success(io: IOStreams, text: string): void {
  if (!io.interactive()) return;
  io.stderr.write(`${paint('green', '✓', io.colorEnabled('stderr'))} ${printable(text)}\n`);
}

export function warning(io: IOStreams, text: string): void {
  io.stderr.write(`${paint('yellow', 'plants: warning:', io.colorEnabled('stderr'))} ${printable(text)}\n`);
}

export function failure(io: IOStreams, text: string): void {
  io.stderr.write(`${paint('red', `plants: ${printable(text)}`, io.colorEnabled('stderr'))}\n`);
}

/** Plain information for a person: stderr, no decoration. */
export function info(io: IOStreams, text: string): void {
  io.stderr.write(`${printable(text)}\n`);
}
