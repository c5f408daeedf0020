import { mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Env } from '../env.js';
import { ConfigError } from '../errors.js';

/** What the config file holds. */
export interface StoredConfig {
  /** Base URL of the service, e.g. `https://plants.example.com/api`. Default: unset. */
  'base-url'?: string;
  /** Bearer token, written only by `plants auth login`. Default: unset. */
  token?: string;
}

export type StoredKey = keyof StoredConfig;

/**
 * The directory that holds `config.json`: `PLANTS_CONFIG_DIR`, else
 * `$XDG_CONFIG_HOME/plants`, else `~/.config/plants` (`%APPDATA%\plants` on Windows).
 * Always absolute, so `config path` names the same file from any directory.
 */
export function configDir(env: Env): string {
  if (env.PLANTS_CONFIG_DIR) return resolve(env.PLANTS_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'plants');
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'plants');
  return join(homedir(), '.config', 'plants');
}

/** The subset of conf's API the CLI uses. */
interface ConfLike {
  readonly path: string;
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** The config file, through conf: created 0600 in a 0700 directory, since it holds a secret. */
export class ConfigStore {
  readonly #conf: ConfLike;

  constructor(conf: ConfLike) {
    this.#conf = conf;
    for (const key of ['base-url', 'token'] as const) {
      const value = conf.get(key);
      if (value !== undefined && typeof value !== 'string') {
        throw new ConfigError(
          `config file ${conf.path} is invalid: "${key}" must be a string; fix it with 'plants config set' or remove the file`,
        );
      }
    }
  }

  get path(): string {
    return this.#conf.path;
  }

  get(key: StoredKey): string | undefined {
    const value = this.#conf.get(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  set(key: StoredKey, value: string): void {
    this.#conf.set(key, value);
  }

  delete(key: StoredKey): void {
    this.#conf.delete(key);
  }
}

/** conf would quietly read a JSON array or number as an empty config, then overwrite it. */
function parseConfigObject(text: string): StoredConfig {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('it is not a JSON object');
  }
  return value as StoredConfig;
}

/** Where group or others may read or write what should be the owner's alone. */
function tooOpen(path: string, wanted: number): string | undefined {
  try {
    const mode = statSync(path).mode & 0o777;
    return (mode & 0o077) !== 0 ? `${path} has mode ${mode.toString(8).padStart(4, '0')}; run chmod ${wanted.toString(8)} ${path}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Open the config file (created 0600 in a 0700 directory). Existing files
 * or directories that others can read are used, with a warning: the file
 * holds the token. Writes are atomic (conf writes a temporary file and
 * renames it), so concurrent runs never leave a corrupted file.
 */
export async function openConfigStore(env: Env, warn: (text: string) => Promise<void> | void = () => {}): Promise<ConfigStore> {
  const dir = configDir(env);
  const path = join(dir, 'config.json');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new ConfigError(`cannot create the config directory ${dir}: ${(err as Error).message}`);
  }
  const { default: Conf } = await import('conf');
  let conf: ConfLike;
  try {
    conf = new Conf<StoredConfig>({
      cwd: dir,
      configName: 'config',
      configFileMode: 0o600,
      // Keys contain dashes, not paths.
      accessPropertiesByDotNotation: false,
      deserialize: parseConfigObject,
    });
  } catch (err) {
    const reason = err instanceof SyntaxError ? 'it is not valid JSON' : (err as Error).message;
    throw new ConfigError(
      `cannot read the config file ${path}: ${reason}; fix it, or remove it and configure again`,
    );
  }
  if (process.platform !== 'win32') {
    for (const problem of [tooOpen(dir, 0o700), tooOpen(path, 0o600)]) {
      if (problem) await warn(`the config holds the token, but ${problem}`);
    }
  }
  return new ConfigStore(conf);
}
