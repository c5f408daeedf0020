import { excerpt, type Redact } from '../output/text.js';

/**
 * Turn what undici or the socket layer threw into one line a person can act on.
 */

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  hostname?: unknown;
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/**
 * The code of the innermost error that has one (undici wraps socket errors
 * in `cause`). The attempt's own deadline (a TimeoutError, see Deadline in
 * client.ts) counts as
 * a headers timeout: the request was sent and no answer came.
 */
export function causeCode(err: unknown): string {
  if ((err as { name?: unknown } | null)?.name === 'TimeoutError') return 'UND_ERR_HEADERS_TIMEOUT';
  const code = rootCause(err).code;
  return typeof code === 'string' ? code : '';
}

/** The innermost error with a code: undici wraps socket errors in `cause`. */
function rootCause(err: unknown): ErrorLike {
  let current = (err ?? {}) as ErrorLike;
  for (let depth = 0; depth < 5; depth += 1) {
    if (typeof current.code === 'string' && !current.code.startsWith('UND_ERR')) return current;
    if (!current.cause || typeof current.cause !== 'object') break;
    current = current.cause as ErrorLike;
  }
  return (err ?? {}) as ErrorLike;
}

/**
 * The most response-header bytes accepted: Node's default, whatever
 * --max-http-header-size says. Given to the agent (src/context.ts) and to
 * undici's stand-in for node:http (tsup.config.ts), so that undici need not
 * load node:http to ask for Node's.
 */
export const RESPONSE_HEADER_LIMIT = 16 * 1024;

export interface NetworkFailure {
  message: string;
  timeout: boolean;
}

/**
 * `proxy` names the variable of the proxy the request went through, if any:
 * a refused or unresolvable connection may then be the proxy's. `redact`
 * masks the token in the error's own text.
 */
export function describeNetworkFailure(err: unknown, host: string, redact: Redact, proxy?: string): NetworkFailure {
  const cause = rootCause(err);
  const code = causeCode(err);
  // One line, printable: OpenSSL messages end in a newline.
  const text = excerpt(typeof cause.message === 'string' ? cause.message : String(err), 300, redact);
  const tunnel = /Proxy response \((\d+)\)/.exec(text);
  if (tunnel) {
    return { message: `the proxy in ${proxy ?? 'HTTPS_PROXY/HTTP_PROXY'} answered ${tunnel[1]} when asked to connect to ${host}`, timeout: false };
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
    case 'ETIMEDOUT':
      return { message: `could not connect to ${host}: timed out`, timeout: true };
    case 'UND_ERR_HEADERS_TIMEOUT':
      return { message: `${host} sent no response in time`, timeout: true };
    case 'UND_ERR_BODY_TIMEOUT':
      return { message: `${host} stopped sending the response body`, timeout: true };
    case 'UND_ERR_HEADERS_OVERFLOW':
      return { message: `${host} sent response headers larger than ${RESPONSE_HEADER_LIMIT / 1024} KiB, the most this client accepts (${code})`, timeout: false };
    default:
      break;
  }
  if (TLS_CODES.has(code) || /\b(ssl|tls|certificate)\b/i.test(text)) {
    return {
      message: `TLS error talking to ${host}: ${text}${code ? ` (${code})` : ''}; for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file`,
      timeout: false,
    };
  }
  return { message: `${text}${code ? ` (${code})` : ''}`, timeout: false };
}
