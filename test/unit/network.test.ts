import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttemptTimeoutError } from '../../src/http/attempt.js';
import { causeCode, describeNetworkFailure, RESPONSE_HEADER_LIMIT } from '../../src/http/network.js';
import { RETRY_ERROR_CODES } from '../../src/http/retry.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';

// What a person reads when a request got no response: one line per cause,
// and whether it counts as a timeout (the `timeout` error code scripts see).
const HOST = 'plants.test';
const DEADLINE = '5 s (--timeout 5; raise it with --timeout or PLANTS_TIMEOUT)';
const TOKEN = 'network-test-token-7';

beforeEach(() => registerSecret(TOKEN));
afterEach(() => forgetSecrets());

function coded(code: string, message = `failed with ${code}`): Error {
  return Object.assign(new Error(message), { code });
}

/** undici wraps the socket's error: `fetch failed`-style outer error, the real one in `cause`. */
function wrapped(inner: unknown, code = 'UND_ERR_CONNECT'): Error {
  return Object.assign(new Error('outer'), { code, cause: inner });
}

function describe_(err: unknown, proxy?: string) {
  return describeNetworkFailure(err, HOST, DEADLINE, proxy);
}

describe('describeNetworkFailure: one line per cause, and whether it is a timeout', () => {
  it.each([
    ['ECONNREFUSED', 'connection refused by plants.test (is the service running?)', false],
    ['ENOTFOUND', 'could not resolve host plants.test (ENOTFOUND)', false],
    ['EAI_AGAIN', 'could not resolve host plants.test (EAI_AGAIN)', false],
    ['ECONNRESET', 'the connection was closed by plants.test before a response arrived (ECONNRESET)', false],
    ['UND_ERR_SOCKET', 'the connection was closed by plants.test before a response arrived (UND_ERR_SOCKET)', false],
    ['EHOSTUNREACH', 'plants.test is unreachable (EHOSTUNREACH)', false],
    ['ENETUNREACH', 'plants.test is unreachable (ENETUNREACH)', false],
    ['UND_ERR_CONNECT_TIMEOUT', `could not connect to plants.test within ${DEADLINE}`, true],
    ['ETIMEDOUT', 'the connection to plants.test timed out (ETIMEDOUT)', true],
    ['UND_ERR_HEADERS_TIMEOUT', `plants.test sent no response within ${DEADLINE}`, true],
    ['UND_ERR_BODY_TIMEOUT', 'plants.test stopped sending the response body (UND_ERR_BODY_TIMEOUT)', true],
    [
      'UND_ERR_HEADERS_OVERFLOW',
      'plants.test sent response headers larger than 16 KiB, the most this client accepts (UND_ERR_HEADERS_OVERFLOW)',
      false,
    ],
  ])('%s', (code, message, timeout) => {
    expect(describe_(coded(code))).toEqual({ message, timeout });
  });

  it('the header limit said is the one the agent is given', () => {
    expect(RESPONSE_HEADER_LIMIT).toBe(16 * 1024);
  });

  it("the attempt's own deadline (a TimeoutError) is a headers timeout: no response within --timeout", () => {
    const aborted = new DOMException('attempt timed out', 'TimeoutError');
    expect(causeCode(aborted)).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(describe_(aborted)).toEqual({ message: `plants.test sent no response within ${DEADLINE}`, timeout: true });
  });

  it("the attempt's deadline before a connection opened is a connect timeout: never sent", () => {
    const beforeConnecting = new AttemptTimeoutError(false);
    expect(causeCode(beforeConnecting)).toBe('UND_ERR_CONNECT_TIMEOUT');
    expect(describe_(beforeConnecting)).toEqual({
      message: `could not connect to plants.test within ${DEADLINE}`,
      timeout: true,
    });
    expect(causeCode(new AttemptTimeoutError(true))).toBe('UND_ERR_HEADERS_TIMEOUT');
  });

  it('an unknown code: the error text and its code, not a timeout', () => {
    expect(describe_(coded('EWEIRD', 'something odd'))).toEqual({ message: 'something odd (EWEIRD)', timeout: false });
  });

  it('no code at all: just the error text; a non-Error thrown is shown as text', () => {
    expect(describe_(new Error('plain failure'))).toEqual({ message: 'plain failure', timeout: false });
    expect(describe_('a string was thrown')).toEqual({ message: 'a string was thrown', timeout: false });
    expect(describe_(null)).toEqual({ message: 'null', timeout: false });
    expect(causeCode(null)).toBe('');
    expect(causeCode({ code: 42 })).toBe('');
  });

  it('masks the token in the error text, and keeps it to one line', () => {
    const leaky = coded('EWEIRD', `refused token ${TOKEN}\nsecond line`);
    const { message } = describe_(leaky);
    expect(message).toBe('refused token *** second line (EWEIRD)');
  });

  it('cuts a long error text', () => {
    const { message } = describe_(coded('EWEIRD', 'x'.repeat(1000)));
    expect(message).toBe(`${'x'.repeat(300)}… (EWEIRD)`);
  });
});

describe('describeNetworkFailure: the cause inside undici wrappers', () => {
  it("finds a socket error's code under undici's wrapper", () => {
    const inner = coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1');
    expect(causeCode(wrapped(inner))).toBe('ECONNREFUSED');
    expect(describe_(wrapped(inner)).message).toBe('connection refused by plants.test (is the service running?)');
  });

  it("keeps undici's own code when nothing inside has a better one", () => {
    expect(causeCode(wrapped(new Error('no code here'), 'UND_ERR_SOCKET'))).toBe('UND_ERR_SOCKET');
    expect(causeCode(wrapped('not an object', 'UND_ERR_SOCKET'))).toBe('UND_ERR_SOCKET');
    expect(causeCode(coded('UND_ERR_HEADERS_TIMEOUT'))).toBe('UND_ERR_HEADERS_TIMEOUT');
  });

  it('looks up to five levels deep, not more', () => {
    const deep = (levels: number) => {
      let err: Error = coded('ECONNRESET');
      for (let i = 0; i < levels; i += 1) err = wrapped(err, 'UND_ERR_SOCKET');
      return err;
    };
    expect(causeCode(deep(4))).toBe('ECONNRESET');
    expect(causeCode(deep(5))).toBe('UND_ERR_SOCKET');
  });

  it('takes the message of the error the code came from', () => {
    const inner = coded('EWEIRD', 'the inner story');
    expect(describe_(wrapped(inner)).message).toBe('the inner story (EWEIRD)');
  });
});

describe('a server that answers "100 Continue" unasked', () => {
  const unasked = () => Object.assign(new Error('bad response'), { code: 'UND_ERR_SOCKET' });

  it('is told apart from a closed connection, and never retried', () => {
    expect(causeCode(unasked())).toBe('UNASKED_100_CONTINUE');
    expect(causeCode(wrapped(unasked(), 'UND_ERR_X'))).toBe('UNASKED_100_CONTINUE');
    expect(RETRY_ERROR_CODES.has(causeCode(unasked()))).toBe(false);
    const { message, timeout } = describe_(unasked());
    expect(timeout).toBe(false);
    expect(message).toBe(
      'plants.test answered "100 Continue" unasked (plants sends no Expect: 100-continue), and its HTTP client, ' +
        'undici, cannot read past one: the final response was not read, so whether the request was carried out ' +
        'is unknown (UND_ERR_SOCKET: bad response); the server, or a proxy in front of it, has to stop sending it',
    );
  });

  it('needs both the code and the message', () => {
    expect(causeCode(Object.assign(new Error('other socket trouble'), { code: 'UND_ERR_SOCKET' }))).toBe(
      'UND_ERR_SOCKET',
    );
    expect(causeCode(Object.assign(new Error('bad response'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
  });

  it('is found up to five levels deep, not more', () => {
    let err: unknown = unasked();
    for (let i = 0; i < 4; i += 1) err = { cause: err };
    expect(causeCode(err)).toBe('UNASKED_100_CONTINUE');
    expect(causeCode({ cause: err })).toBe('');
  });
});

describe('through a proxy', () => {
  it('a refused tunnel names the proxy variable and its status', () => {
    const tunnel = coded('UND_ERR_ABORTED', 'Proxy response (407) !== 200 when HTTP Tunneling');
    expect(describe_(tunnel, 'HTTPS_PROXY')).toEqual({
      message: 'the proxy in HTTPS_PROXY answered 407 when asked to connect to plants.test',
      timeout: false,
    });
    expect(describe_(tunnel).message).toBe(
      'the proxy in HTTPS_PROXY/HTTP_PROXY answered 407 when asked to connect to plants.test',
    );
  });

  it('a refused or unresolvable connection may be the proxy', () => {
    expect(describe_(coded('ECONNREFUSED'), 'HTTP_PROXY').message).toBe(
      'connection refused by plants.test or the proxy in HTTP_PROXY (is the service running?)',
    );
    expect(describe_(coded('ENOTFOUND'), 'HTTPS_PROXY').message).toBe(
      'could not resolve host plants.test or the proxy in HTTPS_PROXY (ENOTFOUND)',
    );
  });
});

describe('TLS failures', () => {
  const caHint = '; for a private CA, set NODE_EXTRA_CA_CERTS to its PEM file';

  it.each([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  ])('%s: an unknown CA, so the hint names NODE_EXTRA_CA_CERTS', (code) => {
    expect(describe_(coded(code, 'some reason'))).toEqual({
      message: `TLS error talking to plants.test: some reason (${code})${caHint}`,
      timeout: false,
    });
  });

  it('ERR_SSL_WRONG_VERSION_NUMBER (https:// to a plain-HTTP server) is said in words, with http:// as the way on', () => {
    expect(describe_(coded('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number'))).toEqual({
      message:
        'plants.test did not answer in TLS: it looks like a plain-HTTP server (ERR_SSL_WRONG_VERSION_NUMBER); ' +
        'if it is, use http:// in the base URL (the token then travels unencrypted: only on a trusted network)',
      timeout: false,
    });
  });

  it.each(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'EPROTO'])('%s: a TLS error without the CA hint', (code) => {
    expect(describe_(coded(code, 'some reason'))).toEqual({
      message: `TLS error talking to plants.test: some reason (${code})`,
      timeout: false,
    });
  });

  it('a message about TLS or a certificate is a TLS error even without a known code', () => {
    expect(describe_(new Error('unable to verify the first certificate')).message).toBe(
      'TLS error talking to plants.test: unable to verify the first certificate',
    );
    expect(describe_(coded('EX', 'SSL routines failed')).message).toBe(
      'TLS error talking to plants.test: SSL routines failed (EX)',
    );
    // Words that only contain "tls" or "ssl" are no TLS error.
    expect(describe_(new Error('settlsomething happened')).message).toBe('settlsomething happened');
  });

  describe('a certificate for other names', () => {
    const wrongName = (fields: object) =>
      Object.assign(new Error("Hostname/IP does not match certificate's altnames"), {
        code: 'ERR_TLS_CERT_ALTNAME_INVALID',
        ...fields,
      });
    const said = (names: string, checked = 'plants.test') =>
      `TLS error talking to plants.test: its certificate is for ${names}, not ${checked} ` +
      '(ERR_TLS_CERT_ALTNAME_INVALID); use a name it lists in the base URL';

    it('names the host name checked, else the base URL host; no timeout', () => {
      const cert = { subjectaltname: 'DNS:a.test' };
      expect(describe_(wrongName({ cert })).timeout).toBe(false);
      expect(describe_(wrongName({ host: '10.0.0.9', cert })).message).toBe(said('a.test', '10.0.0.9'));
      expect(describe_(wrongName({ cert })).message).toBe(said('a.test'));
    });

    it('takes only whole DNS and IP Address entries of the subjectAltName', () => {
      const cert = { subjectaltname: 'DNS:a.test, URI:DNS:x.test, email:IP Address:1.2.3.4, IP Address:10.0.0.1' };
      expect(describe_(wrongName({ cert })).message).toBe(said('a.test, 10.0.0.1'));
    });

    it('falls back to the common name only when the subjectAltName lists none', () => {
      expect(describe_(wrongName({ cert: { subjectaltname: 'DNS:a.test', subject: { CN: 'cn.test' } } })).message).toBe(
        said('a.test'),
      );
      expect(describe_(wrongName({ cert: { subjectaltname: 42, subject: { CN: 'cn.test' } } })).message).toBe(
        said('cn.test'),
      );
      expect(describe_(wrongName({ cert: {} })).message).toBe(said('other names'));
      expect(describe_(wrongName({ cert: { subject: { CN: 7 } } })).message).toBe(said('other names'));
    });

    it('names five, and says how many more, only when there are more than five', () => {
      const names = (n: number) => Array.from({ length: n }, (_, i) => `DNS:n${i}.test`).join(', ');
      expect(describe_(wrongName({ cert: { subjectaltname: names(5) } })).message).toBe(
        said('n0.test, n1.test, n2.test, n3.test, n4.test'),
      );
      expect(describe_(wrongName({ cert: { subjectaltname: names(6) } })).message).toBe(
        said('n0.test, n1.test, n2.test, n3.test, n4.test and 1 more'),
      );
    });

    it('masks the token and cuts long names', () => {
      const cert = { subjectaltname: `DNS:${TOKEN}.test, DNS:${'y'.repeat(150)}` };
      expect(describe_(wrongName({ cert, host: `${'h'.repeat(120)}` })).message).toBe(
        said(`***.test, ${'y'.repeat(100)}…`, `${'h'.repeat(100)}…`),
      );
    });
  });
});

describe('describeNetworkFailure without a secret to mask', () => {
  it('shows the text as it is', () => {
    forgetSecrets();
    expect(describeNetworkFailure(coded('EWEIRD', `abc ${TOKEN}`), HOST, DEADLINE).message).toBe(
      `abc ${TOKEN} (EWEIRD)`,
    );
  });
});
