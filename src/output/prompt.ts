import type { ReadStream } from 'node:tty';
import { InterruptedError } from '../shared/errors.js';
import type { IOStreams } from './iostreams.js';

/** Questions to the person at the terminal. Only used when stdin is a terminal. */
export interface Prompter {
  /** Ask a yes/no question; anything but y/yes is no. */
  confirm(question: string): Promise<boolean>;
  /** Ask for a secret without echoing it. */
  secret(question: string): Promise<string>;
}

export function terminalPrompter(io: IOStreams): Prompter {
  return {
    confirm: (question) => confirm(io, question),
    secret: (question) => secret(io, question),
  };
}

function confirm(io: IOStreams, question: string): Promise<boolean> {
  // Loaded only when a question is asked: most runs never ask one.
  const { createInterface } = process.getBuiltinModule('node:readline');
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: io.interactive() });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      rl.close();
      fn();
    };
    rl.on('SIGINT', () => {
      io.stderr.write('\n');
      finish(() => reject(new InterruptedError()));
    });
    // Ctrl-D: no answer is "no".
    rl.on('close', () => {
      if (!settled) io.stderr.write('\n');
      finish(() => resolve(false));
    });
    rl.question(`${question} [y/N] `, (answer) => {
      finish(() => resolve(/^y(es)?$/i.test(typed(answer).trim())));
    });
  });
}

/** Keys that erase: Backspace (DEL or BS), and Ctrl-U the whole line. */
const ERASERS = ['\u007f', '\b', '\u0015'];

/**
 * A line as the keys that made it meant it. On a terminal readline does not
 * know how to edit in (TERM=dumb), it hands on Backspace (DEL or BS) and
 * Ctrl-U as characters: `yx<BS>es` would be no.
 */
function typed(line: string): string {
  if (!ERASERS.some((key) => line.includes(key))) return line;
  let kept = '';
  for (const ch of line) {
    if (ch === '\u007f' || ch === '\b') kept = [...kept].slice(0, -1).join('');
    else if (ch === '\u0015') kept = '';
    else kept += ch;
  }
  return kept;
}

function secret(io: IOStreams, question: string): Promise<string> {
  const stdin = io.stdin as ReadStream;
  return new Promise((resolve, reject) => {
    let value = '';
    // Echo off before the question shows: a fast typist's first keys stay hidden too.
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.resume();
    io.stderr.write(question);
    const done = (fn: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      io.stderr.write('\n');
      fn();
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          done(() => resolve(value));
          return;
        }
        if (ch === '\u0003') {
          done(() => reject(new InterruptedError()));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch === '\u0015') value = '';
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}
