import type { IOStreams } from './iostreams.js';
import { palette } from './color.js';
import { printable } from '../shared/text.js';

/**
 * Messages for people, always on stderr so stdout stays data. Success marks
 * appear only on a terminal; warnings and errors always. Each is one line,
 * made printable here as well: whatever part of it came from the service
 * was escaped where the message was made, and this catches any that was not.
 */
export async function success(io: IOStreams, text: string): Promise<void> {
  if (!io.stderrIsTTY) return;
  const c = await palette(io.stderrColor);
  io.stderr.write(`${c.green('✓')} ${printable(text)}\n`);
}

export async function warning(io: IOStreams, text: string): Promise<void> {
  const c = await palette(io.stderrColor);
  io.stderr.write(`${c.yellow('plants: warning:')} ${printable(text)}\n`);
}

export async function failure(io: IOStreams, text: string): Promise<void> {
  const c = await palette(io.stderrColor);
  io.stderr.write(`${c.red(`plants: ${printable(text)}`)}\n`);
}

/** Plain information for a person: stderr, no decoration. */
export function info(io: IOStreams, text: string): void {
  io.stderr.write(`${printable(text)}\n`);
}
