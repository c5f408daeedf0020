import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Env } from '../shared/env.js';
import { ConfigError } from '../shared/errors.js';
import { errorCode, fsReason } from '../shared/fs-reason.js';

/** The config file's name in configDir. */
export const CONFIG_FILE = 'config.json';

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
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** As conf writes it, so files stay the same shape. */
export const serialize = (value: Record<string, unknown>) => JSON.stringify(value, undefined, '\t');

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
