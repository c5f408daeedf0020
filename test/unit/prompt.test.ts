import { PassThrough, Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InterruptedError } from '../../src/shared/errors.js';
import { createIOStreams } from '../../src/output/iostreams.js';
import { terminalPrompter } from '../../src/output/prompt.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** What happened to the fake terminal, in order: raw mode switches and what stderr showed. */
type Event = `raw ${'on' | 'off'}` | `stderr ${string}`;

/**
 * A person at a keyboard: stdin is a PassThrough marked as a TTY (setRawMode
 * recorded), stderr a buffer. `terminal` says whether stderr is one, which
 * decides how the yes/no question reads its answer.
 */
function keyboard({ terminal = true } = {}) {
  const events: Event[] = [];
  let shown = '';
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      stdin.isRaw = mode;
      events.push(mode ? 'raw on' : 'raw off');
      return stdin;
    },
  });
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      shown += chunk.toString();
      events.push(`stderr ${chunk.toString()}`);
      callback();
    },
  });
  const io = createIOStreams(
    { stdin, stdout: new PassThrough(), stderr },
    { stdin: true, stdout: terminal, stderr: terminal },
    { stdout: false, stderr: false },
    () => undefined,
  );
  return {
    stdin,
    events,
    prompter: terminalPrompter(io),
    type: (keys: string) => stdin.write(keys),
    /** stderr as the person sees it, cursor movements left out. */
    shown: () => stripVTControlCharacters(shown),
  };
}

// Every answer comes at once: a prompt that never returns should fail fast, not hang.
describe('confirm: the yes/no question before a deletion', { timeout: 2000 }, () => {
  const yes = ['y', 'Y', 'yes', 'YES', 'Yes', ' y ', 'yes  '];
  const no = ['', 'n', 'N', 'no', 'yep', 'ye', 'yess', 'ay', 'nyes', 'sure', 'y y'];

  for (const terminal of [true, false]) {
    const where = terminal ? 'on a terminal' : 'when stderr is not a terminal';
    it.each(yes)(`%j then Enter is yes ${where}`, async (answer) => {
      const kb = keyboard({ terminal });
      const asked = kb.prompter.confirm('Delete plant 3?');
      kb.type(`${answer}\r`);
      await expect(asked).resolves.toBe(true);
    });

    it.each(no)(`%j then Enter is no ${where}`, async (answer) => {
      const kb = keyboard({ terminal });
      const asked = kb.prompter.confirm('Delete plant 3?');
      kb.type(`${answer}\n`);
      await expect(asked).resolves.toBe(false);
    });
  }

  it('shows the question with the default, no on Enter, on stderr', async () => {
    const kb = keyboard({ terminal: false });
    const asked = kb.prompter.confirm('Delete plant 3?');
    kb.type('\n');
    await expect(asked).resolves.toBe(false);
    // The answer ends the line itself: no extra blank line.
    expect(kb.shown()).toBe('Delete plant 3? [y/N] ');
  });

  it('echoes what is typed on a terminal, editing included', async () => {
    // readline edits in place on a terminal it knows; TERM=dumb is the next test's.
    vi.stubEnv('TERM', 'xterm-256color');
    const kb = keyboard();
    const asked = kb.prompter.confirm('Delete plant 3?');
    kb.type('yx\u007fes\r');
    await expect(asked).resolves.toBe(true);
    expect(kb.shown()).toMatch(/^Delete plant 3\? \[y\/N\] y.*es\r\n$/s);
  });

  it('on a terminal without editing (TERM=dumb), a key that erases still erases from the answer', async () => {
    // readline then echoes keys as they come, a backspace too, and hands them on in the line.
    vi.stubEnv('TERM', 'dumb');
    const kb = keyboard();
    const asked = kb.prompter.confirm('Delete plant 3?');
    kb.type('yx\u007fes\r');
    await expect(asked).resolves.toBe(true);
    const erased = kb.prompter.confirm('Delete plant 4?');
    kb.type('y\bn\r');
    await expect(erased).resolves.toBe(false);
    const cleared = kb.prompter.confirm('Delete plant 5?');
    kb.type('no\u0015yes\r');
    await expect(cleared).resolves.toBe(true);
  });

  it('Ctrl-D (end of input) on a terminal is no, and moves to a new line', async () => {
    const kb = keyboard();
    const asked = kb.prompter.confirm('Delete plant 3?');
    kb.type('\u0004');
    await expect(asked).resolves.toBe(false);
    expect(kb.shown()).toBe('Delete plant 3? [y/N] \n');
  });

  it('end of input without an answer is no, and moves to a new line', async () => {
    const kb = keyboard({ terminal: false });
    const asked = kb.prompter.confirm('Delete plant 3?');
    kb.stdin.end();
    await expect(asked).resolves.toBe(false);
    expect(kb.shown()).toBe('Delete plant 3? [y/N] \n');
  });

  it('Ctrl-C on a terminal interrupts (not a no), on a new line', async () => {
    const kb = keyboard();
    const asked = kb.prompter.confirm('Delete plant 3?');
    kb.type('ye\u0003');
    await expect(asked).rejects.toBeInstanceOf(InterruptedError);
    expect(kb.shown()).toBe('Delete plant 3? [y/N] ye\n');
  });

  it('stops reading after the answer: later input is not taken', async () => {
    const kb = keyboard({ terminal: false });
    const asked = kb.prompter.confirm('Delete plant 3?');
    kb.type('n\n');
    await expect(asked).resolves.toBe(false);
    expect(kb.stdin.listenerCount('data') + kb.stdin.listenerCount('keypress')).toBe(0);
  });
});

describe('secret: the hidden token prompt', { timeout: 2000 }, () => {
  it('turns echo off before the question shows, and back on after Enter', async () => {
    const kb = keyboard();
    const asked = kb.prompter.secret('Paste your token: ');
    kb.type('s3cret\r');
    await expect(asked).resolves.toBe('s3cret');
    expect(kb.events).toEqual(['raw on', 'stderr Paste your token: ', 'raw off', 'stderr \n']);
    expect(kb.shown()).not.toContain('s3cret');
    expect(kb.stdin.isRaw).toBe(false);
  });

  it.each([
    ['Enter (CR)', 'tok\r'],
    ['Enter (LF)', 'tok\n'],
    ['Ctrl-D', 'tok\u0004'],
  ])('%s ends the input', async (_name, keys) => {
    const kb = keyboard();
    const asked = kb.prompter.secret('Token: ');
    kb.type(keys);
    await expect(asked).resolves.toBe('tok');
    expect(kb.shown()).toBe('Token: \n');
  });

  it('takes input typed in several pieces, multi-byte characters split across them', async () => {
    const kb = keyboard();
    const asked = kb.prompter.secret('Token: ');
    const bytes = Buffer.from('ab€d');
    kb.stdin.write(bytes.subarray(0, 3));
    kb.stdin.write(bytes.subarray(3));
    kb.type('\r');
    await expect(asked).resolves.toBe('ab€d');
  });

  it.each([
    ['DEL', '\u007f'],
    ['Ctrl-H', '\b'],
  ])('backspace (%s) removes the last character, and nothing when empty', async (_name, bs) => {
    const kb = keyboard();
    const asked = kb.prompter.secret('Token: ');
    kb.type(`${bs}abcd${bs}${bs}e\r`);
    await expect(asked).resolves.toBe('abe');
    expect(kb.shown()).toBe('Token: \n');
  });

  it('Ctrl-U clears what was typed', async () => {
    const kb = keyboard();
    const asked = kb.prompter.secret('Token: ');
    kb.type('wrong\u0015right\r');
    await expect(asked).resolves.toBe('right');
  });

  it('keeps other characters as typed, spaces and tabs included', async () => {
    const kb = keyboard();
    const asked = kb.prompter.secret('Token: ');
    kb.type(' a\tb ü \r');
    await expect(asked).resolves.toBe(' a\tb ü ');
  });

  it('Ctrl-C interrupts, restores echo and ends the line', async () => {
    const kb = keyboard();
    const asked = kb.prompter.secret('Token: ');
    kb.type('half\u0003more\r');
    await expect(asked).rejects.toBeInstanceOf(InterruptedError);
    expect(kb.events).toEqual(['raw on', 'stderr Token: ', 'raw off', 'stderr \n']);
  });

  it('ignores what follows Enter in the same piece (a paste with two lines)', async () => {
    const kb = keyboard();
    const asked = kb.prompter.secret('Token: ');
    kb.type('first\rsecond\r');
    await expect(asked).resolves.toBe('first');
    expect(kb.events).toEqual(['raw on', 'stderr Token: ', 'raw off', 'stderr \n']);
  });

  it('releases stdin afterwards, so the process can exit, and can ask again', async () => {
    const kb = keyboard();
    const first = kb.prompter.secret('Token: ');
    kb.type('one\r');
    await expect(first).resolves.toBe('one');
    expect(kb.stdin.isPaused()).toBe(true);
    expect(kb.stdin.listenerCount('data')).toBe(0);

    const second = kb.prompter.secret('Again: ');
    kb.type('two\r');
    await expect(second).resolves.toBe('two');
    expect(kb.shown()).toBe('Token: \nAgain: \n');
    expect(kb.events.filter((e) => e.startsWith('raw'))).toEqual(['raw on', 'raw off', 'raw on', 'raw off']);
  });
});
