import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import type { Env } from '../env.js';
import { writeToFd } from './write-now.js';

/**
 * The one object that knows where output goes and what kind of streams they
 * are, and answers for them: may a person be asked, is colour on. Commands
 * write through it; tests swap in buffers with TTY switches.
 */
export interface IOStreams {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** stdout is a terminal: tables with a header rather than TSV, pretty JSON. */
  readonly stdoutIsTTY: boolean;
  /**
   * stdin is a terminal, so a person can answer a question; then it carries
   * no piped data (ids, a token) either.
   */
  canPrompt(): boolean;
  /** stderr is a terminal a person watches: ✓ marks, progress bars, summaries. */
  interactive(): boolean;
  /** Colour for a stream: stdout (tables), stderr (messages, ✓ marks, errors). */
  colorEnabled(stream: 'stdout' | 'stderr'): boolean;
  /** --no-color, as commander parsed it. */
  disableColor(): void;
  /**
   * The columns a table on this stream must fit in: the terminal's width
   * (COLUMNS, a whole number above 0, overrides it); undefined when the
   * stream is not a terminal (a pipe, a file: nothing is cut) or its width
   * is unknown.
   */
  terminalWidth(stream: 'stdout' | 'stderr'): number | undefined;
  /**
   * Write at once, before anything asynchronous can run: for the last words
   * of a run that is about to end (a second Ctrl-C).
   */
  writeNow(stream: 'stdout' | 'stderr', text: string): void;
}

/** Which of the three streams are terminals. */
interface Terminals {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
}

/**
 * Whether a stream gets colour, first rule that applies: --no-color, then
 * NO_COLOR (any non-empty value, per no-color.org) turn it off; FORCE_COLOR
 * turns it on (0 or false: off); TERM=dumb turns it off; otherwise colour
 * exactly when the stream is a terminal.
 */
export function colorWanted(isTTY: boolean, env: Env, noColorFlag = false): boolean {
  if (noColorFlag || env.NO_COLOR) return false;
  if (env.FORCE_COLOR) return !['0', 'false'].includes(env.FORCE_COLOR.toLowerCase());
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/**
 * The width to fit tables to on a terminal whose width is `measured`
 * (0 or undefined: unknown). COLUMNS, when a whole number above 0, wins, as
 * POSIX has it: the user's preferred width. Not consulted off a terminal.
 */
export function terminalColumns(measured: number | undefined, columnsVariable: string | undefined): number | undefined {
  if (columnsVariable !== undefined && /^[1-9][0-9]{0,5}$/.test(columnsVariable)) return Number(columnsVariable);
  return measured !== undefined && measured > 0 ? measured : undefined;
}

/** IOStreams over given streams; `streams.stdin` is read only when used (it may be a getter). */
export function createIOStreams(
  streams: { readonly stdin: Readable; stdout: Writable; stderr: Writable },
  tty: Terminals,
  color: { stdout: boolean; stderr: boolean },
  writeNow: IOStreams['writeNow'],
  terminalWidth: IOStreams['terminalWidth'] = () => undefined,
): IOStreams {
  const colour = { ...color };
  return {
    get stdin() {
      return streams.stdin;
    },
    stdout: streams.stdout,
    stderr: streams.stderr,
    stdoutIsTTY: tty.stdout,
    canPrompt: () => tty.stdin,
    interactive: () => tty.stderr,
    colorEnabled: (stream) => colour[stream],
    disableColor() {
      colour.stdout = false;
      colour.stderr = false;
    },
    terminalWidth: (stream) => (tty[stream] ? terminalWidth(stream) : undefined),
    writeNow,
  };
}

export function systemIOStreams(env: Env = process.env, noColorFlag = false): IOStreams {
  const tty = { stdin: isatty(0), stdout: process.stdout.isTTY === true, stderr: process.stderr.isTTY === true };
  return createIOStreams(
    {
      // process.stdin is made on first use, and setting it up is not free;
      // most commands never read it.
      get stdin() {
        return process.stdin;
      },
      stdout: process.stdout,
      stderr: process.stderr,
    },
    tty,
    { stdout: colorWanted(tty.stdout, env, noColorFlag), stderr: colorWanted(tty.stderr, env, noColorFlag) },
    (stream, text) => writeToFd(stream === 'stdout' ? 1 : 2, text),
    // Read at each table: the terminal may have been resized since the start.
    (stream) => terminalColumns(process[stream].columns, env.COLUMNS),
  );
}

/** The reader went away (`plants list | head -1`): not an error, just nobody left to tell. */
function isReaderGone(err: NodeJS.ErrnoException): boolean {
  return err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';
}

/** Streams whose reader has gone (process.stdout never reports itself destroyed). */
const gone = new WeakSet<Writable>();

/** Whether writing to `stream` has become pointless. */
export function readerGone(stream: Writable): boolean {
  return stream.destroyed || gone.has(stream);
}

/**
 * Write and wait until the stream has taken it, so large outputs respect
 * back-pressure. A closed pipe ends the output quietly; the command still
 * finishes and exits with its own code.
 */
export function writeOut(stream: Writable, text: string | Uint8Array): Promise<void> {
  if (readerGone(stream)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    stream.write(text, (err) => {
      if (err && !isReaderGone(err)) return reject(err);
      if (err) gone.add(stream);
      resolve();
    });
  });
}

/** Write many small pieces in large chunks, waiting for the stream between chunks. */
export async function writeAll(stream: Writable, pieces: Iterable<string>): Promise<void> {
  let buffer = '';
  for (const piece of pieces) {
    if (readerGone(stream)) return;
    buffer += piece;
    if (buffer.length >= 64 * 1024) {
      await writeOut(stream, buffer);
      buffer = '';
    }
  }
  if (buffer) await writeOut(stream, buffer);
}
