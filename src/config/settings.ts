import { parseBaseUrl } from '../shared/url.js';
import { printable } from '../shared/text.js';
import type { Env } from '../shared/env.js';
import { AuthError, ConfigError, UsageError } from '../shared/errors.js';
import { registerSecret } from '../secrets/registry.js';
import { keyringAccount, KeyringFailure, keyringRequired, KeyringUnavailable, type Keyring } from './keyring.js';
import { boundOrigin, checkTokenOrigin } from './token-origin.js';
import { fromEnv } from './variables.js';
import { CHOSEN_BY_USE, DEFAULT_PROFILE, noSuchProfile, parseProfileName, profileFlag } from './profile-names.js';
import type { StoredToken } from './profile-settings.js';
import type { ConfigStore } from './store.js';

export interface Resolved<T> {
  value: T;
  /** Where the value came from, for `auth status` and error messages. */
  source: string;
  /** The profile a value stored in the config file came from. */
  profile?: string;
}

/** Which store a token came from: `environment`, `file`, `keyring` or `command`. */
export type TokenStoreKind = 'environment' | StoredToken['store'];

/** A token, where it came from, and which store that is (`auth status`). */
export interface ResolvedToken extends Resolved<string> {
  store: TokenStoreKind;
  /** For messages and `auth status`: `keyring (Secret Service)`, `command (op …)`. */
  storeLabel: string;
}

/** How a stored token that is not in the file is read: built by the context, only when asked. */
export interface TokenReaders {
  keyring(this: void): Promise<Keyring>;
  /** Run a token command (runTokenCommand with the run's terminal). */
  command(this: void, command: string, what: string): Promise<string>;
  /** The base URL in effect: a stored token is read only for the origin it was stored for (checkTokenOrigin). */
  baseUrl(this: void): Promise<Resolved<URL>>;
}

type StoreOpener = () => Promise<ConfigStore>;
/**
 * The selected profile's name, looked up only when a stored value is needed
 * (so the file is not opened otherwise), and then checked (checkProfile).
 */
type ProfileGetter = () => Promise<string>;

/** How a command is shown: its first word, then `…` (the rest may hold a path or a name worth keeping private). */
export function shownCommand(command: string): string {
  const words = command.trim().split(/\s+/);
  // Assignments in front (`VAULT_TOKEN=… vault read …`) and `env` may hold secrets: the program is the first other word.
  const program = words.findIndex((word) => word !== 'env' && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  const name = program === -1 ? 'a command' : words[program]!;
  return printable(program !== -1 && program === words.length - 1 && program === 0 ? name : `${name} …`);
}

/** Which profile's settings apply. Precedence: --profile > PLANTS_PROFILE > `config use` > `default`. */
export async function resolveProfile(
  flag: string | undefined,
  env: Env,
  store: StoreOpener,
): Promise<Resolved<string>> {
  if (flag !== undefined) return { value: flag, source: '--profile' };
  const variable = fromEnv(env, 'PLANTS_PROFILE');
  if (variable !== undefined) {
    try {
      return { value: parseProfileName(variable.trim(), 'PLANTS_PROFILE'), source: 'PLANTS_PROFILE' };
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
  }
  const current = (await store()).currentProfile;
  return { value: current, source: current === DEFAULT_PROFILE ? '' : CHOSEN_BY_USE };
}

/**
 * The selected profile's name, for a command about to read or change its
 * settings: it must exist. The default profile always does, stored or not
 * (a fresh install has no config file); any other must be in the file, or
 * the error lists the profiles there are. Commands that store a value
 * create the profile instead of asking this.
 */
export function checkProfile(config: ConfigStore, profile: Resolved<string>): string {
  const name = profile.value;
  if (name === DEFAULT_PROFILE || config.hasProfile(name)) return name;
  throw noSuchProfile(name, config.selectableProfiles(), profile.source || undefined);
}

/** Where a stored value comes from, for messages: the file, and the profile. */
function storedSource(config: ConfigStore, profile: string): string {
  return `config file ${config.path}, profile ${profile}`;
}

/** The base URL text and where it came from, unchecked. Precedence: flag > environment > the profile. */
export async function lookupBaseUrl(
  flag: string | undefined,
  env: Env,
  store: StoreOpener,
  profile: ProfileGetter,
): Promise<Resolved<string> | undefined> {
  if (flag !== undefined) return { value: flag, source: '--base-url' };
  const variable = fromEnv(env, 'PLANTS_BASE_URL');
  if (variable !== undefined) return { value: variable, source: 'PLANTS_BASE_URL' };
  const [config, name] = [await store(), await profile()];
  const stored = config.get(name, 'base-url');
  return stored === undefined ? undefined : { value: stored, source: storedSource(config, name), profile: name };
}

/**
 * The token and where it came from, unchecked. Precedence: environment >
 * the profile's store (there is no flag): the config file, the OS keyring,
 * or a command. With `runCommand: false`, a token command is not run (the
 * token is then undefined).
 */
export async function lookupToken(
  env: Env,
  store: StoreOpener,
  profile: ProfileGetter,
  readers: TokenReaders,
  { runCommand = true } = {},
): Promise<ResolvedToken | undefined> {
  const variable = fromEnv(env, 'PLANTS_TOKEN');
  if (variable !== undefined) {
    return { value: variable, source: 'PLANTS_TOKEN', store: 'environment', storeLabel: 'environment' };
  }
  const [config, name] = [await store(), await profile()];
  const stored = config.storedToken(name);
  if (stored === undefined) return undefined;
  // Before anything is read or run: a token for another origin is never at hand.
  const base = await readers.baseUrl();
  const origin = base.value.origin;
  // Named when this profile's token is refused: the profiles that do hold one for this origin.
  const holders = config.profileNames().filter((other) => {
    const theirs = other === name ? undefined : config.storedToken(other);
    return theirs !== undefined && boundOrigin(theirs) === origin;
  });
  checkTokenOrigin(stored, name, base, holders);
  if (stored.store === 'file') return fileToken(stored.token, name, config, env);
  if (stored.store === 'command') return runCommand ? commandToken(stored.command, name, readers) : undefined;
  return keyringToken({ name, storedOrigin: stored.origin, origin }, readers, env);
}

/** A token kept in the config file; refused when PLANTS_KEYRING=on. */
function fileToken(token: string, name: string, config: ConfigStore, env: Env): ResolvedToken {
  if (keyringRequired(env)) {
    throw new AuthError(
      `PLANTS_KEYRING=on reads tokens from the OS keyring only, and the token of profile ${name} is kept in the config file; ` +
        `${relogin(name)} to keep it in the keyring, or unset PLANTS_KEYRING`,
    );
  }
  return { value: token, source: storedSource(config, name), profile: name, store: 'file', storeLabel: 'file' };
}

/** What the profile's token command prints, which must be a token alone. */
async function commandToken(command: string, name: string, readers: TokenReaders): Promise<ResolvedToken> {
  const label = `command (${shownCommand(command)})`;
  const value = await readers.command(command, `the token command of profile ${name} (${shownCommand(command)})`);
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw new AuthError(
      `the token command of profile ${name} (${shownCommand(command)}) printed a token with whitespace, control or non-ASCII characters; make it print the token alone`,
    );
  }
  return {
    value,
    source: `the token command of profile ${name}`,
    profile: name,
    store: 'command',
    storeLabel: label,
  };
}

/**
 * The profile's token in the OS keyring, under the origin it was stored for
 * (`storedOrigin`, as written in the file; `origin`: the base URL's, which
 * it matches); an AuthError saying how to go on when it cannot be read.
 */
async function keyringToken(
  { name, storedOrigin, origin }: { name: string; storedOrigin: string; origin: string },
  readers: TokenReaders,
  env: Env,
): Promise<ResolvedToken> {
  let keyring: Keyring;
  let value: string | null;
  try {
    keyring = await readers.keyring();
    value = await keyring.get(keyringAccount(name, storedOrigin));
  } catch (err) {
    if (!(err instanceof KeyringUnavailable || err instanceof KeyringFailure)) throw err;
    throw new AuthError(
      `the token of profile ${name} is kept in the OS keyring, which cannot be read: ${err.message}; ` +
        (keyringRequired(env)
          ? 'set PLANTS_TOKEN, or make the keyring reachable (PLANTS_KEYRING=on keeps tokens nowhere else)'
          : `set PLANTS_TOKEN, or run 'plants ${profileFlag(name)}auth login --insecure-storage' to keep it in the config file`),
    );
  }
  if (value === null) {
    throw new AuthError(
      `the OS keyring has no token for profile ${name} at ${origin} (it was removed); ${relogin(name)}`,
    );
  }
  const label = `keyring (${keyring.name})`;
  return {
    value,
    source: `the OS keyring, profile ${name}`,
    profile: name,
    store: 'keyring',
    storeLabel: label,
  };
}

/** How a message says to store the profile's token again. */
function relogin(name: string): string {
  return `run 'plants ${profileFlag(name)}auth login'`;
}

export async function resolveBaseUrl(
  flag: string | undefined,
  env: Env,
  store: StoreOpener,
  getProfile: ProfileGetter,
): Promise<Resolved<URL>> {
  const found = await lookupBaseUrl(flag, env, store, getProfile);
  if (!found) {
    const profile = await getProfile();
    throw new ConfigError(
      `no base URL configured${profile === DEFAULT_PROFILE ? '' : ` for profile ${profile}`}; run 'plants ${profileFlag(profile)}config set base-url <url>', set PLANTS_BASE_URL, or pass --base-url`,
    );
  }
  try {
    return { value: parseBaseUrl(found.value, found.source), source: found.source };
  } catch (err) {
    // A bad flag is a usage error; a bad stored or exported value is configuration.
    if (err instanceof UsageError && found.source !== '--base-url') throw new ConfigError(err.message);
    throw err;
  }
}

export async function resolveToken(
  env: Env,
  store: StoreOpener,
  getProfile: ProfileGetter,
  readers: TokenReaders,
): Promise<ResolvedToken> {
  const found = await lookupToken(env, store, getProfile, readers);
  // Registered as read, before it is checked: a message about a refused token must not show it.
  registerSecret(found?.value);
  const profile = found?.source === 'PLANTS_TOKEN' ? '' : await getProfile();
  if (!found) {
    throw new AuthError(
      `no token configured${profile === DEFAULT_PROFILE ? '' : ` for profile ${profile}`}; run 'plants ${profileFlag(profile)}auth login' or set PLANTS_TOKEN`,
    );
  }
  const fix =
    found.source === 'PLANTS_TOKEN'
      ? 'correct the PLANTS_TOKEN variable'
      : `store it again with 'plants ${profileFlag(profile)}auth login'`;
  checkToken(found.value, found.source, fix);
  return found;
}

/**
 * What to say when the service refuses the token (401, 403): whose token it
 * was, and how to replace it. Never the token itself.
 */
export function refusedTokenHint(token: Resolved<string>): string {
  if (token.profile === undefined) {
    return `the service refused the token from ${token.source}; set ${token.source} to a valid token (it overrides any token stored with 'plants auth login')`;
  }
  return `the service refused the token of profile ${token.profile}; run 'plants ${profileFlag(token.profile)}auth login'`;
}

/**
 * A bearer token is visible ASCII. Anything else (a pasted newline, a space,
 * a smart quote) would corrupt the header, so it is refused without echoing it.
 */
export function checkToken(token: string, source: string, fix: string): void {
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new ConfigError(`the token from ${source} contains whitespace, control or non-ASCII characters; ${fix}`);
  }
}
