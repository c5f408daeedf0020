import { parseBaseUrl } from '../api/url.js';
import type { Env } from '../env.js';
import { AuthError, ConfigError, UsageError } from '../errors.js';
import { parseRetries, parseTimeout } from '../commands/options.js';
import type { ConfigStore } from './store.js';

export interface Resolved<T> {
  value: T;
  /** Where the value came from, for `auth status` and error messages. */
  source: string;
}

type StoreOpener = () => Promise<ConfigStore>;

/** Empty or blank variables count as unset. */
function fromEnv(env: Env, name: string): string | undefined {
  const value = env[name];
  return value?.trim() ? value : undefined;
}

/** The base URL text and where it came from, unchecked. Precedence: flag > environment > config file. */
export async function lookupBaseUrl(
  flag: string | undefined,
  env: Env,
  store: StoreOpener,
): Promise<Resolved<string> | undefined> {
  if (flag !== undefined) return { value: flag, source: '--base-url' };
  const variable = fromEnv(env, 'PLANTS_BASE_URL');
  if (variable !== undefined) return { value: variable, source: 'PLANTS_BASE_URL' };
  const config = await store();
  const stored = config.get('base-url');
  return stored === undefined ? undefined : { value: stored, source: `config file ${config.path}` };
}

/** The token and where it came from, unchecked. Precedence: environment > config file (there is no flag). */
export async function lookupToken(env: Env, store: StoreOpener): Promise<Resolved<string> | undefined> {
  const variable = fromEnv(env, 'PLANTS_TOKEN');
  if (variable !== undefined) return { value: variable, source: 'PLANTS_TOKEN' };
  const config = await store();
  const stored = config.get('token');
  return stored === undefined ? undefined : { value: stored, source: `config file ${config.path}` };
}

export async function resolveBaseUrl(flag: string | undefined, env: Env, store: StoreOpener): Promise<Resolved<URL>> {
  const found = await lookupBaseUrl(flag, env, store);
  if (!found) {
    throw new ConfigError(
      "no base URL configured; run 'plants config set base-url <url>', set PLANTS_BASE_URL, or pass --base-url",
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

export async function resolveToken(env: Env, store: StoreOpener): Promise<Resolved<string>> {
  const found = await lookupToken(env, store);
  if (!found) throw new AuthError("no token configured; run 'plants auth login' or set PLANTS_TOKEN");
  const fix =
    found.source === 'PLANTS_TOKEN' ? 'correct the PLANTS_TOKEN variable' : "store it again with 'plants auth login'";
  checkToken(found.value, found.source, fix);
  return found;
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

/**
 * Hide a token in text about to be shown. `Bearer <token>` is always masked;
 * a bare occurrence only for tokens of 8 or more characters, since masking a
 * short token would garble ordinary words (and a short token is no secret).
 */
export function redactToken(text: string, token: string): string {
  const masked = text.replaceAll(`Bearer ${token}`, 'Bearer ***');
  return token.length >= 8 ? masked.replaceAll(token, '***') : masked;
}

/** How requests are made: per-attempt timeout, retries, response cap, debug log. */
export interface RequestSettings {
  timeoutMs: number;
  retries: number;
  maxResponseBytes: number;
  debug: boolean;
}

export const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_RETRIES = 2;
export const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

/**
 * Flags win over PLANTS_TIMEOUT, PLANTS_RETRIES and PLANTS_DEBUG. A bad
 * variable is a configuration error naming it.
 */
export function resolveRequestSettings(
  flags: { timeout?: number; retries?: number; maxResponseSize?: number; debug?: boolean },
  env: Env,
): RequestSettings {
  const fromVariable = <T>(name: string, parse: (raw: string, source: string) => T): T | undefined => {
    const raw = fromEnv(env, name);
    if (raw === undefined) return undefined;
    try {
      return parse(raw, name);
    } catch (err) {
      throw new ConfigError((err as Error).message.replace(/^invalid /, 'invalid environment variable '));
    }
  };
  const timeout = flags.timeout ?? fromVariable('PLANTS_TIMEOUT', parseTimeout) ?? DEFAULT_TIMEOUT_SECONDS;
  return {
    timeoutMs: Math.round(timeout * 1000),
    retries: flags.retries ?? fromVariable('PLANTS_RETRIES', parseRetries) ?? DEFAULT_RETRIES,
    maxResponseBytes: flags.maxResponseSize ?? DEFAULT_MAX_RESPONSE_BYTES,
    debug: flags.debug ?? ['1', 'true', 'yes'].includes((fromEnv(env, 'PLANTS_DEBUG') ?? '').toLowerCase()),
  };
}
