import { ConfigError } from '../shared/errors.js';
import { fsReason } from '../shared/fs-reason.js';
import { abandonedTemporaries, removeAbandonedTemporaries, writeFileAtomically, type WriteFs } from './atomic-write.js';
import { checkConfigData } from './config-checks.js';
import { checkConfigFile, MAX_CONFIG_BYTES, readError, serialize, type ConfLike } from './config-file.js';
import { withLock, type DebugLog } from './lock.js';
import { DEFAULT_PROFILE } from './profile-names.js';
import {
  copyRules,
  PROTECTION_KINDS,
  storedTokenOf,
  stringSetting,
  TOKEN_KEYS,
  tokenOriginOf,
  unbound,
  type ProfileKey,
  type ProfileSettings,
  type Protections,
  type StoredToken,
} from './profile-settings.js';
import { NO_ORIGIN } from './token-origin.js';

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
    checkConfigData(data, conf.path);
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
