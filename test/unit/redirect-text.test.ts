import { describe, expect, it } from 'vitest';
import { describeOtherThreeHundred, describeUnfollowedRedirect } from '../../src/api/redirect-text.js';
import { mayFollow, redirectTarget } from '../../src/http/redirects.js';

// What a 3xx that was not followed is said to be (api/redirect-text.ts), and
// which ones the transport follows (http/redirects.ts).
const ORIGIN = 'http://plants.test';
const here = { origin: ORIGIN, path: '/b', href: `${ORIGIN}/b` };
const there = { origin: 'http://elsewhere.test', path: '/b', href: 'http://elsewhere.test/b' };

describe('describeOtherThreeHundred', () => {
  it('304, 300 and 305 in their own words, with a Location only where it helps', () => {
    expect(describeOtherThreeHundred(304, '/x')).toBe(
      'not a redirect but the answer to a conditional request, which plants never sends (no If-None-Match or If-Modified-Since)',
    );
    expect(describeOtherThreeHundred(300, '/x')).toBe(
      'a choice of representations (the service suggests /x), which plants does not make; not followed',
    );
    expect(describeOtherThreeHundred(300, '')).toBe(
      'a choice of representations, which plants does not make; not followed',
    );
    expect(describeOtherThreeHundred(305, '/x')).toBe(
      'a request to go through a proxy, which plants takes only from HTTPS_PROXY or HTTP_PROXY, never from a response; not followed',
    );
  });

  it('any other 3xx', () => {
    expect(describeOtherThreeHundred(399, '/x')).toBe(
      'a 3xx status that is not a redirect plants follows (301, 302, 303, 307, 308); Location: /x',
    );
    expect(describeOtherThreeHundred(306, '')).toBe(
      'a 3xx status that is not a redirect plants follows (301, 302, 303, 307, 308)',
    );
  });
});

describe('describeUnfollowedRedirect', () => {
  it.each([301, 302, 303, 307, 308])('%d is a redirect: why it was not followed', (status) => {
    expect(describeUnfollowedRedirect(status, '', here, ORIGIN, 0)).toBe('redirect without a Location header');
    expect(describeUnfollowedRedirect(status, '/b', here, ORIGIN, 0, true)).toBe(
      'redirected to /b; not followed: a DELETE goes only to the address asked for, which the protections and the journal name (if the service has moved, point the base URL at its new address)',
    );
    expect(describeUnfollowedRedirect(status, '/b', undefined, ORIGIN, 0)).toBe('redirect to /b not followed');
    expect(describeUnfollowedRedirect(status, 'http://elsewhere.test/b', there, ORIGIN, 0)).toBe(
      'redirected to http://elsewhere.test/b, another origin; not followed, since the request carries the token (point the base URL at the final address)',
    );
    expect(describeUnfollowedRedirect(status, '/b', here, ORIGIN, 5)).toBe(
      'more than 5 redirects (5 followed); last to /b',
    );
  });

  it('another 3xx is said as one', () => {
    expect(describeUnfollowedRedirect(304, '/b', here, ORIGIN, 0)).toBe(describeOtherThreeHundred(304, '/b'));
    expect(describeUnfollowedRedirect(300, '/b', here, ORIGIN, 0, true)).toBe(describeOtherThreeHundred(300, '/b'));
  });
});

describe('redirectTarget and mayFollow', () => {
  const from = { origin: ORIGIN, path: '/a', href: `${ORIGIN}/a` };
  const answer = (statusCode: number, location?: string) => ({
    statusCode,
    headers: location === undefined ? {} : { location },
  });

  it('GET and HEAD follow every redirect status; other methods only 307 and 308', () => {
    for (const status of [301, 302, 303, 307, 308]) {
      expect(redirectTarget('GET', answer(status, '/b'), from)).toEqual(here);
      expect(redirectTarget('HEAD', answer(status, '/b'), from)).toEqual(here);
    }
    for (const status of [301, 302, 303]) expect(redirectTarget('DELETE', answer(status, '/b'), from)).toBeUndefined();
    for (const status of [307, 308]) expect(redirectTarget('POST', answer(status, '/b'), from)).toEqual(here);
  });

  it('no Location, an unreadable one, or another status: no target', () => {
    expect(redirectTarget('GET', answer(302), from)).toBeUndefined();
    expect(redirectTarget('GET', answer(302, 'http://[bad'), from)).toBeUndefined();
    expect(redirectTarget('GET', answer(304, '/b'), from)).toBeUndefined();
    expect(redirectTarget('GET', answer(200, '/b'), from)).toBeUndefined();
  });

  it('keeps the query of the target', () => {
    expect(redirectTarget('GET', answer(302, '/b?c=1'), from)).toEqual({
      origin: ORIGIN,
      path: '/b?c=1',
      href: `${ORIGIN}/b?c=1`,
    });
  });

  it('follows within the origin, at most five times', () => {
    expect(mayFollow(here, ORIGIN, 0)).toBe(true);
    expect(mayFollow(here, ORIGIN, 4)).toBe(true);
    expect(mayFollow(here, ORIGIN, 5)).toBe(false);
    expect(mayFollow(there, ORIGIN, 0)).toBe(false);
    expect(mayFollow(undefined, ORIGIN, 0)).toBe(false);
  });
});
