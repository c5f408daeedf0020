import { describe, expect, it } from 'vitest';
import type { StoredToken } from '../../src/config/profile-settings.js';
import { checkTokenOrigin, originOf } from '../../src/config/token-origin.js';
import { AuthError } from '../../src/shared/errors.js';

// The origin a stored token is bound to, compared as the URL parser normalises it.

describe('originOf', () => {
  it.each([
    ['a default port', 'https://plants.test:443/api', 'https://plants.test'],
    ['the default http port', 'http://plants.test:80', 'http://plants.test'],
    ['the case of the scheme and host', 'HTTPS://Plants.TEST/Api', 'https://plants.test'],
    ['an internationalised host, as punycode', 'https://bücher.example', 'https://xn--bcher-kva.example'],
    ['an IPv6 address, compressed', 'http://[0:0:0:0:0:0:0:1]:8080/', 'http://[::1]:8080'],
    ['an IPv4 address written short', 'http://127.1:8080', 'http://127.0.0.1:8080'],
    ['credentials, which are no part of an origin', 'https://user:secret@plants.test/x', 'https://plants.test'],
    ['blanks around', '  https://plants.test/  ', 'https://plants.test'],
  ])('leaves out %s', (_what, url, origin) => {
    expect(originOf(url)).toBe(origin);
  });

  it.each([
    ['another port', 'https://plants.test:8443', 'https://plants.test'],
    ['another scheme', 'http://plants.test', 'https://plants.test'],
    ['a trailing dot (another origin, as for browsers)', 'https://plants.test.', 'https://plants.test'],
    ['another subdomain', 'https://api.plants.test', 'https://plants.test'],
  ])('keeps %s apart', (_what, url, other) => {
    expect(originOf(url)).not.toBe(originOf(other));
  });

  it.each([undefined, '', 'none', 'plants.test', 'ftp://plants.test', 'file:///etc/passwd', 'https://'])(
    '%j has no origin a token can be bound to',
    (raw) => {
      expect(originOf(raw)).toBeUndefined();
    },
  );
});

describe('checkTokenOrigin', () => {
  const file = (origin: string | undefined): StoredToken => ({ store: 'file', token: 't', origin });
  const inEffect = (url: string, source = '--base-url', profile?: string) => ({
    value: new URL(url),
    source,
    ...(profile ? { profile } : {}),
  });

  it('lets through a token bound to the origin in effect, however the base URL is spelled', () => {
    expect(() =>
      checkTokenOrigin(file('https://plants.test'), 'default', inEffect('HTTPS://PLANTS.test:443/api')),
    ).not.toThrow();
    expect(() =>
      checkTokenOrigin(
        { store: 'command', command: 'x', origin: 'http://[::1]:8080' },
        'default',
        inEffect('http://[0::1]:8080/v2'),
      ),
    ).not.toThrow();
  });

  it('a base URL from a flag or the environment: exit 4 naming both origins, and a profile of its own to log in with', () => {
    const err = (() => {
      try {
        checkTokenOrigin(file('https://a.test'), 'staging', inEffect('https://b.test:8443/api', 'PLANTS_BASE_URL'));
      } catch (caught) {
        return caught;
      }
    })();
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).exitCode).toBe(4);
    expect((err as Error).message).toBe(
      'the token of profile staging (kept in the config file) is for https://a.test, not for https://b.test:8443, ' +
        'the origin of the base URL in effect (from PLANTS_BASE_URL); a token is never sent to another origin: ' +
        "to log in for https://b.test:8443, give it a profile of its own ('plants --profile <name> config set base-url https://b.test:8443/api', " +
        "then 'plants --profile <name> auth login'), or set PLANTS_TOKEN to a token for it",
    );
  });

  it("the profile's own base URL, changed since: log in again to the profile", () => {
    expect(() =>
      checkTokenOrigin(
        { store: 'command', command: 'x', origin: 'https://a.test' },
        'staging',
        inEffect('https://b.test', 'config file', 'staging'),
      ),
    ).toThrow(
      new AuthError(
        "the token of profile staging (printed by its token command) is for https://a.test, not for https://b.test, the origin of the base URL in effect (the profile's); " +
          "a token is never sent to another origin: run 'plants --profile staging auth login' to store a token for https://b.test, or set PLANTS_TOKEN to a token for it",
      ),
    );
  });

  it('names another profile that holds a token for the origin in effect', () => {
    expect(() =>
      checkTokenOrigin(file('https://a.test'), 'default', inEffect('https://b.test', '--base-url'), ['staging']),
    ).toThrow(/\), use --profile staging \(which has a token for it\), or set PLANTS_TOKEN to a token for it$/);
  });

  it('a trailing dot is another origin: refused', () => {
    expect(() => checkTokenOrigin(file('https://a.test'), 'default', inEffect('https://a.test.'))).toThrow(AuthError);
  });

  it('a token bound to no origin is never let through: set the base URL and log in again, or PLANTS_TOKEN', () => {
    expect(() => checkTokenOrigin(file(undefined), 'default', inEffect('https://a.test'))).toThrow(
      new AuthError(
        'the token of profile default is bound to no origin: it was stored while the profile had no base URL, and is never sent; ' +
          "run 'plants config set base-url <url>' and 'plants auth login' again, or set PLANTS_TOKEN",
      ),
    );
  });
});
