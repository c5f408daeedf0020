import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { Env } from '../shared/env.js';
import { AuthError } from '../shared/errors.js';
import { redactToken } from '../secrets/redact.js';
import { maskSecrets, registerSecret } from '../secrets/registry.js';
import { printable } from '../shared/text.js';
import { parseTimeout } from '../shared/values.js';
import { fromVariable } from './variables.js';

/**
 * A command that prints the token (`auth login --token-command`): the token
 * lives in a vault (`op read`, `vault kv get`, `pass`, `secret-tool lookup`)
 * and never on disk. Run once per run that needs the token, through the
 * user's shell, with the terminal for its prompts.
 */

/** A token command's time limit: long enough to type a passphrase at its prompt. */
const DEFAULT_TIMEOUT_SECONDS = 60;

/** No token is this large; a runaway command must not fill memory. */
const MAX_OUTPUT_BYTES = 64 * 1024;

export interface TokenCommandOptions {
  env: Env;
  /** stdin is a terminal: the command gets it, for its prompts; otherwise its stdin is closed. */
  terminal: boolean;
  /** Where the command's stderr goes as it comes (its prompts), when that is a terminal. */
  stderr?: Writable;
  /** Names the command in messages: `the token command of profile staging (op …)`. */
  what: string;
}

/** The user's shell and its arguments for running `command`. */
function shellFor(command: string, env: Env): [string, string[]] {
  // As Node's own shell: true does: /s strips the outer quotes, so the command keeps its own.
  if (process.platform === 'win32') return [env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', `"${command}"`]];
  const shell = env.SHELL?.startsWith('/') ? env.SHELL : '/bin/sh';
  return [shell, ['-c', command]];
}

function timeLimitMs(env: Env): number {
  return (fromVariable(env, 'PLANTS_TOKEN_COMMAND_TIMEOUT', parseTimeout) ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
}

/**
 * The last non-blank line of a command's stderr, escaped and cut short, for
 * a message; each line it printed on stdout (the token, most likely, before
 * it failed: a shell's `set -x` echoes it on stderr too) masked in it, in
 * every form redactToken knows.
 */
function lastLine(stderr: string, stdout: string): string {
  let line = stderr.split(/\r?\n/).findLast((text) => text.trim() !== '') ?? '';
  for (const printed of stdout.split(/\r?\n/, 16)) line = redactToken(line, printed.trim());
  // And every secret the run knows, before the cut: a cut one would escape the writer's mask.
  const shown = printable(maskSecrets(line).trim());
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}

/**
 * Run the token command and return its output, trimmed: the token. An
 * AuthError (exit 4) when it fails, times out, or prints nothing or more
 * than one line; its output is never shown.
 */
export async function runTokenCommand(command: string, options: TokenCommandOptions): Promise<string> {
  const limitMs = timeLimitMs(options.env);
  const [shell, args] = shellFor(command, options.env);
  const child = spawn(shell, args, {
    env: options.env,
    stdio: [options.terminal ? 'inherit' : 'ignore', 'pipe', 'pipe'],
    // Without a terminal, its own process group: a time-out ends everything it started.
    detached: !options.terminal && process.platform !== 'win32',
    windowsHide: true,
    windowsVerbatimArguments: process.platform === 'win32',
  });
  // Ended with this process (Ctrl-C, a cancelled CI job), whatever it started with it.
  const onExit = () => stop();
  process.once('exit', onExit);
  const out: Buffer[] = [];
  let outBytes = 0;
  let tooLarge = false;
  let stderr = '';
  let timedOut = false;
  const stop = () => {
    try {
      if (child.pid !== undefined && !options.terminal && process.platform !== 'win32')
        process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
    child.stdout.destroy();
    child.stderr.destroy();
  };
  child.stdout.on('data', (chunk: Buffer) => {
    outBytes += chunk.length;
    if (outBytes > MAX_OUTPUT_BYTES) {
      tooLarge = true;
      stop();
    } else out.push(chunk);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4096);
    options.stderr?.write(chunk);
  });
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, limitMs);
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>((resolve) => {
    child.once('error', resolve);
    child.once('close', (code, signal) => resolve({ code, signal }));
    // Something it started in the background may hold its output open: a moment to read the rest, then on.
    child.once('exit', (code, signal) => setTimeout(() => resolve({ code, signal }), 500).unref());
  });
  clearTimeout(timer);
  process.removeListener('exit', onExit);
  if (!timedOut && !(ended instanceof Error)) stop();
  const fail = (why: string) => new AuthError(`${options.what} ${why}; no token`);
  if (ended instanceof Error) throw fail(`could not be started: ${ended.message}`);
  if (timedOut) throw fail(`did not finish within ${limitMs / 1000} s (PLANTS_TOKEN_COMMAND_TIMEOUT)`);
  if (tooLarge) throw fail(`printed more than ${MAX_OUTPUT_BYTES / 1024} KiB`);
  if (ended.code !== 0) {
    const status = ended.code === null ? `was killed by ${ended.signal}` : `exited with status ${ended.code}`;
    const said = lastLine(stderr, Buffer.concat(out).toString('utf8'));
    throw fail(`${status}${said ? `: ${said}` : ''}`);
  }
  const token = Buffer.concat(out).toString('utf8').trim();
  if (token === '') throw fail('printed nothing');
  const lines = token.split(/\r?\n/).length;
  if (lines > 1) throw fail(`printed ${lines} lines; it must print the token alone, on one line`);
  registerSecret(token);
  return token;
}
