import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createIOStreams } from '../../src/output/iostreams.js';
import { failure, info, success, warning } from '../../src/output/messages.js';

/** stderr a terminal with colour; stdout piped without. */
function colourTerminal() {
  let text = '';
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  });
  const io = createIOStreams(
    { stdin: new PassThrough(), stdout: new PassThrough(), stderr },
    { stdin: true, stdout: false, stderr: true },
    { stdout: false, stderr: true },
    () => undefined,
  );
  return { io, stderr: () => text };
}

describe('messages on a colour terminal (stderr coloured, stdout not)', () => {
  it('success: a green ✓', () => {
    const t = colourTerminal();
    success(t.io, 'Deleted plant 3');
    expect(t.stderr()).toBe('\u001b[32m✓\u001b[39m Deleted plant 3\n');
  });

  it('warning: a yellow prefix', () => {
    const t = colourTerminal();
    warning(t.io, 'PLANTS_TOKEN overrides the stored token');
    expect(t.stderr()).toBe('\u001b[33mplants: warning:\u001b[39m PLANTS_TOKEN overrides the stored token\n');
  });

  it('failure: the whole line red, escape sequences from the text made harmless', () => {
    const t = colourTerminal();
    failure(t.io, 'not found: \u001b[2Jplant');
    expect(t.stderr()).toBe('\u001b[31mplants: not found: \\u001b[2Jplant\u001b[39m\n');
  });

  it('info: plain', () => {
    const t = colourTerminal();
    info(t.io, 'No plants found');
    expect(t.stderr()).toBe('No plants found\n');
  });
});
