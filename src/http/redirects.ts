import { headerValue, type Headers, type Method, type Target } from './attempt.js';
import { describeOtherThreeHundred } from '../api/responses.js';

/**
 * Which redirects are followed: only to the base URL's own origin (the
 * request carries the token), at most MAX_REDIRECTS of them.
 */
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/**
 * Any method but GET and HEAD (a DELETE, a POST with its body) is only sent
 * on to where 307 and 308 point: the others may change the method or the meaning.
 */
const METHOD_KEEPING_STATUSES = new Set([307, 308]);

/** Where a redirect points, when it is one this method follows and its Location is a URL. */
export function redirectTarget(
  method: Method,
  response: { statusCode: number; headers: Headers },
  current: Target,
): Target | undefined {
  const location = headerValue(response.headers.location);
  const followed = method === 'GET' || method === 'HEAD' ? REDIRECT_STATUSES : METHOD_KEEPING_STATUSES;
  if (!followed.has(response.statusCode) || !location) return undefined;
  try {
    const url = new URL(location, current.href);
    return { origin: url.origin, path: url.pathname + url.search, href: url.href };
  } catch {
    return undefined;
  }
}

/**
 * A redirect to `next` is followed: same origin (scheme, host and port, so an
 * https base URL is never sent on to http, even on its own host), and not one too many.
 */
export function mayFollow(next: Target | undefined, origin: string, redirects: number): next is Target {
  return next !== undefined && next.origin === origin && redirects < MAX_REDIRECTS;
}

/**
 * Why a 3xx was not followed. `location` is already masked and cut;
 * `redirect` is its target when the redirect was one that is followed;
 * `off`: the request follows none (a DELETE).
 */
export function describeUnfollowedRedirect(
  status: number,
  location: string,
  redirect: Target | undefined,
  origin: string,
  redirects: number,
  off = false,
): string {
  if (!REDIRECT_STATUSES.has(status)) return describeOtherThreeHundred(status, location);
  if (!location) return 'redirect without a Location header';
  if (off) {
    return `redirected to ${location}; not followed: a DELETE goes only to the address asked for, which the protections and the journal name (if the service has moved, point the base URL at its new address)`;
  }
  if (!redirect) return `redirect to ${location} not followed`;
  if (redirect.origin !== origin) {
    return `redirected to ${location}, another origin; not followed, since the request carries the token (point the base URL at the final address)`;
  }
  return `more than ${MAX_REDIRECTS} redirects (${redirects} followed); last to ${location}`;
}
