import { fstatSync, statSync, type Stats } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { Env } from '../shared/env.js';
import { OutputError } from '../shared/errors.js';
import { maskSecrets } from '../secrets/registry.js';
import { maskedWrites, unmaskedWrite } from './masked-writes.js';
import { writeToFd } from './write-now.js';

/**
 * The one object that knows where output goes and what kind of streams they
 * are, and answers for them: may a person be asked, is colour on. Commands
 * write through it; tests swap in buffers with TTY switches. Every text
 * written to stdout or stderr through it is masked (maskedWrites).
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
  /**
   * Write text after everything written to the stream before it: through
   * the stream if a command has used it, else straight to the descriptor
   * (help and usage errors, which then need no stream set up).
   */
  write(stream: 'stdout' | 'stderr', text: string): void;
  /**
   * The error a write to stdout failed with (a full disk: ENOSPC), however
   * it was written (writeOut, a plain write, help); undefined when every
   * write went through, or only the reader went away (EPIPE). Asked when
   * the command is over, after its writes have been tried.
   */
  stdoutFailure(): Promise<Error | undefined>;
}

/** Which of the three streams are terminals (the system's are looked at when first asked). */
interface Terminals {
  readonly stdin: boolean;
  readonly stdout: boolean;
  readonly stderr: boolean;
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

/**
 * IOStreams over given streams. Each of `streams`, `tty` and `color` may
 * answer through getters, read only when a command needs the answer: the
 * system's streams cost a short run time to set up (see systemIOStreams).
 */
export function createIOStreams(
  streams: { readonly stdin: Readable; readonly stdout: Writable; readonly stderr: Writable },
  tty: Terminals,
  color: { readonly stdout: boolean; readonly stderr: boolean },
  writeNow: IOStreams['writeNow'],
  terminalWidth: IOStreams['terminalWidth'] = () => undefined,
  write: IOStreams['write'] = (stream, text) =>
    void streams[stream].write(text, (err) => noteFailure(streams[stream], err)),
  stdoutFailure: IOStreams['stdoutFailure'] = async () => {
    // A failed write's callback comes a tick later.
    await new Promise((resolve) => setImmediate(resolve));
    return failures.get(streams.stdout);
  },
): IOStreams {
  let colourOff = false;
  return {
    get stdin() {
      return streams.stdin;
    },
    get stdout() {
      return maskedWrites(streams.stdout);
    },
    get stderr() {
      return maskedWrites(streams.stderr);
    },
    get stdoutIsTTY() {
      return tty.stdout;
    },
    canPrompt: () => tty.stdin,
    interactive: () => tty.stderr,
    colorEnabled: (stream) => !colourOff && color[stream],
    disableColor() {
      colourOff = true;
    },
    terminalWidth: (stream) => (tty[stream] ? terminalWidth(stream) : undefined),
    writeNow: (stream, text) => writeNow(stream, maskSecrets(text)),
    write: (stream, text) => write(stream, maskSecrets(text)),
    stdoutFailure,
  };
}

/**
 * Whether a file descriptor is a terminal. node:tty answers, but loading it
 * loads node:net and its streams (about 4 ms of a run, a sixth of `node -e
 * 0`), so it is asked only about a character device other than /dev/null:
 * a file, a pipe or a socket is no terminal, nor is output thrown away.
 * A closed descriptor is no terminal either.
 */
export function isTerminal(fd: number): boolean {
  if (process.platform === 'win32') return process.getBuiltinModule('node:tty').isatty(fd);
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch {
    return false;
  }
  if (!stats.isCharacterDevice()) return false;
  try {
    const devNull = statSync('/dev/null');
    if (stats.rdev === devNull.rdev && stats.ino === devNull.ino && stats.dev === devNull.dev) return false;
  } catch {
    // No /dev/null to compare with: node:tty decides.
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

const FDS = { stdin: 0, stdout: 1, stderr: 2 } as const;

/**
 * The process's own streams. Nothing is looked at until a command asks:
 * process.stdout and process.stderr are made on first use (Node loads its
 * streams for them, and node:net for a pipe), whether each is a terminal is
 * asked once, when first needed. `plants --help` writes its text straight
 * to the descriptor, and so loads none of it.
 */
export function systemIOStreams(env: Env = process.env, noColorFlag = false): IOStreams {
  const terminal: Partial<Record<keyof typeof FDS, boolean>> = {};
  const tty: Terminals = {
    get stdin() {
      return (terminal.stdin ??= isTerminal(FDS.stdin));
    },
    get stdout() {
      return (terminal.stdout ??= isTerminal(FDS.stdout));
    },
    get stderr() {
      return (terminal.stderr ??= isTerminal(FDS.stderr));
    },
  };
  const made = { stdout: false, stderr: false };
  /** What a write straight to the descriptor failed with (help, before the stream is made). */
  const unwritten: { stdout?: Error; stderr?: Error } = {};
  /**
   * process.stdout or process.stderr, made now if need be. A reader that
   * goes away (`plants list | head -1`) is not an error: writes then end
   * quietly (see writeOut) and the command keeps its exit code; nor is a
   * terminal that has gone (SIGHUP): the run still ends as it should. Any
   * other failure is kept, for stdoutFailure.
   */
  const stream = (name: 'stdout' | 'stderr'): Writable => {
    if (!made[name]) {
      made[name] = true;
      process[name].on('error', (err: Error) => noteFailure(process[name], err));
    }
    return process[name];
  };
  return createIOStreams(
    {
      // process.stdin is made on first use too; most commands never read it.
      get stdin() {
        return process.stdin;
      },
      get stdout() {
        return stream('stdout');
      },
      get stderr() {
        return stream('stderr');
      },
    },
    tty,
    {
      get stdout() {
        return colorWanted(tty.stdout, env, noColorFlag);
      },
      get stderr() {
        return colorWanted(tty.stderr, env, noColorFlag);
      },
    },
    (name, text) => void writeToFd(FDS[name], text),
    // Read at each table: the terminal may have been resized since the start.
    (name) => terminalColumns((stream(name) as NodeJS.WriteStream).columns, env.COLUMNS),
    // After whatever went through the stream, if it was made; else at once.
    (name, text) => {
      if (made[name]) void process[name].write(text);
      else unwritten[name] ??= writeToFd(FDS[name], text);
    },
    async () => {
      if (unwritten.stdout || !made.stdout) return unwritten.stdout;
      // A failed write reports itself a tick later (a file's, a device's): let every one that was made do so.
      await new Promise((resolve) => setImmediate(resolve));
      return failures.get(process.stdout);
    },
  );
}

/** The reader went away (`plants list | head -1`): not an error, just nobody left to tell. */
function isReaderGone(err: NodeJS.ErrnoException): boolean {
  return err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';
}

/** Streams whose reader has gone (process.stdout never reports itself destroyed). */
const gone = new WeakSet<Writable>();

/** The first error each stream's writes failed with, its reader going away aside (see IOStreams.stdoutFailure). */
const failures = new WeakMap<Writable, Error>();

/** Keep the first error a write to `stream` failed with, unless it only says the reader has gone. */
function noteFailure(stream: Writable, err: Error | null | undefined): void {
  if (err && !isReaderGone(err) && !failures.has(stream)) failures.set(stream, err);
}

/** Whether writing to `stream` has become pointless. */
export function readerGone(stream: Writable): boolean {
  return stream.destroyed || gone.has(stream);
}

/**
 * Write output (stdout) and wait until the stream has taken it, so large
 * outputs respect back-pressure. A closed pipe ends the output quietly; the
 * command still finishes and exits with its own code. Any other failure (a
 * full disk) rejects with an OutputError, which ends the command.
 *
 * `masked`: every string in the text was masked where it was read, before
 * any cut (a list's rows: api/plant-stream.ts, history's records), so the
 * writer does not mask it again: a list of 100,000 plants whose names read
 * as encoded (`R&D`, `%20`) would spend a fifth more time on it.
 */
export function writeOut(stream: Writable, text: string | Uint8Array, { masked = false } = {}): Promise<void> {
  const failed = failures.get(stream);
  if (failed) return Promise.reject(new OutputError(failed));
  if (readerGone(stream)) return Promise.resolve();
  const write = masked ? unmaskedWrite(stream) : stream.write.bind(stream);
  return new Promise((resolve, reject) => {
    write(text, (err) => {
      noteFailure(stream, err);
      if (err && !isReaderGone(err)) return reject(new OutputError(err));
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
