import { PassThrough, Writable } from 'node:stream';
import { createIOStreams, type IOStreams } from '../../src/output/iostreams.js';
import type { Prompter } from '../../src/output/prompt.js';

class Buffered extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
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
export function fakeIO(options: { tty?: boolean; stdinTTY?: boolean; stdin?: string; columns?: number } = {}): FakeIO {
  const stdout = new Buffered();
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
