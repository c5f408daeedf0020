import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure } from '../helpers/client.js';
import type { Target } from '../../src/http/attempt.js';
import { HttpClient, type HttpClientOptions, type HttpRequest } from '../../src/http/request.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';
import { NetworkError } from '../../src/shared/errors.js';

// The transport alone, as api/ uses it: one request() that resolves with any
// final status, retries as the method allows, redirects within the origin
// only, a deadline on each attempt, and the same request id throughout.
const ORIGIN = 'http://plants.test';
const OTHER = 'http://elsewhere.test';
const TOKEN = 'http-request-token-6';
let agent: MockAgent;
let debug: string[];

function http(options: Partial<HttpClientOptions> = {}): HttpClient {
  return new HttpClient({
    origin: ORIGIN,
    host: 'plants.test',
    authorization: `Bearer ${TOKEN}`,
    dispatcher: agent,
    userAgent: 'plants/test',
    maxResponseBytes: 1024,
    timeoutMs: 5_000,
    retries: 0,
    debug: (line) => debug.push(line),
    ...options,
  });
}

function target(path: string, origin = ORIGIN): Target {
  return { origin, path, href: `${origin}${path}` };
}

function get(path: string, more: Partial<HttpRequest> = {}): HttpRequest {
  return { method: 'GET', target: target(path), ...more };
}

const pool = (origin = ORIGIN) => agent.get(origin);

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  debug = [];
  registerSecret(TOKEN);
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
  expect(debug.join('\n')).not.toContain(TOKEN);
  forgetSecrets();
});

describe('HttpClient.request: any final status is the answer', () => {
  it.each([200, 204, 400, 401, 404, 410, 500])('%d resolves, its body unread', async (status) => {
    pool().intercept({ path: '/x', method: 'GET' }).reply(status, 'said');
    const response = await http().request(get('/x'));
    expect(response.attempt.statusCode).toBe(status);
    expect(response.text).toBeUndefined();
    expect(response.unretried).toBeUndefined();
    expect(response.redirects).toBe(0);
    expect(response.redirectsOff).toBe(false);
    expect(response.label).toBe('GET http://plants.test/x');
    expect(response.target).toEqual(target('/x'));
    expect(response.attempts.count).toBe(1);
    response.attempt.close();
  });

  it('sends the credentials, identification, a fresh request id, and the caller headers but never over the credentials', async () => {
    let sent: Record<string, string> = {};
    pool()
      .intercept({ path: '/x', method: 'POST' })
      .reply(201, (options) => {
        sent = options.headers as Record<string, string>;
        return '';
      });
    const response = await http().request({
      method: 'POST',
      target: target('/x'),
      headers: { authorization: 'Bearer other', 'x-extra': 'yes', accept: 'text/plain' },
      body: Buffer.from('{}'),
    });
    expect(sent.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent['x-extra']).toBe('yes');
    expect(sent.accept).toBe('text/plain');
    expect(sent['accept-encoding']).toBe('identity');
    expect(sent['user-agent']).toBe('plants/test');
    expect(sent['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent['x-request-id']).toBe(response.requestId);
    expect(sent.traceparent).toBeUndefined();
    response.attempt.close();
  });

  it('sends a traceparent when given one', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    pool().intercept({ path: '/x', method: 'GET', headers: { traceparent } }).reply(200, '');
    (await http({ traceparent }).request(get('/x'))).attempt.close();
  });

  it('masks the secrets in the label (a query may hold one)', async () => {
    pool()
      .intercept({ path: `/x?key=${TOKEN}`, method: 'GET' })
      .reply(200, '');
    const response = await http().request(get(`/x?key=${TOKEN}`));
    expect(response.label).not.toContain(TOKEN);
    expect(response.label).toBe('GET http://plants.test/x?key=***');
    response.attempt.close();
  });
});

describe('retries follow the method', () => {
  it('a GET is sent again after a 503, with the same request id', async () => {
    const ids: string[] = [];
    const seen = (status: number) => (options: { headers?: unknown }) => {
      ids.push((options.headers as Record<string, string>)['x-request-id']!);
      return { statusCode: status, data: 'x', responseOptions: { headers: { 'retry-after': '0' } } };
    };
    pool().intercept({ path: '/x', method: 'GET' }).reply(seen(503));
    pool().intercept({ path: '/x', method: 'GET' }).reply(seen(200));
    const response = await http({ retries: 1 }).request(get('/x', { requestId: 'id-1' }));
    expect(response.attempt.statusCode).toBe(200);
    expect(response.attempts.count).toBe(2);
    expect(response.attempts.answered500).toBe(false);
    expect(ids).toEqual(['id-1', 'id-1']);
    expect(response.requestId).toBe('id-1');
    response.attempt.close();
  });

  it('a POST answered 503 is not sent again: the 503 is the answer', async () => {
    pool()
      .intercept({ path: '/x', method: 'POST' })
      .reply(503, 'busy', { headers: { 'retry-after': '0' } });
    const response = await http({ retries: 3 }).request({ method: 'POST', target: target('/x') });
    expect(response.attempt.statusCode).toBe(503);
    expect(response.attempts.count).toBe(1);
    expect(response.unretried).toBeUndefined();
    response.attempt.close();
  });

  it('with no retries left the last 503 is the answer, unread', async () => {
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(503, 'busy', { headers: { 'retry-after': '0' } });
    const response = await http({ retries: 0 }).request(get('/x'));
    expect(response.attempt.statusCode).toBe(503);
    expect(response.text).toBeUndefined();
    expect(response.unretried).toBeUndefined();
    response.attempt.close();
  });

  it('a Retry-After longer than plants waits ends the retries: the answer says so, its body read', async () => {
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(503, 'come back later', { headers: { 'retry-after': '31' } });
    const response = await http({ retries: 2 }).request(get('/x'));
    expect(response.attempt.statusCode).toBe(503);
    expect(response.text).toBe('come back later');
    expect(response.unretried).toEqual({
      note: ' (the service asks to be retried in 31 s, later than plants waits: 30 s)',
    });
    expect(response.attempts.count).toBe(1);
  });

  it('a Retry-After of exactly the longest wait is waited for: no note', async () => {
    // 30 s is waited; the signal, aborted on the wait, ends it at once.
    const stop = new AbortController();
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(503, 'busy', { headers: { 'retry-after': '30' } });
    const client = http({
      retries: 1,
      debug: (line) => {
        debug.push(line);
        if (line.startsWith('retrying in')) stop.abort();
      },
    });
    const response = await client.request(get('/x', { signal: stop.signal }));
    expect(response.unretried).toEqual({ note: '' });
    expect(response.text).toBe('busy');
    expect(debug).toContain('retrying in 30000 ms after 503 Service Unavailable (attempt 2 of 2)');
  });

  it('a GET that got no connection fails with a NetworkError naming the request, its id and attempts', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    pool().intercept({ path: '/x', method: 'GET' }).replyWithError(refused);
    const err = await failure<NetworkError>(http().request(get('/x', { requestId: 'id-2' })));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(
      'GET http://plants.test/x failed: connection refused by plants.test (is the service running?)',
    );
    expect(err.requestId).toBe('id-2');
    expect(err.attempts).toBe(1);
    expect(err.responseLost).toBe(false);
  });
});

describe('the deadline of an attempt', () => {
  it('no answer within the time is a timeout, the figure said once', async () => {
    pool().intercept({ path: '/x', method: 'GET' }).reply(200, '').delay(2_000);
    const err = await failure<NetworkError>(http({ timeoutMs: 50 }).request(get('/x')));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.timeout).toBe(true);
    expect(err.message).toBe(
      'GET http://plants.test/x failed: plants.test sent no response within 0.05 s (--timeout 0.05; raise it with --timeout or PLANTS_TIMEOUT)',
    );
  });
});

describe('redirects are followed within the origin only', () => {
  it('a 302 to the same origin is followed, with the credentials and the same request id', async () => {
    pool()
      .intercept({ path: '/a', method: 'GET' })
      .reply(302, '', { headers: { location: '/b' } });
    pool()
      .intercept({
        path: '/b',
        method: 'GET',
        headers: { authorization: `Bearer ${TOKEN}`, 'x-request-id': 'id-3' },
      })
      .reply(200, 'here');
    const response = await http().request(get('/a', { requestId: 'id-3' }));
    expect(response.attempt.statusCode).toBe(200);
    expect(response.target).toEqual(target('/b'));
    expect(response.label).toBe('GET http://plants.test/b');
    expect(response.redirects).toBe(1);
    expect(debug).toContain('following 302 Found to http://plants.test/b');
    response.attempt.close();
  });

  it.each([OTHER, 'https://plants.test', 'http://plants.test:8080'])(
    'a redirect to %s, another origin, is the answer: the credentials never go there',
    async (origin) => {
      pool()
        .intercept({ path: '/a', method: 'GET' })
        .reply(301, '', { headers: { location: `${origin}/b` } });
      // No interceptor for the other origin: with the network off, a request there would fail the test.
      const response = await http().request(get('/a'));
      expect(response.attempt.statusCode).toBe(301);
      expect(response.redirect).toEqual(target('/b', origin));
      expect(response.redirects).toBe(0);
      expect(response.target).toEqual(target('/a'));
      response.attempt.close();
    },
  );

  it('five redirects are followed, not a sixth', async () => {
    for (let hop = 0; hop < 6; hop += 1) {
      pool()
        .intercept({ path: `/${hop}`, method: 'GET' })
        .reply(302, '', { headers: { location: `/${hop + 1}` } });
    }
    const response = await http().request(get('/0'));
    expect(response.attempt.statusCode).toBe(302);
    expect(response.redirects).toBe(5);
    expect(response.redirect).toEqual(target('/6'));
    response.attempt.close();
  });

  it('with followRedirects off, a same-origin 307 is the answer', async () => {
    pool()
      .intercept({ path: '/a', method: 'DELETE' })
      .reply(307, '', { headers: { location: '/b' } });
    const response = await http().request({ method: 'DELETE', target: target('/a'), followRedirects: false });
    expect(response.attempt.statusCode).toBe(307);
    expect(response.redirectsOff).toBe(true);
    expect(response.redirect).toEqual(target('/b'));
    response.attempt.close();
  });

  it('a DELETE follows a 307 but not a 302 (which may change the method)', async () => {
    pool()
      .intercept({ path: '/a', method: 'DELETE' })
      .reply(302, '', { headers: { location: '/b' } });
    const response = await http().request({ method: 'DELETE', target: target('/a') });
    expect(response.attempt.statusCode).toBe(302);
    expect(response.redirect).toBeUndefined();
    response.attempt.close();
  });
});

describe('bodies', () => {
  it('reads a body within the bound, and refuses one past it', async () => {
    pool().intercept({ path: '/x', method: 'GET' }).reply(200, 'a'.repeat(1024));
    const client = http();
    expect((await client.readBody(await client.request(get('/x')))).length).toBe(1024);
    pool().intercept({ path: '/y', method: 'GET' }).reply(200, 'a'.repeat(1025));
    const err = await failure(client.readBody(await client.request(get('/y', { requestId: 'id-4' }))));
    expect(err.message).toBe(
      'GET http://plants.test/y → 200: the response is larger than 1024 bytes, more than --max-response-size; refusing it',
    );
    expect((err as NetworkError).requestId).toBe('id-4');
  });

  it('a body already read (text) is given as it is', async () => {
    pool()
      .intercept({ path: '/x', method: 'GET' })
      .reply(503, 'later', { headers: { 'retry-after': '99' } });
    const client = http({ retries: 1 });
    const response = await client.request(get('/x'));
    expect((await client.readBody(response)).toString()).toBe('later');
  });
});
