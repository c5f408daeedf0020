import type { IOStreams } from './iostreams.js';
import { palette } from './color.js';

/**
 * Messages for people, always on stderr so stdout stays data. Success marks
 * appear only on a terminal; warnings and errors always.
 */
export async function success(io: IOStreams, text: string): Promise<void> {
  if (!io.stderrIsTTY) return;
  const c = await palette(io.stderrColor);
  io.stderr.write(`${c.green('✓')} ${text}\n`);
}

export async function warning(io: IOStreams, text: string): Promise<void> {
  const c = await palette(io.stderrColor);
  io.stderr.write(`${c.yellow('plants: warning:')} ${text}\n`);
}

export async function failure(io: IOStreams, text: string): Promise<void> {
  const c = await palette(io.stderrColor);
  io.stderr.write(`${c.red(`plants: ${text}`)}\n`);
}

/** Plain information for a person: stderr, no decoration. */
export function info(io: IOStreams, text: string): void {
  io.stderr.write(`${text}\n`);
}
