import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DebugLog } from '../../src/http/debug-log.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';

const TOKEN = 'debug-log-token-3';

beforeEach(() => registerSecret(TOKEN));
afterEach(() => forgetSecrets());

function recorded(): { log: DebugLog; lines: string[] } {
  const lines: string[] = [];
  return { log: new DebugLog((line) => lines.push(line)), lines };
}

describe('DebugLog (--debug)', () => {
  it('is off without a writer, and then writes nothing', () => {
    const off = new DebugLog(undefined);
    expect(off.on).toBe(false);
    expect(() => off.line('→ GET x', { a: 'b' })).not.toThrow();
    expect(recorded().log.on).toBe(true);
  });

  it('writes the line, then one indented line per header, in order', () => {
    const { log, lines } = recorded();
    log.line('← 200 OK in 3 ms', { 'content-type': 'application/json', 'x-count': ['1', '2'] });
    log.line('retrying');
    expect(lines).toEqual(['← 200 OK in 3 ms', '  content-type: application/json', '  x-count: 1,2', 'retrying']);
  });

  it('never shows credentials: the scheme of Authorization and Proxy-Authorization stays, whatever its case', () => {
    const { log, lines } = recorded();
    log.line('→ GET http://plants.test/plants', {
      authorization: `Bearer ${TOKEN}`,
      Authorization: 'Basic dXNlcjpwYXNz',
      'Proxy-Authorization': 'Negotiate  YIIC==',
      'proxy-authorization': 'no-scheme-secret',
    });
    expect(lines).toEqual([
      '→ GET http://plants.test/plants',
      '  authorization: Bearer ***',
      '  Authorization: Basic ***',
      '  Proxy-Authorization: Negotiate ***',
      '  proxy-authorization: ***',
    ]);
  });

  it('masks the parameters of WWW-Authenticate and Proxy-Authenticate challenges, keeping the schemes', () => {
    const { log, lines } = recorded();
    log.line('← 401 Unauthorized', {
      'www-authenticate': [
        'Bearer realm="plants", error="invalid_token", error_description="token sec-123, expired"',
        'Basic realm="a,b" , charset=UTF-8',
      ],
      'Proxy-Authenticate': 'Negotiate oYG3MIG0oAMKAQ==, NTLM',
      'WWW-Authenticate': 'Digest   nonce="n1", opaque=o2,Mutual',
    });
    expect(lines).toEqual([
      '← 401 Unauthorized',
      '  www-authenticate: Bearer realm=***, error=***, error_description=***, Basic realm=***, charset=***',
      '  Proxy-Authenticate: Negotiate ***, NTLM',
      '  WWW-Authenticate: Digest nonce=***, opaque=***, Mutual',
    ]);
  });

  it('masks cookie values in both directions, keeping their names and the attributes of Set-Cookie', () => {
    const { log, lines } = recorded();
    log.line('→ GET http://plants.test/plants', { Cookie: 'sid=abc123; theme=dark;' });
    log.line('← 200 OK', {
      'set-cookie': ['sid=s3cr3t; Path=/; HttpOnly; Secure', 'csrf=x=y==; SameSite=Strict', 'flag'],
    });
    expect(lines).toEqual([
      '→ GET http://plants.test/plants',
      '  Cookie: sid=***; theme=***',
      '← 200 OK',
      '  set-cookie: sid=***; Path=/; HttpOnly; Secure, csrf=***; SameSite=Strict, ***',
    ]);
  });

  it('masks the token before it takes a header apart, and unknown Set-Cookie attributes', () => {
    const { log, lines } = recorded();
    // A value with a `;` in it: cut at the `;`, the pieces would no longer be the token.
    const withSemicolons = `a;b;${TOKEN}`;
    forgetSecrets();
    registerSecret(withSemicolons);
    const masking = new DebugLog((line) => lines.push(line));
    masking.line('← 200 OK', { 'set-cookie': `sid=${withSemicolons}; Path=/; odd=1` });
    log.line('← 200 OK', { 'set-cookie': 'sid=x; Path=/; SameSite=Lax; Domain=plants.test; odd=abc; junk' });
    expect(lines).toEqual([
      '← 200 OK',
      '  set-cookie: sid=***; Path=/; ***',
      '← 200 OK',
      '  set-cookie: sid=***; Path=/; SameSite=Lax; Domain=plants.test; ***; ***',
    ]);
  });

  it.each([
    'x-api-key',
    'X-Amz-Security-Token',
    'x-session-id',
    'X-Auth-User',
    'x-client-secret',
    'x-goog-authuser',
    'x-csrf-cookie',
  ])('masks the whole value of %s, a header whose name says it holds a secret', (name) => {
    const { log, lines } = recorded();
    log.line('← 200 OK', { [name]: 'k-12345', 'x-request-id': 'r-1', 'content-type': 'application/json' });
    expect(lines).toEqual(['← 200 OK', `  ${name}: ***`, '  x-request-id: r-1', '  content-type: application/json']);
  });

  it('masks the token in the line and in every header value', () => {
    const { log, lines } = recorded();
    log.line(`→ GET http://plants.test/${TOKEN}`, { 'x-echo': `you sent ${TOKEN}` });
    expect(lines).toEqual(['→ GET http://plants.test/***', '  x-echo: you sent ***']);
  });

  it('masks the userinfo and query of Location and Content-Location, any case', () => {
    const { log, lines } = recorded();
    log.line('← 302 Found', {
      Location: 'https://user:pw@plants.test/next?sig=abc&limit=5',
      'content-location': 'https://plants.test/x?key=secret',
      'x-other': 'https://plants.test/x?key=shown',
    });
    expect(lines).toEqual([
      '← 302 Found',
      '  Location: https://***@plants.test/next?sig=***&limit=5',
      '  content-location: https://plants.test/x?key=***',
      '  x-other: https://plants.test/x?key=shown',
    ]);
  });

  it('keeps a header value to one printable line of at most 300 characters', () => {
    const { log, lines } = recorded();
    log.line('←', { 'x-long': 'a\nb'.padEnd(400, 'c') });
    expect(lines[1]).toBe(`  x-long: ${'a b'.padEnd(300, 'c')}…`);
  });
});
