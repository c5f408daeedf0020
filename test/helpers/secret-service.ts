import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MethodCall } from '../../src/config/dbus.js';
import type { DBusValue } from '../../src/config/dbus-wire.js';

/**
 * A real Secret Service of the test's own: a private D-Bus session bus and
 * GNOME Keyring on it, its keyrings under the test's directory, unlocked
 * with a password of its own. Nothing reaches the user's session or
 * keyring, nor a screen: its unlock prompter is a script that counts the
 * prompts asked for and dismisses them. Needs Debian's dbus, gnome-keyring and libsecret-tools (.ci/run
 * installs them); `missing()` says what is not there.
 */

const PROGRAMS = ['dbus-daemon', 'gnome-keyring-daemon', 'secret-tool'];

/** What is missing to start one, or undefined. */
export function secretServiceMissing(): string | undefined {
  if (process.platform !== 'linux') return 'the Secret Service tests need Linux';
  const missing = PROGRAMS.filter((program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0);
  return missing.length > 0
    ? `${missing.join(', ')} not installed (apt-get install dbus gnome-keyring libsecret-tools)`
    : undefined;
}

export interface SecretService {
  /** The variables that point a process at this bus (and nothing of the user's). */
  env: Record<string, string>;
  /** `secret-tool` on this bus: its stdout, or null when it fails. */
  secretTool(args: string[], input?: string): string | null;
  /** Lock the default keyring, as a screen lock does (locking never prompts). */
  lock(): Promise<void>;
  /** Whether the default keyring is locked. */
  locked(): Promise<boolean>;
  /** How many unlock prompts GNOME Keyring has asked for. */
  prompts(): number;
  close(): Promise<void>;
}

/** What a child process writes to stderr, kept for the message when it fails. */
function stderrOf(child: ChildProcess): () => string {
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  return () => err.trim() || '(empty)';
}

/** Wait, with a deadline, for the first line a process prints (whole, or the last before it ends). */
function firstLine(child: ChildProcess, what: string, deadlineMs = 15_000): Promise<string> {
  const stderr = stderrOf(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} printed nothing within ${deadlineMs} ms: ${out}; stderr: ${stderr()}`)),
      deadlineMs,
    );
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((text, index, lines) => index < lines.length - 1 && text.trim() !== '');
      if (line !== undefined) {
        clearTimeout(timer);
        resolve(line.trim());
      }
    });
    // 'close', not 'exit': what it printed just before it ended is read by then.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((text) => text.trim() !== '');
      if (line !== undefined) resolve(line.trim());
      else
        reject(
          new Error(`${what} ended (status ${code}, signal ${signal}) before printing: ${out}; stderr: ${stderr()}`),
        );
    });
  });
}

/**
 * A stand-in for GNOME Keyring's unlock prompter (gcr-prompter), which the
 * bus starts (from the bus's XDG_DATA_HOME) when a prompt is asked for: it
 * writes a line to `asked` and exits, which dismisses the prompt.
 */
function installPrompter(home: string, asked: string): void {
  const script = join(home, 'prompter.sh');
  writeFileSync(
    script,
    `#!/bin/sh
echo asked >> '${asked}'
exit 1
`,
    { mode: 0o700 },
  );
  const services = join(home, 'data', 'dbus-1', 'services');
  mkdirSync(services, { recursive: true });
  writeFileSync(
    join(services, 'org.gnome.keyring.SystemPrompter.service'),
    `[D-BUS Service]\nName=org.gnome.keyring.SystemPrompter\nExec=${script}\n`,
  );
}

/** One Secret Service call on the bus at `address`. */
async function secretsCall(address: string, call: Omit<MethodCall, 'destination'>): Promise<DBusValue[]> {
  // Loaded when called: the bench (scripts/bench.js) imports this file under plain Node.js, where
  // src/'s .js specifiers do not lead to its .ts files; it never locks the keyring.
  const { openBus, sessionBusSocket } = await import('../../src/config/dbus.js');
  const stop = new AbortController();
  try {
    const bus = await openBus(sessionBusSocket({ DBUS_SESSION_BUS_ADDRESS: address })!, stop.signal);
    return await bus.call({ destination: 'org.freedesktop.secrets', ...call });
  } finally {
    stop.abort();
  }
}

export async function startSecretService(dir: string): Promise<SecretService> {
  const home = join(dir, 'keyring-home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const asked = join(dir, 'prompts-asked');
  installPrompter(home, asked);
  const bus = spawn(
    'dbus-daemon',
    ['--session', '--nofork', '--print-address=1', `--address=unix:path=${join(dir, 'bus')}`],
    // Its XDG_DATA_HOME holds the prompter's service file, found before the system's.
    {
      env: { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const address = await firstLine(bus, 'dbus-daemon');
  const env = {
    DBUS_SESSION_BUS_ADDRESS: address,
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_RUNTIME_DIR: home,
  };
  const daemonEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env };
  // --unlock starts the daemon (it forks), creates the login keyring with this password, and prints its variables when ready.
  const keyring = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets'], {
    env: daemonEnv,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const keyringStderr = stderrOf(keyring);
  keyring.stdin.end('test-keyring-password');
  // It exits once the daemon it forked holds the unlocked keyring.
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    keyring.once('close', (...ended) => resolve(ended)),
  );
  if (code !== 0) {
    bus.kill();
    throw new Error(
      `gnome-keyring-daemon --unlock ended with status ${code}, signal ${signal}; stderr: ${keyringStderr()}`,
    );
  }
  return {
    env,
    secretTool(args, input) {
      // A lookup that finds nothing exits 1: that is null, not a failure of the helper.
      const r = spawnSync('secret-tool', args, { env: daemonEnv, input: input ?? '', encoding: 'utf8' });
      return r.status === 0 ? r.stdout : null;
    },
    async lock() {
      const service = { path: '/org/freedesktop/secrets', interface: 'org.freedesktop.Secret.Service' };
      const [collection] = await secretsCall(address, {
        ...service,
        member: 'ReadAlias',
        signature: 's',
        body: ['default'],
      });
      await secretsCall(address, { ...service, member: 'Lock', signature: 'ao', body: [[collection!]] });
    },
    async locked() {
      const [locked] = await secretsCall(address, {
        path: '/org/freedesktop/secrets/aliases/default',
        interface: 'org.freedesktop.DBus.Properties',
        member: 'Get',
        signature: 'ss',
        body: ['org.freedesktop.Secret.Collection', 'Locked'],
      });
      return (locked as { value: boolean }).value;
    },
    prompts: () => (existsSync(asked) ? readFileSync(asked, 'utf8').split('\n').length - 1 : 0),
    close: () =>
      new Promise((resolve) => {
        // The keyring daemon leaves when its bus does.
        if (bus.exitCode !== null) return resolve();
        bus.once('exit', () => resolve());
        bus.kill();
      }),
  };
}
