import type { Env } from '../shared/env.js';
import { DBusError, openBus, sessionBusSocket, type Bus } from './dbus.js';
import type { DBusValue } from './dbus-wire.js';
import {
  KEYRING_SERVICE,
  keyringOff,
  KeyringFailure,
  KeyringUnavailable,
  openKeyring,
  type Keyring,
} from './keyring.js';

/**
 * The OS keyring read without ever prompting, for completion: a Tab press
 * must not open an unlock dialog, nor wait on one. The binding cannot
 * promise that: on a locked Secret Service item its get asks the service to
 * unlock it, which prompts, and waits (dbus-secret-service-keyring-store's
 * find_matching_items). So on Linux (and the BSDs) the token is read
 * here over D-Bus, from an unlocked item only. The macOS Keychain may
 * prompt on any read: no token there. Windows' Credential Manager never
 * prompts: the binding reads it, within the same short bound.
 */

/** How long completion waits on the keyring: a Tab press must answer fast. */
export const QUIET_KEYRING_TIMEOUT_SECONDS = 2;

const SECRETS = 'org.freedesktop.secrets';
const SERVICE = { destination: SECRETS, path: '/org/freedesktop/secrets', interface: 'org.freedesktop.Secret.Service' };

/**
 * The attributes the binding gives the item of `account` and searches it by
 * (dbus-secret-service-keyring-store: `service`, `username`; no `target`,
 * as plants sets none), so that this reads the very item its get would.
 */
export function itemAttributes(account: string): DBusValue[] {
  return [
    ['service', KEYRING_SERVICE],
    ['username', account],
  ];
}

/**
 * The secret of the one item with these attributes, if it is unlocked;
 * null when there is none. A locked match is a KeyringFailure: it is never
 * unlocked here (Unlock would prompt). More than one match is one too, as
 * the binding refuses an ambiguous entry. The secret comes over a `plain`
 * session: the session bus is the user's own socket.
 */
export async function readUnlocked(bus: Bus, account: string): Promise<string | null> {
  const [unlocked, locked] = (await bus.call({
    ...SERVICE,
    member: 'SearchItems',
    signature: 'a{ss}',
    body: [itemAttributes(account)],
  })) as [string[], string[]];
  if (locked.length > 0) throw new KeyringFailure('it is locked');
  if (unlocked.length > 1) throw new KeyringFailure(`it holds ${unlocked.length} entries for ${account}`);
  if (unlocked.length === 0) return null;
  const [, session] = (await bus.call({
    ...SERVICE,
    member: 'OpenSession',
    signature: 'sv',
    body: ['plain', { signature: 's', value: '' }],
  })) as [unknown, string];
  try {
    // An item locked since the search answers IsLocked: GetSecret never prompts.
    const [[, , value]] = (await bus.call({
      destination: SECRETS,
      path: unlocked[0]!,
      interface: 'org.freedesktop.Secret.Item',
      member: 'GetSecret',
      signature: 'o',
      body: [session],
    })) as [[string, number[], number[], string]];
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(value));
  } catch (err) {
    if (err instanceof DBusError && err.errorName === 'org.freedesktop.Secret.Error.IsLocked') {
      throw new KeyringFailure('it is locked');
    }
    throw err;
  }
}

/** The Secret Service item's secret, read as readUnlocked does, within `limitMs`. */
async function secretServiceGet(env: Env, account: string, limitMs: number): Promise<string | null> {
  const socket = sessionBusSocket(env);
  if (socket === undefined) throw new KeyringUnavailable('no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set');
  // At the deadline the connection is closed, wherever it is: nothing is left to keep the process alive.
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), limitMs);
  try {
    let bus: Bus;
    try {
      bus = await openBus(socket, stop.signal);
    } catch (err) {
      throw new KeyringUnavailable(`no D-Bus session bus at ${socket}: ${(err as Error).message}`);
    }
    return await readUnlocked(bus, account);
  } catch (err) {
    if (stop.signal.aborted) throw new KeyringFailure(`no answer within ${limitMs / 1000} s`);
    if (err instanceof DBusError && /ServiceUnknown|NameHasNoOwner/.test(err.errorName)) {
      throw new KeyringUnavailable('no Secret Service on the D-Bus session bus');
    }
    if (err instanceof DBusError) throw new KeyringFailure(err.message);
    throw err;
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}

/**
 * The keyring as completion may use it: a get that never prompts, within
 * QUIET_KEYRING_TIMEOUT_SECONDS, or a KeyringUnavailable saying why there
 * is none. It only reads: set and delete are refused.
 */
export async function openQuietKeyring(env: Env): Promise<Keyring> {
  if (keyringOff(env)) throw new KeyringUnavailable('PLANTS_KEYRING=off', { turnedOff: true });
  const limitMs = QUIET_KEYRING_TIMEOUT_SECONDS * 1000;
  if (process.platform === 'darwin')
    throw new KeyringUnavailable('the macOS Keychain may prompt: completion does not read it');
  if (process.platform === 'win32') return openKeyring(env, { timeoutMs: limitMs });
  const readOnly = () => Promise.reject(new KeyringFailure('completion only reads the keyring'));
  return {
    name: 'Secret Service',
    get: (account) => secretServiceGet(env, account, limitMs),
    set: readOnly,
    delete: readOnly,
  };
}
