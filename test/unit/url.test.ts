import { afterEach, describe, expect, it } from 'vitest';
import {
  checkProxyUrl,
  encodePathSegment,
  endpoint,
  formatBaseUrl,
  maskUrl,
  parseBaseUrl,
} from '../../src/shared/url.js';
import { ConfigError, UsageError } from '../../src/shared/errors.js';
import { forgetSecrets, maskedUrl, registerSecret } from '../../src/secrets/registry.js';

afterEach(forgetSecrets);

describe('parseBaseUrl', () => {
  it.each([
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['https://plants.example.com/', 'https://plants.example.com'],
    ['https://plants.example.com/api', 'https://plants.example.com/api'],
    ['https://plants.example.com/api/', 'https://plants.example.com/api'],
    ['  https://plants.example.com/v1//  ', 'https://plants.example.com/v1'],
    ['HTTPS://Plants.Example.com', 'https://plants.example.com'],
    ['https://plants.example.com/v1.2/...%2e/a%2eb', 'https://plants.example.com/v1.2/...%2e/a%2eb'],
  ])('accepts %j as %j', (raw, expected) => {
    expect(formatBaseUrl(parseBaseUrl(raw, 'test'))).toBe(expected);
  });

  it.each([
    ['plants.example.com', /absolute URL/],
    ['/api', /absolute URL/],
    ['ftp://plants.example.com', /scheme must be http or https/],
    ['file:///etc/passwd', /scheme must be http or https/],
    ['https://user:pass@plants.example.com', /must not contain credentials/],
    ['https://plants.example.com/api?x=1', /query/],
    ['https://plants.example.com/api#frag', /fragment/],
    ['https://plants.example.com/api?', /query/],
    ['http://plants.example.com:1\\x', /must not contain a backslash or a dot-segment/],
    ['http://plants.example.com\\api', /must not contain a backslash or a dot-segment/],
    ['https://plants.example.com/a/../b', /must not contain a backslash or a dot-segment/],
    ['https://plants.example.com/a/./b', /must not contain a backslash or a dot-segment/],
    ['https://plants.example.com/a/%2E%2e', /must not contain a backslash or a dot-segment/],
    ['https://plants.example.com/.%2e/b', /must not contain a backslash or a dot-segment/],
    ['http://plants.example.com/x/.\t./', /must not contain a tab, a line break or another control character/],
    ['http://plants.example.com/x/.\n./', /must not contain a tab, a line break or another control character/],
    ['http://plants.example.com/x/\r../', /must not contain a tab, a line break or another control character/],
    ['http:plants.example.com/../x', /write it with two slashes after the scheme/],
    ['http:/plants.example.com/x', /write it with two slashes after the scheme/],
  ])('rejects %j', (raw, message) => {
    expect(() => parseBaseUrl(raw, 'PLANTS_BASE_URL')).toThrow(UsageError);
    expect(() => parseBaseUrl(raw, 'PLANTS_BASE_URL')).toThrow(message);
    expect(() => parseBaseUrl(raw, 'PLANTS_BASE_URL')).toThrow(/PLANTS_BASE_URL/);
  });

  it('never echoes credentials it refuses', () => {
    expect(() => parseBaseUrl('https://user:s3cret@host', 'x')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('s3cret') as string }),
    );
  });

  it.each([
    [
      'https://user:s3cret@plants.example.com/api',
      'invalid base URL "https://***@plants.example.com/api" (x): it must not contain credentials',
    ],
    [
      'https://plants.example.com/api?token=s3cret',
      'invalid base URL "https://plants.example.com/api?***" (x): it must not contain a query (?) or fragment (#)',
    ],
    [
      'https://plants.example.com/#access_token=s3cret',
      'invalid base URL "https://plants.example.com/#***" (x): it must not contain a query (?) or fragment (#)',
    ],
    [
      'ftp://user:s3cret@plants.example.com',
      'invalid base URL "ftp://***@plants.example.com" (x): the scheme must be http or https',
    ],
    [
      'https://user:s3cret@',
      'invalid base URL "https://***@" (x): expected an absolute URL such as https://plants.example.com',
    ],
    [
      'https://plants.example.com/\u202e?s3cret',
      'invalid base URL "https://plants.example.com/\\u202e?***" (x): it must not contain a query (?) or fragment (#)',
    ],
  ])('masks what may be a secret when it echoes %j', (raw, message) => {
    expect(() => parseBaseUrl(raw, 'x')).toThrow(message);
  });
});

describe('checkProxyUrl', () => {
  it.each([
    'http://proxy.example.com:3128',
    'https://u:p@proxy.example.com',
    'http://[::1]:8080',
    'socks5://127.0.0.1:1080',
  ])('takes %s', (value) => expect(() => checkProxyUrl(value, 'HTTPS_PROXY')).not.toThrow());

  it('refuses what undici cannot use, naming the variable, the value masked', () => {
    expect(() => checkProxyUrl('http://me:secret@[::1', 'https_proxy')).toThrow(
      new ConfigError(
        'invalid proxy URL "http://***@[::1" in https_proxy: expected a URL such as http://proxy.example.com:3128; fix or unset https_proxy',
      ),
    );
    expect(() => checkProxyUrl('ftp://proxy.example.com', 'HTTP_PROXY')).toThrow(
      new ConfigError(
        'invalid proxy URL "ftp://proxy.example.com" in HTTP_PROXY: the scheme must be http or https; fix or unset HTTP_PROXY',
      ),
    );
  });
});

describe('maskUrl', () => {
  it.each([
    ['https://plants.example.com/api', 'https://plants.example.com/api'],
    ['https://user:pass@plants.example.com/api', 'https://***@plants.example.com/api'],
    ['https://user@plants.example.com', 'https://***@plants.example.com'],
    ['https://a@b:c@plants.example.com/x@y', 'https://***@plants.example.com/x@y'],
    ['HTTPS:\\\\user:pass@host', 'HTTPS:\\\\***@host'],
    ['https:user:pass@host', 'https:***@host'],
    ['//user:pass@host/p', '//***@host/p'],
    ['/plants/a@b?token=x', '/plants/a@b?token=***'],
    ['https://host/p?token=abc&limit=5&flag&=v', 'https://host/p?token=***&limit=5&***&=***'],
    ['https://host/p?limit=5#access_token=abc&state=1', 'https://host/p?limit=5#access_token=***&state=***'],
    ['https://host/p#section', 'https://host/p#***'],
    ['https://us?er:pass@host', 'https://us?***'],
    ['https://host/p?', 'https://host/p?'],
  ])('%j as %j, the token known', (raw, masked) => {
    expect(maskUrl(raw, true)).toBe(masked);
  });

  it.each([
    ['https://host/p?token=abc&limit=5', 'https://host/p?***'],
    ['https://host/p?limit=5#access_token=abc', 'https://host/p?***#***'],
    ['https://user:pass@host/p#section', 'https://***@host/p#***'],
    ['https://host/p?', 'https://host/p?'],
    ['https://host/p', 'https://host/p'],
  ])('%j as %j where the token is not known: nothing of the query or fragment', (raw, masked) => {
    expect(maskUrl(raw)).toBe(masked);
  });

  // A parameter is cut at its first `=`: a token cut there would be found no longer.
  it.each(['c2VjcmV0dG9rZW4xMjM0NQ==', 'sekrit-TOKEN+/=abc123', 'limit=5000000000'])(
    'masks the token %j whole, wherever it is, before the parameters',
    (token) => {
      registerSecret(token);
      for (const url of [`/x?${token}`, `http://127.0.0.2:9/x#${token}`, `/x?a=1&${token}&b=2`, `/x?t=${token}`]) {
        const shown = maskedUrl(url);
        expect(shown).not.toContain(token.slice(0, 5));
        expect(shown).toMatch(/[?#].*\*\*\*/);
      }
    },
  );
});

describe('encodePathSegment', () => {
  it.each([
    ['42', '42'],
    ['a?b', 'a%3Fb'],
    ['a#b', 'a%23b'],
    ['100%', '100%25'],
    ['with space', 'with%20space'],
    ['...', '%2E%2E%2E'],
    ['.a', '.a'],
    ['a.b', 'a.b'],
    ['🌱', '%F0%9F%8C%B1'],
  ])('encodes %j as %j', (id, expected) => {
    expect(encodePathSegment(id)).toBe(expected);
  });

  it('round-trips through decodeURIComponent and contains no slash', () => {
    for (const id of ['a?b', '...', 'x%2Fy', '&=+;', '\u0000\n']) {
      const segment = encodePathSegment(id);
      expect(segment).not.toMatch(/[/?#]/);
      expect(decodeURIComponent(segment)).toBe(id);
    }
  });

  it('rejects a lone surrogate with a usage error', () => {
    expect(() => encodePathSegment('\ud800')).toThrow(UsageError);
  });

  it.each([
    ['.', /^plant id "\." is not sent: it is a dot-segment/],
    ['..', /^plant id "\.\." is not sent: it is a dot-segment/],
    ['7/', /^plant id "7\/" is not sent: a server may read its "\/" \(even encoded\) as a path separator/],
    ['../x', /^plant id "\.\.\/x" is not sent: a server may read its "\/"/],
    ['a\\b', /^plant id "a\\\\b" is not sent: a server may read its "\\\\"/],
  ])('refuses %j, which a server may read as another address', (id, message) => {
    expect(() => encodePathSegment(id)).toThrow(message);
    expect(() => encodePathSegment(id)).toThrow(UsageError);
  });
});

describe('endpoint', () => {
  const base = (raw: string) => parseBaseUrl(raw, 'test');

  it('joins /plants below the base path', () => {
    expect(endpoint(base('https://h.example'), ['plants']).href).toBe('https://h.example/plants');
    expect(endpoint(base('https://h.example/api/'), ['plants']).href).toBe('https://h.example/api/plants');
  });

  it('adds the query only for defined values', () => {
    expect(endpoint(base('http://h:1'), ['plants'], { limit: 5 }).path).toBe('/plants?limit=5');
    expect(endpoint(base('http://h:1'), ['plants'], { limit: undefined }).path).toBe('/plants');
  });

  it('keeps a hostile id inside one segment, or refuses it', () => {
    const target = endpoint(base('http://h:1/api'), ['plants', '..admin?x=1&y=#']);
    expect(target.origin).toBe('http://h:1');
    expect(target.path).toBe('/api/plants/..admin%3Fx%3D1%26y%3D%23');
    expect(() => endpoint(base('http://h:1/api'), ['plants', '../../admin?x=1'])).toThrow(UsageError);
  });
});
