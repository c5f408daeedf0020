import { AuthError } from '../shared/errors.js';
import { formatBaseUrl, maskUrl } from '../shared/url.js';
import { profileFlag } from './profile-names.js';
import type { StoredToken } from './profile-settings.js';

/**
 * Every stored token is bound to the origin (scheme, host, port) it was
 * stored for, whatever its store: the config file, the OS keyring, a token
 * command. It is read (a command run, the keyring opened) only when the
 * base URL in effect has that origin; PLANTS_TOKEN is the one way to send a
 * token elsewhere. See docs/decisions/0003 and docs/security.md.
 */

/** What `token-origin` says of a token bound to no origin (stored before binding, the profile without a base URL). */
export const NO_ORIGIN = 'none';

/**
 * The origin of a URL as the URL parser normalises it (default port left
 * out, host in lower case, punycode, IPv4 and IPv6 in their one spelling),
 * or undefined for anything that is not an absolute http(s) URL. A trailing
 * dot stays: `example.com.` is another origin, as for browsers.
 */
export function originOf(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The origin a stored token is bound to, normalised; undefined when it is bound to none. */
export function boundOrigin(stored: StoredToken): string | undefined {
  return originOf(stored.origin);
}

/** Where a stored token is kept, for messages. */
function keptIn(stored: StoredToken): string {
  if (stored.store === 'keyring') return 'kept in the OS keyring';
  if (stored.store === 'command') return 'printed by its token command';
  return 'kept in the config file';
}

/** The base URL in effect and where it came from; `profile` when it is the profile's own. */
interface BaseUrlInEffect {
  value: URL;
  source: string;
  profile?: string;
}

/**
 * Refuse (exit 4) before a stored token is read when it is not bound to the
 * origin of the base URL in effect: it is never sent there, and a token
 * command is not even run. The message names both origins and how to get a
 * token for the one in effect.
 */
export function checkTokenOrigin(
  stored: StoredToken,
  profile: string,
  base: BaseUrlInEffect,
  /** The other profiles whose token is bound to the origin in effect: the message names them. */
  holders: readonly string[] = [],
): void {
  const bound = boundOrigin(stored);
  const origin = base.value.origin;
  if (bound === origin) return;
  const flag = profileFlag(profile);
  if (bound === undefined) {
    throw new AuthError(
      `the token of profile ${profile} is bound to no origin: it was stored while the profile had no base URL, and is never sent; ` +
        `run 'plants ${flag}config set base-url <url>' and 'plants ${flag}auth login' again, or set PLANTS_TOKEN`,
    );
  }
  const fromProfile = base.profile !== undefined;
  const held =
    holders.length === 0
      ? ''
      : `, use ${holders.map((name) => `--profile ${name}`).join(' or ')} (which ${holders.length === 1 ? 'has a token' : 'have tokens'} for it)`;
  const login = fromProfile
    ? `run 'plants ${flag}auth login' to store a token for ${origin}`
    : `to log in for ${origin}, give it a profile of its own ('plants --profile <name> config set base-url ${maskUrl(formatBaseUrl(base.value))}', then 'plants --profile <name> auth login')`;
  throw new AuthError(
    `the token of profile ${profile} (${keptIn(stored)}) is for ${bound}, not for ${origin}, ` +
      `the origin of the base URL in effect (${fromProfile ? "the profile's" : `from ${base.source}`}); ` +
      `a token is never sent to another origin: ${login}${held}, or set PLANTS_TOKEN to a token for it`,
  );
}
