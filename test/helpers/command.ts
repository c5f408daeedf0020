import { execFile, spawnSync, type ExecFileOptions, type SpawnSyncOptions } from 'node:child_process';

// Running a program a test needs (git, mkfifo, mount, openssl, npm, a
// shell): a failure says which command, how it ended (exit status or
// signal) and what it wrote to stderr. Node's execFileSync says only
// "Command failed: <command>" and lets stderr go to the test runner's own
// stderr, where nothing ties it to the test that failed.

/** At most this much of a failed command's stderr (its end, where the error usually is) goes in the message. */
const STDERR_SHOWN = 2000;

/** How a command that failed ended, and what it said, in one message. */
export function commandFailure(
  command: readonly string[],
  ended: { status: number | null; signal: NodeJS.Signals | null; error?: Error },
  stderr: string,
): Error {
  const how = ended.error
    ? `could not be run (${ended.error.message})`
    : ended.signal
      ? `was killed by ${ended.signal}`
      : `exited with status ${ended.status}`;
  const said = stderr.trim();
  const tail = said.length > STDERR_SHOWN ? `…${said.slice(-STDERR_SHOWN)}` : said;
  return new Error(`\`${command.join(' ')}\` ${how}; stderr: ${tail === '' ? '(empty)' : tail}`);
}

/** Run a program to its end and return its stdout; throw commandFailure when it does not exit 0. */
export function runCommand(
  file: string,
  args: readonly string[],
  options: Omit<SpawnSyncOptions, 'encoding' | 'stdio'> & { input?: string } = {},
): string {
  const r = spawnSync(file, args, { ...options, encoding: 'utf8', stdio: 'pipe' });
  if (r.error || r.status !== 0) {
    throw commandFailure([file, ...args], { status: r.status, signal: r.signal, error: r.error }, r.stderr ?? '');
  }
  return r.stdout;
}

/** runCommand without blocking the event loop (the test's own servers keep answering); stdout and stderr. */
export function runCommandAsync(
  file: string,
  args: readonly string[],
  options: Omit<ExecFileOptions, 'encoding'> = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024, ...options, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) {
        resolve({ stdout, stderr });
        return;
      }
      // execFile's error carries the exit status as `code` (a number), or a spawn error's code (a string).
      const status = typeof error.code === 'number' ? error.code : null;
      const signal = error.signal ?? null;
      reject(
        commandFailure(
          [file, ...args],
          { status, signal, error: (status ?? signal) === null ? error : undefined },
          stderr,
        ),
      );
    });
  });
}
