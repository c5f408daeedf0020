import { SECRET_HEADER_NAME } from '../secrets/header-secrets.js';
import { maskedUrl } from '../secrets/registry.js';

/** A header name, or an auth scheme or parameter name (RFC 9110 `token`). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A header's value as --debug shows it, the secrets in it masked, in either
 * direction: credentials (`Authorization: Bearer ***`), challenges (the
 * scheme kept, each parameter's value masked), cookies (each name kept,
 * each value masked, Set-Cookie's attributes kept), URLs that may carry
 * secrets (maskUrl), and any header whose name says it holds a secret.
 * The run's secrets are masked in a URL's text too (maskUrl).
 */
export function shownHeaderValue(name: string, value: string | string[] | undefined): string {
  const values = Array.isArray(value) ? value : [String(value)];
  switch (name.toLowerCase()) {
    case 'authorization':
    case 'proxy-authorization':
      return values.map(maskCredentials).join(',');
    case 'www-authenticate':
    case 'proxy-authenticate':
      return values.map(maskChallenges).join(', ');
    case 'cookie':
      return values.map((cookies) => pieces(cookies).map(maskPair).join('; ')).join('; ');
    case 'set-cookie':
      return values.map(maskSetCookie).join(', ');
    case 'location':
    case 'content-location':
      return maskedUrl(values.join(','));
    default:
      // Its whole value masked; the name stays: it says what was sent, not what it was.
      return SECRET_HEADER_NAME.test(name) ? '***' : values.join(',');
  }
}

/** `Bearer abc` as `Bearer ***`: the scheme says which kind was sent. A value with no scheme is masked whole. */
function maskCredentials(value: string): string {
  const [scheme, ...rest] = value.trim().split(/\s+/);
  return rest.length > 0 && TOKEN.test(scheme!) ? `${scheme} ***` : '***';
}

/**
 * A WWW-Authenticate or Proxy-Authenticate value: one or more challenges,
 * each a scheme and then a token68 or `name=value` parameters, separated by
 * commas (outside quoted strings). The schemes and parameter names stay.
 */
function maskChallenges(value: string): string {
  return splitOutsideQuotes(value)
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      // A parameter of the challenge before: `realm="x"`.
      if (/^[^\s=]+\s*=/.test(item)) return maskParameter(item);
      const [, scheme, rest] = /^(\S+)(?:\s+(.*))?$/s.exec(item)!;
      if (!TOKEN.test(scheme!)) return '***';
      if (rest === undefined) return scheme!;
      // The first parameter (`name=value`, the value not starting with `=`), or else a token68, padding and all.
      return `${scheme} ${/^[^\s=]+\s*=\s*[^\s=]/.test(rest) ? maskParameter(rest) : '***'}`;
    })
    .join(', ');
}

function maskParameter(parameter: string): string {
  const name = parameter.slice(0, parameter.indexOf('=')).trim();
  return TOKEN.test(name) ? `${name}=***` : '***';
}

/** The attributes of Set-Cookie (RFC 6265 and its successors): they say how a cookie is kept, not what it is. */
const COOKIE_ATTRIBUTES = new Set([
  'expires',
  'max-age',
  'domain',
  'path',
  'secure',
  'httponly',
  'samesite',
  'partitioned',
  'priority',
]);

/** `sid=abc; Path=/; HttpOnly` as `sid=***; Path=/; HttpOnly`; what is no known attribute is masked too. */
function maskSetCookie(value: string): string {
  const [cookie = '', ...attributes] = value.split(';');
  const shown = pieces(attributes.join(';')).map((attribute) =>
    COOKIE_ATTRIBUTES.has(attribute.split('=')[0]!.trim().toLowerCase()) ? attribute : '***',
  );
  return [maskPair(cookie), ...shown].join('; ');
}

/** The `;`-separated pieces of a cookie header, trimmed, empty ones left out. */
function pieces(value: string): string[] {
  return value
    .split(';')
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '');
}

/** `name=value` as `name=***`; anything else whole. */
function maskPair(pair: string): string {
  const equals = pair.indexOf('=');
  const name = pair.slice(0, equals).trim();
  return equals > 0 && TOKEN.test(name) ? `${name}=***` : '***';
}

/** Split at commas that are not inside a quoted string (where `\` escapes the next character). */
function splitOutsideQuotes(value: string): string[] {
  const items: string[] = [];
  let quoted = false;
  let start = 0;
  for (let at = 0; at < value.length; at += 1) {
    const char = value[at];
    if (quoted && char === '\\') at += 1;
    else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      items.push(value.slice(start, at));
      start = at + 1;
    }
  }
  items.push(value.slice(start));
  return items;
}
