import { createRequire } from 'node:module';
import type { Env } from '../env.js';

/**
 * The OS keyring, through @napi-rs/keyring (docs/choices.md, "Where the
 * token is kept"): macOS Keychain, Windows Credential Manager, the Secret
 * Service on Linux (GNOME Keyring, KWallet, KeePassXC). Loaded only by a run
 * that reads or writes a token there: the native module stays off every
 * other run's start-up path.
 */

/** The keyring's service name; each profile's entry is its own account under it (keyringAccount). */
export const KEYRING_SERVICE = 'plants';

/** How long a keyring call may take: a locked collection may wait on an unlock prompt. */
const KEYRING_TIMEOUT_MS = 60_000;

export interface Keyring {
  /** What `auth status` calls it: `Secret Service`, `macOS Keychain`, `Windows Credential Manager`. */
  readonly name: string;
  get(account: string): Promise<string | null>;
  set(account: string, token: string): Promise<void>;
  /** True when there was an entry to remove. */
  delete(account: string): Promise<boolean>;
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
  if (/Secret Service: no result found/.test(line)) return 'the Secret Service has no default keyring to keep it in';
  return line === '' ? 'unknown error' : line;
}

/**
 * The native binding, by require: the built bundles are CommonJS, run with
 * a require of their own (src/code-cache.ts), where a dynamic import() has
 * no loader; the sources (tests) are ES modules.
 */
function loadBinding(): typeof import('@napi-rs/keyring') {
  const load = typeof require === 'function' ? require : createRequire(import.meta.url);
  return load('@napi-rs/keyring') as typeof import('@napi-rs/keyring');
}

/**
 * The OS keyring, or a KeyringUnavailable saying why not: PLANTS_KEYRING=off,
 * no binding for this platform, no Secret Service on the session bus. On
 * Linux only the Secret Service is used: the binding's fallback, the
 * kernel's keyutils keyring, forgets everything at reboot.
 */
export function openKeyring(env: Env): Promise<Keyring> {
  // Loading the binding and connecting are synchronous; a failure is a rejection all the same.
  return new Promise((resolve) => resolve(keyringNow(env)));
}

function keyringNow(env: Env): Keyring {
  if ((env.PLANTS_KEYRING ?? '').trim().toLowerCase() === 'off') {
    throw new KeyringUnavailable('PLANTS_KEYRING=off', { turnedOff: true });
  }
  let binding: typeof import('@napi-rs/keyring');
  try {
    binding = loadBinding();
  } catch (err) {
    throw new KeyringUnavailable(
      `the keyring module cannot be loaded on ${process.platform}-${process.arch}: ${keyringReason(err)}`,
    );
  }
  const options = process.platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;
  const entry = (account: string) => {
    try {
      return new binding.AsyncEntry(KEYRING_SERVICE, account, options);
    } catch (err) {
      throw new KeyringUnavailable(keyringReason(err));
    }
  };
  // Made once here: constructing the entry is what connects to the Secret Service.
  entry(keyringAccount('probe', 'probe'));
  const timed = <T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const signal = AbortSignal.timeout(KEYRING_TIMEOUT_MS);
    return call(signal).catch((err: unknown) => {
      throw new KeyringUnavailable(
        signal.aborted ? `no answer within ${KEYRING_TIMEOUT_MS / 1000} s (is it locked?)` : keyringReason(err),
      );
    });
  };
  return {
    name: platformName(),
    get: (account) => timed((signal) => entry(account).getPassword(signal)),
    set: (account, token) => timed((signal) => entry(account).setPassword(token, signal)),
    delete: (account) => timed((signal) => entry(account).deletePassword(signal)),
  };
}
