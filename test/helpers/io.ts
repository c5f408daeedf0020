import { constants } from 'node:os';
import { PassThrough, Writable } from 'node:stream';
import { getSystemErrorMap } from 'node:util';
import { createIOStreams, type IOStreams } from '../../src/output/iostreams.js';
import type { Prompter } from '../../src/output/prompt.js';

/** An error as a failed system call makes it: `ENOSPC: no space left on device, write`, with its errno. */
function systemError(code: string): NodeJS.ErrnoException {
  const errno = -(constants.errno as Record<string, number>)[code]!;
  const [, description] = getSystemErrorMap().get(errno)!;
  return Object.assign(new Error(`${code}: ${description}, write`), { code, errno, syscall: 'write' });
}

class Buffered extends Writable {
  text = '';
  /** Each write fails with this code (ENOSPC: a full disk), taking nothing. */
  constructor(readonly fails?: string) {
    super();
    // As on process.stdout, the write's callback (or stdoutFailure) reports the failure.
    this.on('error', () => {});
  }
  override _write(chunk: Buffer, _encoding: string, callback: (err?: Error) => void): void {
    if (this.fails !== undefined) return callback(systemError(this.fails));
    this.text += chunk.toString();
    callback();
  }
}

export interface FakeIO {
  io: IOStreams;
  stdout(): string;
  stderr(): string;
}

/** Buffers in place of the process streams, with TTY switches and, on a TTY, a width (`columns`). Colour is always off. */
export function fakeIO(
  options: { tty?: boolean; stdinTTY?: boolean; stdin?: string; columns?: number; stdoutFails?: string } = {},
): FakeIO {
  const stdout = new Buffered(options.stdoutFails);
  const stderr = new Buffered();
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  const tty = options.tty ?? false;
  return {
    io: createIOStreams(
      { stdin, stdout, stderr },
      { stdin: options.stdinTTY ?? tty, stdout: tty, stderr: tty },
      { stdout: false, stderr: false },
      (stream, text) => (stream === 'stdout' ? stdout : stderr).write(text),
      () => options.columns,
    ),
    stdout: () => stdout.text,
    stderr: () => stderr.text,
  };
}

/** A prompter that fails the test when asked anything it was not told to expect. */
export function scriptedPrompter(answers: { confirm?: boolean[]; secret?: string[] } = {}): Prompter & {
  questions: string[];
} {
  const confirms = [...(answers.confirm ?? [])];
  const secrets = [...(answers.secret ?? [])];
  const questions: string[] = [];
  return {
    questions,
    confirm(question) {
      questions.push(question);
      const answer = confirms.shift();
      if (answer === undefined) return Promise.reject(new Error(`unexpected prompt: ${question}`));
      return Promise.resolve(answer);
    },
    secret(question) {
      questions.push(question);
      const answer = secrets.shift();
      if (answer === undefined) return Promise.reject(new Error(`unexpected secret prompt: ${question}`));
      return Promise.resolve(answer);
    },
  };
}
