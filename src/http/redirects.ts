import type { Headers, Method, Target } from './attempt.js';
import { headerValue } from './status.js';

/**
 * Which redirects are followed: only to the base URL's own origin (the
 * request carries the token), at most MAX_REDIRECTS of them.
 */
export const MAX_REDIRECTS = 5;
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
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
