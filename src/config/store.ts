import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Env } from '../shared/env.js';
import { ConfigError, UsageError } from '../shared/errors.js';
import { abandonedTemporaries, removeAbandonedTemporaries, writeFileAtomically, type WriteFs } from './atomic-write.js';
import { errorCode, fsReason } from '../shared/fs-reason.js';
import { withLock, type DebugLog } from './lock.js';
import { NO_ORIGIN, originOf } from './token-origin.js';

/**
 * Plants a delete or prune of the profile refuses to touch (unless
 * --include-protected): by id (a whole number under any spelling), exact
 * tag, or a glob on the whole name.
 */
export interface Protections {
  ids: string[];
  tags: string[];
  names: string[];
}

export const PROTECTION_KINDS = ['ids', 'tags', 'names'] as const;

/** One profile's settings. */
interface ProfileSettings {
  /** Base URL of the service, e.g. `https://plants.example.com/api`. Default: unset. */
  'base-url'?: string;
  /** Bearer token kept in this file, written only by `plants auth login`. Default: unset. */
  token?: string;
  /** The token is in the OS keyring, for this base URL origin (`auth login`). Default: unset. */
  'token-keyring'?: string;
  /** A command that prints the token (`auth login --token-command`). Default: unset. */
  'token-command'?: string;
  /** The origin `token` or `token-command` is for (`auth login`); `none`: for no origin, never sent. Default: unset. */
  'token-origin'?: string;
  /** The default cap on one run's deletes: `50` or `10%` (as --max-deletes). Default: unset, no cap. */
  'max-deletes'?: string;
  /** Written only by `plants config protect/unprotect`. Default: none. */
  protected?: Partial<Protections>;
}

/** The settings that are one string. */
type ProfileKey = 'base-url' | 'token' | 'token-keyring' | 'token-command' | 'token-origin' | 'max-deletes';
const STRING_KEYS: readonly ProfileKey[] = [
  'base-url',
  'token',
  'token-keyring',
  'token-command',
  'token-origin',
  'max-deletes',
];

/**
 * Where a profile's token is kept: one place at a time, and the origin it
 * is bound to (token-origin.ts); undefined: bound to none, never sent.
 */
export type StoredToken =
  | { store: 'file'; token: string; origin: string | undefined }
  | { store: 'keyring'; origin: string }
  | { store: 'command'; command: string; origin: string | undefined };

const TOKEN_KEYS = ['token', 'token-keyring', 'token-command', 'token-origin'] as const;

export const DEFAULT_PROFILE = 'default';

/** The config file's name in configDir. */
export const CONFIG_FILE = 'config.json';

/** Profile names: letters, digits, dot, dash and underscore, up to 64 characters. */
const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;
const PROFILE_NAME_RULE = 'letters, digits, dot, dash or underscore, at most 64 characters';

/** A profile name as --profile, PLANTS_PROFILE and the config commands take it (PROFILE_NAME). */
export function parseProfileName(raw: string, source = '--profile'): string {
  if (!PROFILE_NAME.test(raw)) {
    throw new UsageError(`invalid profile name ${JSON.stringify(raw)} (${source}): use ${PROFILE_NAME_RULE}`);
  }
  return raw;
}

/** Where the name of the profile in use came from when `config use` chose it (see resolveProfile). */
export const CHOSEN_BY_USE = "'plants config use'";

/**
 * The one message for a profile name that names no profile: the profiles
 * there are, and how to create it. `source` is where the name came from
 * (--profile, PLANTS_PROFILE, CHOSEN_BY_USE), none for a command's
 * argument. A flag or an argument is a usage error, a variable or the
 * file's choice configuration; both exit 2.
 */
export function noSuchProfile(name: string, known: readonly string[], source?: string): UsageError | ConfigError {
  const list = known.length > 0 ? `profiles: ${known.join(', ')}` : 'there are no profiles yet';
  const back = source === CHOSEN_BY_USE ? ", or go back with 'plants config use default'" : '';
  const message =
    `no profile named ${name} (${source ? `from ${source}; ` : ''}${list}); ` +
    `create one with 'plants --profile ${name} config set base-url <url>'${back}`;
  return source === undefined || source === '--profile' ? new UsageError(message) : new ConfigError(message);
}

/**
 * The directory that holds `config.json`: `PLANTS_CONFIG_DIR`, else
 * `$XDG_CONFIG_HOME/plants` (an absolute path only, as the XDG spec says: a
 * relative one is ignored), else `~/.config/plants` (`%APPDATA%\plants` on Windows).
 * Always absolute, so `config path` names the same file from any directory.
 */
export function configDir(env: Env): string {
  if (env.PLANTS_CONFIG_DIR) return resolve(env.PLANTS_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME)) return join(env.XDG_CONFIG_HOME, 'plants');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'plants');
  // HOME first where os.homedir() reads it first too (not on Windows): node:os is loaded only without it.
  const home = (process.platform !== 'win32' && env.HOME) || process.getBuiltinModule('node:os').homedir();
  return join(home, '.config', 'plants');
}

/**
 * The subset of conf's API the CLI uses: it finds and reads the file.
 * Writes go through writeFileAtomically instead of conf's store setter.
 */
export interface ConfLike {
  readonly path: string;
  readonly store: Record<string, unknown>;
}

/** Larger than any real config (a few profiles, each a URL and a token); anything bigger is refused unread. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** As conf writes it, so files stay the same shape. */
const serialize = (value: Record<string, unknown>) => JSON.stringify(value, undefined, '\t');

/** Why the config file cannot be read, one line, with how to get going again. */
export function readError(path: string, err: unknown): ConfigError {
  const reason = err instanceof SyntaxError ? 'it is not valid JSON' : fsReason(err);
  return new ConfigError(`cannot read the config file ${path}: ${reason}; fix it, or remove it and configure again`);
}

/**
 * Refuse, before conf reads it whole, a config.json that is not a regular
 * file (a directory; a FIFO would block the read forever) or is larger than
 * MAX_CONFIG_BYTES. A missing file is fine: it means an empty config.
 */
export function checkConfigFile(path: string): void {
  let stats;
  try {
    stats = statSync(path);
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return;
    throw err;
  }
  if (stats.isDirectory()) throw new Error('it is a directory');
  if (!stats.isFile()) throw new Error('it is not a regular file');
  if (stats.size > MAX_CONFIG_BYTES) {
    throw new Error(
      `it is ${stats.size} bytes, more than the 1 MiB (${MAX_CONFIG_BYTES} bytes) a config file may hold`,
    );
  }
}

/**
 * The keys that keep plants safe are checked strictly: a hand edit that
 * misspells one (`max_deletes`, `"protected": {"tag": …}`) would otherwise
 * be ignored, and a run would delete what the user meant to protect.
 */
function checkGuardKeys(
  settings: Record<string, unknown>,
  profile: string,
  invalid: (what: string) => ConfigError,
): void {
  for (const key of Object.keys(settings)) {
    const meant = GUARD_NEAR_MISSES[key.toLowerCase().replace(/[^a-z]/g, '')];
    if (meant !== undefined && meant !== key) {
      throw invalid(`profile "${profile}" has "${key}", which plants does not read; did you mean "${meant}"?`);
    }
  }
  if (settings['max-deletes'] === '') throw invalid(`"max-deletes" of profile "${profile}" is empty`);
  const rules = settings.protected;
  if (rules === undefined) return;
  if (!isObject(rules)) throw invalid(`"protected" of profile "${profile}" must be an object`);
  for (const key of Object.keys(rules)) {
    if (!(PROTECTION_KINDS as readonly string[]).includes(key)) {
      throw invalid(
        `"protected" of profile "${profile}" has "${key}", which plants does not read; its lists are ${PROTECTION_KINDS.map((kind) => `"${kind}"`).join(', ')}`,
      );
    }
  }
  for (const kind of PROTECTION_KINDS) {
    const list = rules[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every((rule) => typeof rule === 'string' && rule !== '')) {
      // A number is refused, not read: JSON numbers beyond 2^53 lose digits, and would protect another id.
      throw invalid(
        `"protected.${kind}" of profile "${profile}" must be a list of non-empty strings (an id as "42", not 42)`,
      );
    }
  }
}

/** Spellings of the guard keys, letters only, lower case: what each was meant to be. */
/** What plants reads at the top of the file (`base-url` and `token` from before profiles). */
const TOP_LEVEL_KEYS = ['profile', 'profiles', 'base-url', 'token'];

/**
 * A top-level key that is a near miss of one plants reads (`Profile`,
 * `"profile "`, `profles`) is refused: read as nothing, it would leave the
 * profile in use, or every profile and its protections, unread. Other keys
 * (`$schema`, a note) are left alone.
 */
function checkTopLevelKeys(data: Record<string, unknown>, invalid: (what: string) => ConfigError): void {
  const letters = (key: string) => key.toLowerCase().replace(/[^a-z]/g, '');
  for (const key of Object.keys(data)) {
    if (TOP_LEVEL_KEYS.includes(key)) continue;
    const ranked = TOP_LEVEL_KEYS.map((known) => ({ known, distance: editDistance(letters(key), letters(known)) }));
    const nearest = ranked.sort((a, b) => a.distance - b.distance)[0]!;
    if (nearest.distance <= 2) {
      throw invalid(`it has "${key}", which plants does not read; did you mean "${nearest.known}"?`);
    }
  }
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions from `a` to `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

const GUARD_NEAR_MISSES: Record<string, string> = {
  maxdeletes: 'max-deletes',
  maxdelete: 'max-deletes',
  protected: 'protected',
  protect: 'protected',
  protection: 'protected',
  protections: 'protected',
};

/** The rules as stored, each list a fresh copy (the constructor checked their shape). */
function copyRules(stored: Partial<Protections> | undefined): Protections {
  const list = (kind: keyof Protections) => {
    const rules: unknown = stored?.[kind];
    return Array.isArray(rules) ? rules.filter((rule): rule is string => typeof rule === 'string' && rule !== '') : [];
  };
  return { ids: list('ids'), tags: list('tags'), names: list('names') };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A profile's setting that is a string, unless it is empty or missing. */
function stringSetting(settings: ProfileSettings | undefined, key: ProfileKey): string | undefined {
  const value = settings?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The origin a token in the file or a token command is bound to. One stored
 * before tokens were bound has no `token-origin`: it is bound to the
 * origin of the profile's base URL, or to none without one (ConfigStore
 * writes that down when it opens the file: #bindTokens).
 */
function tokenOriginOf(settings: ProfileSettings | undefined): string | undefined {
  const recorded = stringSetting(settings, 'token-origin');
  if (recorded === undefined) return originOf(stringSetting(settings, 'base-url'));
  return recorded === NO_ORIGIN ? undefined : originOf(recorded);
}

/** Where a profile's settings keep its token (see ConfigStore.storedToken). */
function storedTokenOf(settings: ProfileSettings | undefined): StoredToken | undefined {
  const command = stringSetting(settings, 'token-command');
  if (command !== undefined) return { store: 'command', command, origin: tokenOriginOf(settings) };
  const origin = stringSetting(settings, 'token-keyring');
  if (origin !== undefined) return { store: 'keyring', origin };
  const token = stringSetting(settings, 'token');
  return token === undefined ? undefined : { store: 'file', token, origin: tokenOriginOf(settings) };
}

/** A token in the file or a token command with no `token-origin`: stored before tokens were bound to one. */
function unbound(settings: ProfileSettings | undefined): boolean {
  const stored = storedTokenOf(settings);
  return stored !== undefined && stored.store !== 'keyring' && stringSetting(settings, 'token-origin') === undefined;
}

/**
 * The config file, through conf: named profiles, each with a base URL and a
 * token. A file from before profiles (top-level `base-url` and `token`) is
 * moved into the `default` profile on first use, in one atomic write.
 */
export class ConfigStore {
  readonly #conf: ConfLike;
  readonly #fs: Partial<WriteFs> | undefined;
  readonly #debug: DebugLog | undefined;
  /**
   * The file as this store last read or wrote it: every question a run asks
   * is answered from one read (each read is conf's open, parse and checks),
   * so a run sees the file at one moment. A write reads it afresh inside
   * the lock; the question after it reads the file again.
   */
  #snapshot: Record<string, unknown> | undefined;

  /**
   * `fs`: file-system calls for the writer to use instead of node:fs's (tests make them fail).
   * `debug`: where to say that a dead run's lock was taken over (--debug).
   */
  constructor(conf: ConfLike, fs?: Partial<WriteFs>, debug?: DebugLog) {
    this.#conf = conf;
    this.#fs = fs;
    this.#debug = debug;
    const data = this.#read();
    this.#snapshot = data;
    const invalid = (what: string) =>
      new ConfigError(`config file ${conf.path} is invalid: ${what}; fix it, or remove it and configure again`);
    checkTopLevelKeys(data, invalid);
    if (data.profile !== undefined && typeof data.profile !== 'string') throw invalid('"profile" must be a string');
    if (data.profiles !== undefined && !isObject(data.profiles)) throw invalid('"profiles" must be an object');
    // A name --profile refuses could be used through the file but never selected, renamed or deleted by plants.
    const unselectable = (name: string) =>
      invalid(`the profile name ${JSON.stringify(name)} is not one plants can select (${PROFILE_NAME_RULE})`);
    if (typeof data.profile === 'string' && !PROFILE_NAME.test(data.profile)) {
      throw invalid(
        `"profile" names ${JSON.stringify(data.profile)}, not a profile name plants can select (${PROFILE_NAME_RULE})`,
      );
    }
    for (const [name, settings] of Object.entries(data.profiles ?? {})) {
      if (!PROFILE_NAME.test(name)) throw unselectable(name);
      if (!isObject(settings)) throw invalid(`profile "${name}" must be an object`);
      for (const key of STRING_KEYS) {
        if (settings[key] !== undefined && typeof settings[key] !== 'string') {
          throw invalid(`"${key}" of profile "${name}" must be a string`);
        }
      }
      checkGuardKeys(settings, name, invalid);
    }
    for (const key of ['base-url', 'token']) {
      if (data[key] !== undefined && typeof data[key] !== 'string') throw invalid(`"${key}" must be a string`);
    }
    this.#migrate(data);
    this.#bindTokens();
  }

  /**
   * A token stored before tokens were bound to an origin is bound, when the
   * file is first read, to its profile's base URL origin (or to none), in
   * one atomic write. When the file cannot be written, the token is read as
   * bound all the same (storedTokenOf), and the write is tried next run.
   */
  #bindTokens(): void {
    if (!Object.values(this.#profiles()).some(unbound)) return;
    try {
      this.#updateProfiles((profiles) =>
        Object.fromEntries(
          Object.entries(profiles).map(([name, settings]) => [
            name,
            unbound(settings) ? { ...settings, 'token-origin': tokenOriginOf(settings) ?? NO_ORIGIN } : settings,
          ]),
        ),
      );
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      this.#debug?.(`the token origins of ${this.#conf.path} are not written down: ${err.message}`);
    }
    // A run still answers every question from one read of the file.
    this.#snapshot = this.#read();
  }

  /** Top-level settings from before profiles become the default profile's; profile values win. */
  #migrate(data: Record<string, unknown>): void {
    if (data['base-url'] === undefined && data.token === undefined) return;
    this.#update((current) => {
      const { 'base-url': baseUrl, token, ...rest } = current;
      const profiles = { ...(rest.profiles as Record<string, ProfileSettings> | undefined) };
      const legacy: ProfileSettings = {};
      if (typeof baseUrl === 'string') legacy['base-url'] = baseUrl;
      if (typeof token === 'string') legacy.token = token;
      profiles[DEFAULT_PROFILE] = { ...legacy, ...profiles[DEFAULT_PROFILE] };
      return { ...rest, profiles };
    });
  }

  get path(): string {
    return this.#conf.path;
  }

  /** The file as it is now (conf reads it on every access), or a ConfigError saying why not. */
  #read(): Record<string, unknown> {
    try {
      checkConfigFile(this.#conf.path);
      return this.#conf.store;
    } catch (err) {
      throw readError(this.#conf.path, err);
    }
  }

  /** The file as last read or written (see #snapshot). */
  #current(): Record<string, unknown> {
    return (this.#snapshot ??= this.#read());
  }

  #profiles(): Record<string, ProfileSettings> {
    return { ...(this.#current().profiles as Record<string, ProfileSettings> | undefined) };
  }

  /** The profile `config use` chose, else `default`. */
  get currentProfile(): string {
    const chosen = this.#current().profile;
    return typeof chosen === 'string' ? chosen : DEFAULT_PROFILE;
  }

  /** The profiles stored in the file. */
  profileNames(): string[] {
    return Object.keys(this.#profiles()).sort();
  }

  /** The profiles that can be selected: those stored, and the default, which always exists. */
  selectableProfiles(): string[] {
    return [...new Set([...this.profileNames(), DEFAULT_PROFILE])].sort();
  }

  hasProfile(name: string): boolean {
    return Object.hasOwn(this.#profiles(), name);
  }

  get(profile: string, key: ProfileKey): string | undefined {
    return stringSetting(this.#profiles()[profile], key);
  }

  /** The profile's protection rules (none when it has none, or does not exist). */
  protections(profile: string): Protections {
    return copyRules(this.#profiles()[profile]?.protected);
  }

  /**
   * Change the profile's protection rules in one locked write; `change` gets
   * the rules as stored at that moment. Empty lists are left out of the file.
   */
  updateProtections(
    profile: string,
    change: (rules: Protections) => Protections,
  ): { before: Protections; after: Protections } {
    let result: { before: Protections; after: Protections } | undefined;
    this.#updateProfiles((profiles) => {
      const before = copyRules(profiles[profile]?.protected);
      const next = change(copyRules(profiles[profile]?.protected));
      result = { before, after: next };
      const { protected: _previous, ...rest } = profiles[profile] ?? {};
      const kept = Object.fromEntries(
        PROTECTION_KINDS.filter((kind) => next[kind].length > 0).map((kind) => [kind, next[kind]]),
      );
      return { ...profiles, [profile]: Object.keys(kept).length > 0 ? { ...rest, protected: kept } : rest };
    });
    return result!;
  }

  /**
   * Where the profile's token is kept, without reading it. Only one place
   * is ever written (setToken); in a hand-edited file with several, the
   * command wins, then the keyring, then the file.
   */
  storedToken(profile: string): StoredToken | undefined {
    // One read of the file for the three: what it holds at one moment.
    return storedTokenOf(this.#profiles()[profile]);
  }

  /**
   * Keep the profile's token in one place, forgetting any other, in one
   * write; undefined forgets them all. Returns where the token was kept
   * just before, as the write found the file inside its lock (another run
   * may have changed it since this one opened it: a login waiting at its
   * prompt).
   */
  setToken(profile: string, stored: StoredToken | undefined): StoredToken | undefined {
    let before: StoredToken | undefined;
    this.#updateProfiles((profiles) => {
      before = storedTokenOf(profiles[profile]);
      const settings: ProfileSettings = { ...profiles[profile] };
      for (const key of TOKEN_KEYS) delete settings[key];
      if (stored?.store === 'file') settings.token = stored.token;
      if (stored?.store === 'keyring') settings['token-keyring'] = stored.origin;
      if (stored?.store === 'command') settings['token-command'] = stored.command;
      if (stored !== undefined && stored.store !== 'keyring') settings['token-origin'] = stored.origin ?? NO_ORIGIN;
      return { ...profiles, [profile]: settings };
    });
    return before;
  }

  set(profile: string, key: ProfileKey, value: string): void {
    this.#updateProfiles((profiles) => ({ ...profiles, [profile]: { ...profiles[profile], [key]: value } }));
  }

  delete(profile: string, key: ProfileKey): void {
    this.#updateProfiles((profiles) => {
      if (!profiles[profile]) return profiles;
      const { [key]: _removed, ...rest } = profiles[profile];
      return { ...profiles, [profile]: rest };
    });
  }

  /** Make `name` the profile used when none is selected. */
  use(name: string): void {
    this.#update(({ profile: _previous, ...rest }) => (name === DEFAULT_PROFILE ? rest : { ...rest, profile: name }));
  }

  deleteProfile(name: string): void {
    this.#update((current) => {
      const { [name]: _removed, ...profiles } = {
        ...(current.profiles as Record<string, ProfileSettings> | undefined),
      };
      const { profile, ...rest } = current;
      return profile === name ? { ...rest, profiles } : { ...current, profiles };
    });
  }

  /**
   * Remove, holding the lock, the temporary files that runs killed
   * mid-write left beside the file (they may hold a token); how many.
   * Every write does it too. With none there, the lock is not taken: a
   * read-only directory is no error then.
   */
  removeAbandonedTemporaries(): number {
    if (abandonedTemporaries(this.#conf.path).length === 0) return 0;
    let removed = 0;
    this.#locked(() => (removed = removeAbandonedTemporaries(this.#conf.path)));
    return removed;
  }

  #updateProfiles(change: (profiles: Record<string, ProfileSettings>) => Record<string, ProfileSettings>): void {
    this.#update((current) => ({
      ...current,
      profiles: change({ ...(current.profiles as Record<string, ProfileSettings> | undefined) }),
    }));
  }

  /**
   * Read, change and write the whole file while holding its lock, so runs
   * at the same time neither corrupt it (writes are atomic) nor lose each
   * other's changes (the read happens inside the lock). Any failure leaves
   * the file as it was and is a ConfigError naming it and the reason.
   */
  #update(change: (current: Record<string, unknown>) => Record<string, unknown>): void {
    const path = this.#conf.path;
    // Read again after the write, whether it went through or failed (and
    // not from a read made while it was under way).
    try {
      this.#locked(() => {
        removeAbandonedTemporaries(path);
        const text = serialize(change(this.#read()));
        const size = Buffer.byteLength(text);
        if (size > MAX_CONFIG_BYTES) {
          throw new ConfigError(
            `cannot write the config file ${path}: it would be ${size} bytes, more than the 1 MiB (${MAX_CONFIG_BYTES} bytes) a config file may hold; nothing was changed`,
          );
        }
        try {
          writeFileAtomically(path, text, { mode: 0o600, fs: this.#fs });
        } catch (err) {
          throw new ConfigError(`cannot write the config file ${path}: ${fsReason(err)}; nothing was changed`);
        }
      });
    } finally {
      this.#snapshot = undefined;
    }
  }

  #locked(fn: () => void): void {
    withLock(this.#conf.path, fn, this.#debug);
  }
}
