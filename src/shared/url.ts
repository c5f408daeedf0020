import { ConfigError, UsageError } from './errors.js';
import { quoted } from './text.js';

/**
 * Parse and check a base URL: absolute http(s), no credentials, query or
 * fragment. A path prefix (`https://host/api`) is kept, without its trailing
 * slash, so requests go to `/api/plants`.
 *
 * `source` names where the value came from, for the error message, which
 * shows the value masked (maskUrl) and printable.
 */
export function parseBaseUrl(raw: string, source?: string): URL {
  const value = raw.trim();
  const invalid = `invalid base URL ${quoted(maskUrl(value))}${source ? ` (${source})` : ''}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${invalid}: expected an absolute URL such as https://plants.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${invalid}: the scheme must be http or https`);
  }
  if (url.username || url.password) {
    throw new UsageError(`${invalid}: it must not contain credentials; store the token with 'plants auth login'`);
  }
  if (url.search || url.hash || value.includes('?') || value.includes('#')) {
    throw new UsageError(`${invalid}: it must not contain a query (?) or fragment (#)`);
  }
  // A URL parser takes tabs and line breaks out, reads `http:host` and `http:/host` as `http://host`,
  // `\` as `/`, and dot-segments away: the address would not be the one written.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new UsageError(`${invalid}: it must not contain a tab, a line break or another control character`);
  }
  if (!/^https?:\/\//i.test(value)) {
    throw new UsageError(`${invalid}: write it with two slashes after the scheme, as https://plants.example.com`);
  }
  const afterHost = value.slice(url.protocol.length + 2);
  const path = afterHost.includes('/') ? afterHost.slice(afterHost.indexOf('/')) : '';
  const dotSegment = path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
  if (value.includes('\\') || dotSegment) {
    throw new UsageError(
      `${invalid}: it must not contain a backslash or a dot-segment (/./, /../), which a URL parser reads as another path; write the path as it is meant`,
    );
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** The schemes undici takes for a proxy. */
const PROXY_SCHEMES = ['http:', 'https:', 'socks5:', 'socks:'];

/**
 * Check the value of a proxy variable (`variable` names it, e.g.
 * HTTPS_PROXY) before undici is given it: undici would throw a bare
 * `Invalid URL` from deep inside. The value is shown masked.
 */
export function checkProxyUrl(raw: string, variable: string): void {
  const invalid = `invalid proxy URL ${quoted(maskUrl(raw))} in ${variable}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${invalid}: expected a URL such as http://proxy.example.com:3128; fix or unset ${variable}`);
  }
  if (!PROXY_SCHEMES.includes(url.protocol)) {
    throw new ConfigError(`${invalid}: the scheme must be http or https; fix or unset ${variable}`);
  }
}

/** Query parameters plants sends itself: their values are no secret. */
const OWN_PARAMETERS = new Set(['limit']);
/** The userinfo of an absolute or scheme-relative URL (`\\` counts as `/`, as URL parsers take it). */
const USERINFO = /^([a-z][a-z\d+.-]*:[/\\]*|[/\\]{2,})[^/\\?#]*@/i;

/**
 * A URL, or text meant as one, with whatever may be a secret masked: the
 * userinfo as `***@`, and each value of the query and fragment as `***`
 * (`?token=***`, `#***`), except plants' own `limit`. Text, not a URL
 * object: an invalid URL is echoed too.
 *
 * `tokenMasked`: the caller masked the secrets first, in the whole text
 * (secrets/ maskedUrl): a parameter is cut at its first `=`, and a token
 * cut there (`?c2VjcmV0==`, base64's padding) would no longer be found, its
 * first part shown as the parameter's name. Otherwise nothing of the query
 * or the fragment is shown: `?***`, `#***`.
 */
export function maskUrl(text: string, tokenMasked = false): string {
  const masked = text.replace(USERINFO, '$1***@');
  const query = masked.search(/[?#]/);
  if (query === -1) return masked;
  // The query up to the fragment, then the fragment: each its mark, then parameters.
  const fragment = masked.indexOf('#', query);
  const parts = fragment === -1 ? [masked.slice(query)] : [masked.slice(query, fragment), masked.slice(fragment)];
  const shown = (parameters: string) => (tokenMasked ? maskParameters(parameters) : parameters === '' ? '' : '***');
  return masked.slice(0, query) + parts.map((part) => part.slice(0, 1) + shown(part.slice(1))).join('');
}

function maskParameters(text: string): string {
  return text
    .split('&')
    .map((parameter) => {
      if (parameter === '') return parameter;
      const equals = parameter.indexOf('=');
      if (equals === -1) return '***';
      const name = parameter.slice(0, equals);
      return OWN_PARAMETERS.has(name) ? parameter : `${name}=***`;
    })
    .join('&');
}

/** The base URL as people write it: no trailing slash. */
export function formatBaseUrl(url: URL): string {
  return url.href.replace(/\/+$/, '');
}

/**
 * Encode an opaque id as exactly one path segment. Beyond
 * encodeURIComponent, dots are encoded when the id is all dots.
 *
 * An id no encoding keeps one segment on every server is refused: `.` and
 * `..` (a WHATWG URL parser, Node's `new URL()` among them, reads `%2E` as
 * a dot-segment and resolves it away: `/plants/%2E` is `/plants/`), and an
 * id with `/` or `\` (WSGI servers decode `%2F` before routing, so
 * `/plants/7%2F` reaches Django's `plants/<pk>/` as plant 7; some servers
 * take `\` for `/`). The DELETE of such an id could be one of another plant,
 * or of the collection, which the protections checked for none of them;
 * `plants api` refuses the same paths.
 */
export function encodePathSegment(id: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(id);
  } catch {
    throw new UsageError(`invalid plant id ${quoted(id)}: it contains an unpaired UTF-16 surrogate`);
  }
  if (id === '.' || id === '..') {
    throw new UsageError(
      `plant id ${quoted(id)} is not sent: it is a dot-segment, which a server may resolve away, and read the request as one for another address (the collection)`,
    );
  }
  const separator = /[/\\]/.exec(id)?.[0];
  if (separator !== undefined) {
    throw new UsageError(
      `plant id ${quoted(id)} is not sent: a server may read its ${quoted(separator)} (even encoded) as a path separator, and the request as one for another address (another plant, or the collection)`,
    );
  }
  return /^\.+$/.test(encoded) ? encoded.replaceAll('.', '%2E') : encoded;
}

/**
 * The request target for a path below the base URL, as origin + path string.
 * Built by hand rather than with `new URL()`, which would normalise the
 * already-encoded segments.
 */
export function endpoint(
  base: Pick<URL, 'origin' | 'pathname'>,
  segments: readonly string[],
  query: Record<string, string | number | undefined> = {},
): { origin: string; path: string; href: string } {
  let path = base.pathname.replace(/\/+$/, '');
  for (const segment of segments) path += `/${encodePathSegment(segment)}`;
  const params = Object.entries(query)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  if (params.length > 0) path += `?${params.join('&')}`;
  return { origin: base.origin, path, href: base.origin + path };
}

/** Where `plants api` sends a request (apiTarget). */
export interface ApiTarget {
  origin: string;
  path: string;
  href: string;
  /** The path below the base URL's path prefix (the whole path when it is not below it). */
  below: string;
}

/** Characters a request target never holds raw (RFC 3986): sent percent-encoded. */
// eslint-disable-next-line no-control-regex
const NOT_IN_TARGET = /[\u0000-\u0020"<>\\^`{|}\u007f-\u{10ffff}]/gu;

/**
 * Where `plants api` sends a request: `path` joined to the base URL (its
 * path prefix kept: `/plants/7` below `https://host/api` is
 * `/api/plants/7`), or an absolute URL, accepted only on the base URL's
 * origin so the token never leaves it. The path and query are sent as
 * written, `%` escapes kept; spaces, non-ASCII and other characters a
 * request target cannot hold are percent-encoded. `query` pairs are added to
 * the query. Returns the target and the path below the base URL.
 */
export function apiTarget(base: URL, raw: string, query: readonly (readonly [string, string])[] = []): ApiTarget {
  const shown = quoted(maskUrl(raw));
  if (raw.includes('#')) {
    throw new UsageError(`invalid path ${shown}: a fragment (#) is never sent; write %23 for a # in a path`);
  }
  let path: string;
  if (/^[a-z][a-z\d+.-]*:/i.test(raw) || raw.startsWith('//')) {
    // Only as a person writes one: a URL parser would also take `http:\\host`, `http:/host` and
    // `\` for `/`, and send the request elsewhere than the text says.
    if (!/^[a-z][a-z\d+.-]*:\/\/[^/\\?#]*(?:[/?][^\\]*)?$/i.test(raw.replace(/\?.*$/s, ''))) {
      throw new UsageError(
        `invalid URL ${shown}: write it as scheme://host/path, with / (not \\), or give a path such as /plants/7`,
      );
    }
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UsageError(`invalid URL ${shown}: give a path such as /plants/7, or a URL on the base URL's origin`);
    }
    if (url.origin !== base.origin) {
      throw new UsageError(
        `refusing ${shown}: it is not on the base URL's origin (${base.origin}), and the request carries the token; give a path such as /plants/7`,
      );
    }
    if (url.username || url.password) throw new UsageError(`invalid URL ${shown}: it must not contain credentials`);
    // As written after the origin: new URL() would have resolved dot-segments and re-encoded.
    const afterScheme = raw.slice(raw.indexOf('//') + 2);
    const start = afterScheme.search(/[/?]/);
    path = start === -1 ? '/' : afterScheme.slice(start);
    if (path.startsWith('?')) path = `/${path}`;
  } else {
    if (raw.trim() === '') throw new UsageError('invalid path "": give a path such as /plants or /plants/7');
    const prefix = base.pathname.replace(/\/+$/, '');
    path = prefix + (raw.startsWith('/') ? raw : `/${raw}`);
  }
  path = path.replace(NOT_IN_TARGET, (ch) => encodeURIComponent(ch));
  if (query.length > 0) {
    const added = query.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
    path += (path.includes('?') ? (path.endsWith('?') || path.endsWith('&') ? '' : '&') : '?') + added;
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const pathOnly = path.replace(/\?.*$/s, '');
  const plainlyBelow = pathOnly.startsWith(`${prefix}/`) || pathOnly === prefix;
  const below = plainlyBelow ? pathOnly.slice(prefix.length) || '/' : pathOnly;
  return { origin: base.origin, path, href: base.origin + path, below };
}

/**
 * Text as a server that ignores case might compare it: compatibility
 * forms made plain (NFKC: `ｐ` is `p`), then upper- and lower-cased, as
 * Java's equalsIgnoreCase does, so that `ſ` is `s` and `ı` is `i`.
 */
export function folded(text: string): string {
  return text.normalize('NFKC').toUpperCase().toLowerCase();
}
