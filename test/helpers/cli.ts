import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOKEN } from './servers.js';
import { withoutInvisibles } from './token-forms.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PLANTS_BIN = join(ROOT, 'bin', 'plants.js');

/** What --json writes last to stderr when a command fails. */
export interface JsonError {
  error: { code: string; status: number | null; message: string; request_id: string | null };
}

/** One plant's outcome in `delete --json` output; `error` when it was not deleted. */
export interface DeleteOutcome {
  id: string;
  result: string;
  status: number | null;
  error?: { error: unknown; message: string };
}

/** A config file as written (config.json). */
export interface SavedConfig {
  profile?: string;
  profiles: { default: SavedProfile; [name: string]: SavedProfile | undefined };
}
type SavedProfile = { 'base-url'?: string; token?: string };

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A temporary directory that stands in for HOME and the config directory. */
export function tempDir(prefix = 'plants-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Spawn the built bin/plants.js (asynchronously: the test's own servers must
 * keep answering). The environment is built from scratch: no user config, no
 * colour, HOME pointing at the test's directory. The token must never show
 * up in what the CLI prints; every run checks it.
 */
export interface RunOptions {
  configDir: string;
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
  /**
   * Run inside a pseudo-terminal (util-linux `script`), so stdin, stdout and
   * stderr are all terminals; output then arrives with CRLF line ends.
   */
  tty?: boolean;
  /** With `tty`: when the output first contains `when`, type `send`. */
  answers?: { when: string; send: string }[];
  /** With `tty`: the pseudo-terminal's width (`stty cols`); else it has none (0 columns, width unknown). */
  columns?: number;
  /** A script to run instead of bin/plants.js (for the helper's own tests). */
  bin?: string;
  /**
   * A file opened (for writing) as the child's stdout in place of the pipe,
   * such as /dev/full (every write fails with ENOSPC); the result's stdout
   * is then empty. Not with `tty`.
   */
  stdoutTo?: string;
}

/**
 * The error to fail a run with when the token shows up in its output, or
 * undefined: as it is, or split by characters a reader does not see (raw,
 * or as a terminal shows them: `\u200b`). The run's promise rejects with it
 * at once, rather than an `expect` thrown in an event handler, which would
 * leave the test to time out.
 */
export function tokenLeak(output: { stdout: string; stderr: string }): Error | undefined {
  for (const stream of ['stdout', 'stderr'] as const) {
    const text = output[stream];
    if (text.includes(TOKEN)) return new Error(`the token leaked to ${stream}:\n${text}`);
    if (withoutInvisibles(text).includes(TOKEN)) {
      return new Error(`the token leaked to ${stream}, split by invisible characters:\n${JSON.stringify(text)}`);
    }
  }
  return undefined;
}

/**
 * No test reaches the user's keyring: tokens go to the config file unless
 * a test starts its own Secret Service (test/helpers/keyring.ts) and says so.
 */
export const NO_KEYRING = {
  PLANTS_KEYRING: 'off',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/plants-tests-have-no-session-bus',
};

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

export function runCli(args: string[], options: RunOptions): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.configDir,
    PLANTS_CONFIG_DIR: options.configDir,
    NO_COLOR: '1',
    // Failures answer at once; the retry tests turn retries back on.
    PLANTS_RETRIES: '0',
    ...NO_KEYRING,
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const argv = [process.execPath, options.bin ?? PLANTS_BIN, ...args];
  const size = options.columns === undefined ? '' : `stty cols ${options.columns} rows 30; exec `;
  const [command, ...rest] = options.tty ? ['script', '-qfec', size + argv.map(quote).join(' '), '/dev/null'] : argv;
  const answers = [...(options.answers ?? [])];
  return new Promise((resolve, reject) => {
    const out = options.stdoutTo === undefined ? 'pipe' : openSync(options.stdoutTo, 'w');
    const child = spawn(command!, rest, { env, stdio: ['pipe', out, 'pipe'] });
    // The child has its own copy of the descriptor (spawn reports a failure to start as an event).
    if (typeof out === 'number') closeSync(out);
    // Piped, always: only stdout may be a file.
    const [stdin, stderrPipe] = [child.stdin!, child.stderr!];
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      // Type only once the prompt is on screen: earlier input would be echoed by the terminal.
      while (answers[0] && stdout.includes(answers[0].when)) stdin.write(answers.shift()!.send);
    });
    stderrPipe.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    // A run that ends before reading all its input (a refusal) closes the pipe: what it left unread is no failure of the test.
    stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err);
    });
    child.on('close', (code, signal) => {
      const leak = tokenLeak({ stdout, stderr });
      if (leak) reject(leak);
      else resolve({ code, signal, stdout, stderr });
    });
    if (options.input !== undefined || !options.tty) stdin.end(options.input ?? '');
  });
}

/**
 * Start bin/plants.js and leave it running, for tests that signal it or
 * read it mid-run; `exit` resolves with its exit code, or rejects at once
 * if the token showed up in its output.
 */
export function spawnCli(
  args: string[],
  options: { configDir: string; env: Record<string, string>; input?: string; bin?: string },
) {
  const child = spawn(process.execPath, [options.bin ?? PLANTS_BIN, ...args], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: options.configDir,
      PLANTS_CONFIG_DIR: options.configDir,
      ...NO_KEYRING,
      ...options.env,
    },
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk));
  child.stdin.end(options.input ?? '');
  const exit = new Promise<number | null>((resolve, reject) =>
    child.on('close', (code) => {
      const leak = tokenLeak(out);
      if (leak) reject(leak);
      else resolve(code);
    }),
  );
  return { child, out, exit };
}

/**
 * Wait until `condition` holds, checking as events arrive (every few ms),
 * and fail naming `what` if it does not within `deadlineMs`.
 */
export async function waitFor(condition: () => boolean, what: string, deadlineMs = 10_000): Promise<void> {
  const giveUp = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > giveUp) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
