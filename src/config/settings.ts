import { AuthError, UsageError } from '../errors.js';
import { parseBaseUrl } from '../api/url.js';
import type { ConfigStore } from './store.js';

type Env = Record<string, string | undefined>;

export interface Resolved<T> {
  value: T;
  /** Where the value came from, for `auth status` and error messages. */
  source: string;
}

/** Precedence: flag > environment > config file. Empty or blank variables count as unset. */
export async function resolveBaseUrl(
  flag: string | undefined,
  env: Env,
  store: () => Promise<ConfigStore>,
): Promise<Resolved<URL>> {
  if (flag !== undefined) return { value: parseBaseUrl(flag, '--base-url'), source: '--base-url' };
  if (env.PLANTS_BASE_URL?.trim()) {
    return { value: parseBaseUrl(env.PLANTS_BASE_URL, 'PLANTS_BASE_URL'), source: 'PLANTS_BASE_URL' };
  }
  const config = await store();
  const stored = config.get('base-url');
  if (stored !== undefined) {
    const source = `config file ${config.path}`;
    return { value: parseBaseUrl(stored, source), source };
  }
  throw new UsageError(
    "no base URL configured; run 'plants config set base-url <url>', set PLANTS_BASE_URL, or pass --base-url",
  );
}

/** Precedence: environment > config file. There is no token flag: flags end up in shell history and `ps`. */
export async function resolveToken(env: Env, store: () => Promise<ConfigStore>): Promise<Resolved<string>> {
  if (env.PLANTS_TOKEN?.trim()) {
    checkToken(env.PLANTS_TOKEN, 'PLANTS_TOKEN', 'correct the PLANTS_TOKEN variable');
    return { value: env.PLANTS_TOKEN, source: 'PLANTS_TOKEN' };
  }
  const config = await store();
  const stored = config.get('token');
  if (stored !== undefined) {
    const source = `config file ${config.path}`;
    checkToken(stored, source, "store it again with 'plants auth login'");
    return { value: stored, source };
  }
  throw new AuthError("no token configured; run 'plants auth login' or set PLANTS_TOKEN");
}

/**
 * A bearer token is visible ASCII. Anything else (a pasted newline, a space,
 * a smart quote) would corrupt the header, so it is refused without echoing it.
 */
export function checkToken(token: string, source: string, fix: string): void {
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError(`the token from ${source} contains whitespace, control or non-ASCII characters; ${fix}`);
  }
}
