import { maskSecrets } from '../secrets/registry.js';
import { excerpt } from '../shared/text.js';

/**
 * Turn what undici or the socket layer threw into one line a person can act on.
 */

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  hostname?: unknown;
  /** ERR_TLS_CERT_ALTNAME_INVALID: the name checked and the server's certificate. */
  host?: unknown;
  cert?: { subjectaltname?: unknown; subject?: { CN?: unknown } };
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/** The certificate's issuer is not trusted here: the case NODE_EXTRA_CA_CERTS is for. */
const UNKNOWN_CA_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);
const MAX_NAMES_SHOWN = 5;

/**
 * The host names and addresses a certificate is for, from its
 * subjectAltName (`DNS:a, IP Address:10.0.0.1`), else its common name.
 */
function certificateNames(cert: ErrorLike['cert']): string[] {
  const altNames = typeof cert?.subjectaltname === 'string' ? cert.subjectaltname : '';
  const names = altNames
    .split(', ')
    .map((entry) => /^(?:DNS|IP Address):(.+)$/.exec(entry)?.[1])
    .filter((name): name is string => Boolean(name));
  if (names.length === 0 && typeof cert?.subject?.CN === 'string') names.push(cert.subject.CN);
  return names.map((name) => excerpt(maskSecrets(name), 100));
}

/** The certificate is valid, but for other names: the base URL's host name is the thing to change. */
function wrongNameMessage(cause: ErrorLike, host: string): string {
  const checked = typeof cause.host === 'string' ? cause.host : host;
  const names = certificateNames(cause.cert);
  const more = names.length > MAX_NAMES_SHOWN ? ` and ${names.length - MAX_NAMES_SHOWN} more` : '';
  const forWhat = names.length ? names.slice(0, MAX_NAMES_SHOWN).join(', ') + more : 'other names';
  return (
    `TLS error talking to ${host}: its certificate is for ${forWhat}, not ${excerpt(maskSecrets(checked), 100)} ` +
    '(ERR_TLS_CERT_ALTNAME_INVALID); use a name it lists in the base URL'
  );
}

/**
 * The code of the innermost error that has one (undici wraps socket errors
 * in `cause`). The attempt's own deadline (a TimeoutError, see
 * AttemptTimeoutError in attempt.ts) counts as a connect timeout when it
 * passed before undici handed the request to a connection (it was never
 * sent), else as a headers timeout (it was sent and no answer came; so too
 * when it does not say).
 */
export function causeCode(err: unknown): string {
  const deadline = err as { name?: unknown; connected?: unknown } | null;
  if (deadline?.name === 'TimeoutError') {
    return deadline.connected === false ? 'UND_ERR_CONNECT_TIMEOUT' : 'UND_ERR_HEADERS_TIMEOUT';
  }
  if (isUnaskedContinue(err)) return UNASKED_CONTINUE;
  if (isParserError(err)) return MALFORMED_RESPONSE;
  const code = rootCause(err).code;
  return typeof code === 'string' ? code : '';
}

/**
 * Not an error code of undici's or Node's: what causeCode calls undici's
 * "bad response", which with a request in flight means the server answered
 * `100 Continue` unasked. undici (lib/dispatcher/client-h1.js) fails the
 * request and closes the connection rather than read the final response
 * after it, although RFC 9110 (15.2) lets a client skip an unexpected 1xx.
 * Not retried: the server would only do it again.
 */
export const UNASKED_CONTINUE = 'UNASKED_100_CONTINUE';

/**
 * Not an error code of undici's or Node's: what causeCode calls a response
 * that undici's HTTP parser refused (its HTTPParserError carries no code):
 * the server answered, in a way that cannot be read.
 */
export const MALFORMED_RESPONSE = 'MALFORMED_RESPONSE';

function isParserError(err: unknown): boolean {
  let current = err as (ErrorLike & { name?: unknown }) | null | undefined;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    if (current.name === 'HTTPParserError') return true;
    current = current.cause as ErrorLike | undefined;
  }
  return false;
}

function isUnaskedContinue(err: unknown): boolean {
  let current = err as ErrorLike | null | undefined;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    if (current.code === 'UND_ERR_SOCKET' && current.message === 'bad response') return true;
    current = current.cause as ErrorLike | undefined;
  }
  return false;
}

/** The innermost error with a code: undici wraps socket errors in `cause`. */
function rootCause(err: unknown): ErrorLike {
  let current = (err ?? {}) as ErrorLike;
  for (let depth = 0; depth < 5; depth += 1) {
    if (typeof current.code === 'string' && !current.code.startsWith('UND_ERR')) return current;
    if (!current.cause || typeof current.cause !== 'object') break;
    current = current.cause;
  }
  return err ?? {};
}

/**
 * The most response-header bytes accepted: Node's default, whatever
 * --max-http-header-size says. Given to the agent (src/http/transport.ts) and to
 * undici's stand-in for node:http (build/start-up.ts), so that undici need not
 * load node:http to ask for Node's.
 */
export const RESPONSE_HEADER_LIMIT = 16 * 1024;

export interface NetworkFailure {
  message: string;
  timeout: boolean;
}

/**
 * `proxy` names the variable of the proxy the request went through, if any:
 * a refused or unresolvable connection may then be the proxy's. The run's
 * secrets are masked in the error's own text (maskSecrets, before it is
 * cut). `deadline` is the attempt's
 * time as said after "within" (`1 s (--timeout 1; …)`): said once, where
 * the attempt's deadline is what ran out, and not for the system's or
 * undici's own timers, which --timeout does not set.
 */
export function describeNetworkFailure(err: unknown, host: string, deadline: string, proxy?: string): NetworkFailure {
  const cause = rootCause(err);
  const code = causeCode(err);
  // One line, printable: OpenSSL messages end in a newline.
  const text = excerpt(maskSecrets(typeof cause.message === 'string' ? cause.message : String(err)), 300);
  const tunnel = /Proxy response \((\d+)\)/.exec(text);
  if (tunnel) {
    return {
      message: `the proxy in ${proxy ?? 'HTTPS_PROXY/HTTP_PROXY'} answered ${tunnel[1]} when asked to connect to ${host}`,
      timeout: false,
    };
  }
  const orProxy = proxy ? ` or the proxy in ${proxy}` : '';
  switch (code) {
    case 'ECONNREFUSED':
      return { message: `connection refused by ${host}${orProxy} (is the service running?)`, timeout: false };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { message: `could not resolve host ${host}${orProxy} (${code})`, timeout: false };
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return { message: `the connection was closed by ${host} before a response arrived (${code})`, timeout: false };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { message: `${host} is unreachable (${code})`, timeout: false };
    case 'UND_ERR_CONNECT_TIMEOUT':
      // undici's connect timeout (connectTimeoutMs in transport.ts), or the
      // attempt's deadline before a connection opened: either way, its time.
      return { message: `could not connect to ${host} within ${deadline}`, timeout: true };
    case 'ETIMEDOUT':
      return { message: `the connection to ${host} timed out (${code})`, timeout: true };
    case 'UND_ERR_HEADERS_TIMEOUT':
      return { message: `${host} sent no response within ${deadline}`, timeout: true };
    case 'UND_ERR_BODY_TIMEOUT':
      return { message: `${host} stopped sending the response body (${code})`, timeout: true };
    case MALFORMED_RESPONSE:
      return { message: `${host} answered in a way plants cannot read: ${text}`, timeout: false };
    case UNASKED_CONTINUE:
      return {
        message:
          `${host} answered "100 Continue" unasked (plants sends no Expect: 100-continue), and its HTTP client, ` +
          'undici, cannot read past one: the final response was not read, so whether the request was carried out ' +
          'is unknown (UND_ERR_SOCKET: bad response); the server, or a proxy in front of it, has to stop sending it',
        timeout: false,
      };
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return { message: wrongNameMessage(cause, host), timeout: false };
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      // OpenSSL's words for a TLS hello answered in plain text.
      return {
        message:
          `${host} did not answer in TLS: it looks like a plain-HTTP server (${code}); ` +
          'if it is, use http:// in the base URL (the token then travels unencrypted: only on a trusted network)',
        timeout: false,
      };
    case 'UND_ERR_HEADERS_OVERFLOW':
      return {
        message: `${host} sent response headers larger than ${RESPONSE_HEADER_LIMIT / 1024} KiB, the most this client accepts (${code})`,
        timeout: false,
      };
    default:
      break;
  }
  if (TLS_CODES.has(code) || /\b(ssl|tls|certificate)\b/i.test(text)) {
    const hint = UNKNOWN_CA_CODES.has(code) ? '; for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file' : '';
    return { message: `TLS error talking to ${host}: ${text}${code ? ` (${code})` : ''}${hint}`, timeout: false };
  }
  return { message: `${text}${code ? ` (${code})` : ''}`, timeout: false };
}
