import { MAX_REDIRECTS, REDIRECT_STATUSES } from '../http/redirects.js';
import type { Target } from '../http/attempt.js';

/**
 * A 3xx answer that is not one of the redirects (301, 302, 303, 307, 308),
 * in words: 304 and the rest say something else, and calling them
 * redirects sends the reader looking for a Location. `location` is the
 * header, already escaped for a message ('' when absent).
 */
export function describeOtherThreeHundred(status: number, location: string): string {
  switch (status) {
    case 304:
      return 'not a redirect but the answer to a conditional request, which plants never sends (no If-None-Match or If-Modified-Since)';
    case 300:
      return `a choice of representations${location ? ` (the service suggests ${location})` : ''}, which plants does not make; not followed`;
    case 305:
      return 'a request to go through a proxy, which plants takes only from HTTPS_PROXY or HTTP_PROXY, never from a response; not followed';
    default:
      return `a 3xx status that is not a redirect plants follows (301, 302, 303, 307, 308)${location ? `; Location: ${location}` : ''}`;
  }
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
