import type { ChildProcess } from 'node:child_process';
import type { Env } from '../shared/env.js';
import { parseTimeout } from '../shared/values.js';
import { fromVariable, switchedOff, switchSetting } from './variables.js';

/**
 * The OS keyring, through @napi-rs/keyring (docs/decisions/0004, docs/configuration.md "Where the
 * token is kept"): macOS Keychain, Windows Credential Manager, the Secret
 * Service on Linux (GNOME Keyring, KWallet, KeePassXC). Loaded only by a run
 * that reads or writes a token there: the native module stays off every
 * other run's start-up path.
 */

/** The keyring's service name; each profile's entry is its own account under it (keyringAccount). */
export const KEYRING_SERVICE = 'plants';

/** How long a keyring call may take: a locked collection may wait on an unlock prompt. PLANTS_KEYRING_TIMEOUT changes it. */
const KEYRING_TIMEOUT_SECONDS = 60;

function keyringTimeoutMs(env: Env): number {
  return (fromVariable(env, 'PLANTS_KEYRING_TIMEOUT', parseTimeout) ?? KEYRING_TIMEOUT_SECONDS) * 1000;
}

export interface Keyring {
  /** What `auth status` calls it: `Secret Service`, `macOS Keychain`, `Windows Credential Manager`. */
  readonly name: string;
  get(account: string): Promise<string | null>;
  set(account: string, token: string): Promise<void>;
  /** True when there was an entry to remove. */
  delete(account: string): Promise<boolean>;
}

/** A keyring that is there but did not do what was asked: locked, a prompt dismissed, no answer in time. */
export class KeyringFailure extends Error {
  override name = 'KeyringFailure';
}

/** No keyring can be used, and why, in a few words for a message. */
export class KeyringUnavailable extends Error {
  override name = 'KeyringUnavailable';
  /** Turned off by the user (PLANTS_KEYRING=off), not missing. */
  readonly turnedOff: boolean;
  constructor(message: string, { turnedOff = false } = {}) {
    super(message);
    this.turnedOff = turnedOff;
  }
}

/**
 * One entry per profile and base URL origin (`staging https://plants.example.com`):
 * two profiles never read each other's token, and a token stored for one
 * origin is never read for another.
 */
export function keyringAccount(profile: string, origin: string): string {
  return `${profile} ${origin}`;
}

function platformName(): string {
  if (process.platform === 'darwin') return 'macOS Keychain';
  if (process.platform === 'win32') return 'Windows Credential Manager';
  return 'Secret Service';
}

const NO_DEFAULT_KEYRING = 'the Secret Service has no default keyring to keep it in';

/** The message of a keyring error, one line, without the binding's prefix. */
export function keyringReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const line = message
    .split('\n')[0]!
    .replace(/^Platform failure: /, '')
    .trim();
  // libdbus's words for the usual cases, said as a person would look for them.
  if (/DBUS_SESSION_BUS_ADDRESS|autolaunch/.test(line))
    return 'no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set';
  const socket = /Failed to connect to socket (\S+?):? /.exec(line);
  if (socket) return `no D-Bus session bus at ${socket[1]}`;
  if (/org\.freedesktop\.secrets|ServiceUnknown/.test(line)) return 'no Secret Service on the D-Bus session bus';
  if (/Secret Service: no result found/.test(line)) return NO_DEFAULT_KEYRING;
  if (/prompt was dismissed|dismissed/i.test(line)) return 'the unlock prompt was dismissed';
  if (/Did not receive a reply/.test(line)) return 'the D-Bus session bus did not answer';
  if (/locked/i.test(line)) return 'it is locked';
  return line === '' ? 'unknown error' : line;
}

/**
 * Where the native binding is, resolved by require: the built bundles are
 * CommonJS, run with a require of their own (src/startup/code-cache.ts); the
 * sources (tests) are ES modules.
 */
function bindingPath(): string {
  // node:module only where it is needed: loading it takes 0.2 ms of every run that imports this file.
  const load =
    typeof require === 'function' ? require : process.getBuiltinModule('node:module').createRequire(import.meta.url);
  return load.resolve('@napi-rs/keyring');
}

/**
 * Each keyring call runs in a child Node.js process: the binding connects to
 * D-Bus synchronously, so a bus that never answers would hang this process
 * beyond the reach of any timer or signal. A child can be killed at its
 * deadline. It says on stdout how the call went: `open` failures (no bus,
 * no Secret Service) mean there is no keyring; `call` failures (locked,
 * an unlock prompt dismissed) mean there is one that did not answer.
 */
const CALL = `
const [path, op, service, account, secretService] = process.argv.slice(1);
let input = '';
process.stdin.setEncoding('utf8').on('data', (chunk) => (input += chunk)).on('end', () => {
  const say = (result) => process.stdout.write(JSON.stringify(result));
  let entry;
  try {
    const { Entry } = require(path);
    entry = new Entry(service, account, secretService === '1' ? { linux: { store: 'secret-service' } } : undefined);
  } catch (err) {
    return say({ stage: 'open', message: String((err && err.message) || err) });
  }
  try {
    if (op === 'get') say({ value: entry.getPassword() });
    else if (op === 'set') say({ value: entry.setPassword(input) ?? null });
    else say({ value: entry.deletePassword() });
  } catch (err) {
    say({ stage: 'call', message: String((err && err.message) || err) });
  }
});
`;

interface CallResult {
  value?: string | boolean | null;
  stage?: 'open' | 'call';
  message?: string;
}

type Operation = 'get' | 'set' | 'delete';

/** Children still running when this process ends are ended with it (a cancelled CI job, Ctrl-C). */
const running = new Set<ChildProcess>();
let exitHook = false;

function call(env: Env, op: Operation, account: string, input: string, limitMs: number): Promise<CallResult> {
  let path: string;
  try {
    path = bindingPath();
  } catch (err) {
    throw new KeyringUnavailable(
      `the keyring module cannot be loaded on ${process.platform}-${process.arch}: ${keyringReason(err)}`,
    );
  }
  // Loaded here, not with this module: a run that never opens the keyring never loads it.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(
    process.execPath,
    ['-e', CALL, path, op, KEYRING_SERVICE, account, process.platform === 'linux' ? '1' : '0'],
    // The parent's NODE_OPTIONS (a preloaded script) has no business in the child.
    { env: { ...env, NODE_OPTIONS: '' }, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true },
  );
  running.add(child);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const left of running) left.kill('SIGKILL');
    });
  }
  child.stdin.end(input);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new KeyringFailure(`no answer within ${limitMs / 1000} s (is it locked, or waiting on a prompt?)`));
    }, limitMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      running.delete(child);
      reject(new KeyringUnavailable(`the keyring helper could not be started: ${err.message}`));
    });
    child.once('close', () => {
      clearTimeout(timer);
      running.delete(child);
      try {
        resolve(JSON.parse(out) as CallResult);
      } catch {
        reject(new KeyringFailure('the keyring helper ended without an answer'));
      }
    });
  });
}

/** A keyring call's answer, or the error it calls for. */
async function answer(env: Env, op: Operation, account: string, limitMs: number, input = '') {
  const result = await call(env, op, account, input, limitMs);
  if (result.stage === 'open') throw new KeyringUnavailable(keyringReason(result.message));
  if (result.stage === 'call') {
    const reason = keyringReason(result.message);
    // No default collection to keep it in is no keyring to use, as far as plants can tell.
    if (reason === NO_DEFAULT_KEYRING) throw new KeyringUnavailable(reason);
    throw new KeyringFailure(reason);
  }
  return result.value;
}

/** PLANTS_KEYRING=off: the user keeps tokens out of the OS keyring. A value other than on or off is a ConfigError. */
export function keyringOff(env: Env): boolean {
  return switchedOff(env, 'PLANTS_KEYRING');
}

/**
 * PLANTS_KEYRING=on: the keyring or nothing. `auth login` refuses when no
 * keyring can be used instead of keeping the token in the config file, and
 * a token found in the file is not read. Unset, the file is the fallback.
 */
export function keyringRequired(env: Env): boolean {
  return switchSetting(env, 'PLANTS_KEYRING') === 'on';
}

/**
 * The OS keyring, or a KeyringUnavailable saying why there is none to use:
 * PLANTS_KEYRING=off, no binding for this platform, no Secret Service on
 * the session bus. On Linux only the Secret Service is used: the binding's
 * fallback, the kernel's keyutils keyring, forgets everything at reboot.
 * A keyring that is there but fails a call (locked, a dismissed unlock
 * prompt, no answer in time) is a KeyringFailure. Each call may take
 * `timeoutMs`, by default PLANTS_KEYRING_TIMEOUT.
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async so that a bad PLANTS_KEYRING rejects, as every reason does
export async function openKeyring(env: Env, { timeoutMs }: { timeoutMs?: number } = {}): Promise<Keyring> {
  if (keyringOff(env)) throw new KeyringUnavailable('PLANTS_KEYRING=off', { turnedOff: true });
  // Read at each call: a bad PLANTS_KEYRING_TIMEOUT fails the call, as it always has.
  const limitMs = () => timeoutMs ?? keyringTimeoutMs(env);
  return {
    name: platformName(),
    get: async (account) => {
      const value = await answer(env, 'get', account, limitMs());
      return typeof value === 'string' ? value : null;
    },
    set: async (account, token) => {
      await answer(env, 'set', account, limitMs(), token);
    },
    delete: async (account) => (await answer(env, 'delete', account, limitMs())) === true,
  };
}
