import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure, testClient } from '../helpers/client.js';
import { PlantStoreClient, type PlantStoreClientOptions } from '../../src/api/client.js';
import {
  BadResponseError,
  ExitCode,
  HttpError,
  NetworkError,
  NotTheServiceError,
  UsageError,
} from '../../src/shared/errors.js';

const ORIGIN = 'http://plants.test';
const TOKEN = 'unit-token-1';
let agent: MockAgent;

function client(base = ORIGIN, options: Partial<PlantStoreClientOptions> = {}): PlantStoreClient {
  return testClient(base, {
    token: TOKEN,
    dispatcher: agent,
    userAgent: 'plants/test node/test',
    maxResponseBytes: 256 * 1024 * 1024,
    ...options,
  });
}

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
});

afterEach(async () => {
  // Every stub must have been used, and nothing unstubbed may have been asked for.
  agent.assertNoPendingInterceptors();
  await agent.close();
});

describe('listPlants', () => {
  it('sends the bearer token, Accept, Accept-Encoding and User-Agent, and the limit', async () => {
    agent
      .get(ORIGIN)
      .intercept({
        path: '/plants',
        method: 'GET',
        query: { limit: '5' },
        headers: {
          authorization: `Bearer ${TOKEN}`,
          accept: 'application/json',
          'accept-encoding': 'identity',
          'user-agent': 'plants/test node/test',
        },
      })
      .reply(200, [{ id: 1, name: 'Fern' }], { headers: { 'content-type': 'application/json' } });
    expect(await client().listPlants({ limit: 5 })).toEqual([{ id: 1, name: 'Fern' }]);
  });

  it('keeps the base path prefix', async () => {
    agent.get(ORIGIN).intercept({ path: '/api/v1/plants', method: 'GET' }).reply(200, '[]');
    expect(await client(`${ORIGIN}/api/v1/`).listPlants()).toEqual([]);
  });

  it('turns the documented 400 Error into an HttpError with the service message', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(400, { error: 12, message: 'limit too large' }, { headers: { 'content-type': 'application/json' } });
    const err = await failure(client().listPlants());
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).exitCode).toBe(ExitCode.failure);
    expect((err as HttpError).serviceError).toEqual({ error: 12, message: 'limit too large' });
    expect(err.message).toBe('GET http://plants.test/plants → 400 Bad Request: limit too large (error 12)');
  });

  it('maps 401 to the auth exit code with a login hint', async () => {
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).reply(401, { error: 401, message: 'nope' });
    const err = await failure<HttpError>(client().listPlants());
    expect(err.exitCode).toBe(ExitCode.auth);
    expect(err.message).toMatch(/plants auth login.*PLANTS_TOKEN/);
    expect(err.message).not.toContain(TOKEN);
  });

  it('words a 403 to the list as a permission refused, not a bad token (exit 4 still)', async () => {
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).reply(403, { error: 403, message: 'nope' });
    const err = await failure<HttpError>(client().listPlants());
    expect(err.exitCode).toBe(ExitCode.auth);
    expect(err.message).toBe(
      "GET http://plants.test/plants → 403 Forbidden: nope (error 403); the service refused this token the permission: ask the service's owner for access",
    );
  });

  it('summarises an HTML error page', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(502, '<html><head><title>502 Bad Gateway</title></head></html>', {
        headers: { 'content-type': 'text/html' },
      });
    const err = await failure(client().listPlants());
    expect(err.message).toBe('GET http://plants.test/plants → 502 Bad Gateway: 502 Bad Gateway');
  });

  it('reports a redirect with its Location instead of following it', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(301, '', { headers: { location: 'https://elsewhere.test/plants' } });
    const err = await failure(client().listPlants());
    expect(err.message).toMatch(
      /301 Moved Permanently: redirected to https:\/\/elsewhere.test\/plants, another origin; not followed/,
    );
  });

  it('rejects a 200 that is not a plant list, naming the request', async () => {
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).reply(200, { plants: [] });
    const err = await failure(client().listPlants());
    expect(err).toBeInstanceOf(BadResponseError);
    expect(err.message).toMatch(
      /^GET http:\/\/plants.test\/plants → 200: expected a JSON array of plants, but received an object/,
    );
  });

  it('refuses a response larger than the limit', async () => {
    const small = client(ORIGIN, { maxResponseBytes: 100 });
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, JSON.stringify(Array(50).fill({ name: 'A' })));
    const err = await failure(small.listPlants());
    expect(err.message).toMatch(/larger than 100 bytes/);
  });

  it('names the URL and the cause of a network failure', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).replyWithError(refused);
    const err = await failure(client().listPlants());
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(
      'GET http://plants.test/plants failed: connection refused by plants.test (is the service running?)',
    );
  });

  it('names a host that does not resolve', async () => {
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND plants.test'), { code: 'ENOTFOUND' });
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).replyWithError(dns);
    const err = await failure(client().listPlants());
    expect(err.message).toBe('GET http://plants.test/plants failed: could not resolve host plants.test (ENOTFOUND)');
  });

  it('keeps a multi-line cause on one line', async () => {
    const tls = Object.assign(new Error('wrong version number\nssl3_get_record:350:\n'), {
      code: 'EPROTO',
    });
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).replyWithError(tls);
    const err = await failure(client().listPlants());
    expect(err.message).not.toContain('\n');
    expect(err.message).toMatch(
      /TLS error talking to plants.test: wrong version number ssl3_get_record:350: \(EPROTO\)/,
    );
  });

  it('explains TLS failures and the CA variable', async () => {
    const tls = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).replyWithError(tls);
    const err = await failure(client().listPlants());
    expect(err.message).toMatch(/TLS error talking to plants.test: self-signed certificate .*NODE_EXTRA_CA_CERTS/);
  });

  it('suggests NODE_EXTRA_CA_CERTS only for an unknown CA', async () => {
    const expired = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).replyWithError(expired);
    const err = await failure(client().listPlants());
    expect(err.message).toBe(
      'GET http://plants.test/plants failed: TLS error talking to plants.test: certificate has expired (CERT_HAS_EXPIRED)',
    );
  });

  it.each([
    [{ subject: { CN: 'only-cn.test' } }, 'only-cn.test'],
    [{ subjectaltname: 'DNS:a.test, IP Address:10.0.0.1, URI:spiffe://x, DNS:b.test' }, 'a.test, 10.0.0.1, b.test'],
    [
      { subjectaltname: Array.from({ length: 7 }, (_, i) => `DNS:n${i}.test`).join(', ') },
      'n0.test, n1.test, n2.test, n3.test, n4.test and 2 more',
    ],
    [undefined, 'other names'],
  ])('a certificate for other names (%j): names them and the base URL, not the CA variable', async (cert, names) => {
    const wrongName = Object.assign(new Error("Hostname/IP does not match certificate's altnames"), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      host: 'plants.test',
      cert,
    });
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).replyWithError(wrongName);
    const err = await failure(client().listPlants());
    expect(err.message).toBe(
      `GET http://plants.test/plants failed: TLS error talking to plants.test: its certificate is for ${names}, not plants.test ` +
        '(ERR_TLS_CERT_ALTNAME_INVALID); use a name it lists in the base URL',
    );
  });
});

describe('timeouts: the figure said once, never "in time" without it', () => {
  const raise = 'raise it with --timeout or PLANTS_TIMEOUT';

  it('no response within the attempt', async () => {
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).reply(200, '[]').delay(2_000);
    const err = await failure(client(ORIGIN, { timeoutMs: 50 }).listPlants());
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('timeout');
    expect(err.message).toBe(
      `GET http://plants.test/plants failed: plants.test sent no response within 0.05 s (--timeout 0.05; ${raise})`,
    );
  });

  it("no connection within the attempt (undici's connect timeout)", async () => {
    const timedOut = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).replyWithError(timedOut);
    const err = await failure(client().listPlants());
    expect((err as NetworkError).code).toBe('timeout');
    expect(err.message).toBe(
      `GET http://plants.test/plants failed: could not connect to plants.test within 5 s (--timeout 5; ${raise})`,
    );
  });

  it("the system's own timeout (ETIMEDOUT) is no --timeout: no figure, no hint to raise it", async () => {
    const timedOut = Object.assign(new Error('connect ETIMEDOUT 10.0.0.1:443'), { code: 'ETIMEDOUT' });
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).replyWithError(timedOut);
    const err = await failure(client().listPlants());
    expect((err as NetworkError).code).toBe('timeout');
    expect(err.message).toBe(
      'GET http://plants.test/plants failed: the connection to plants.test timed out (ETIMEDOUT)',
    );
  });

  it('undici\'s body timeout: no "within" a figure that is not --timeout', async () => {
    const stalled = Object.assign(new Error('Body Timeout Error'), { code: 'UND_ERR_BODY_TIMEOUT' });
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).replyWithError(stalled);
    const err = await failure(client().listPlants());
    expect(err.message).toBe(
      'GET http://plants.test/plants failed: plants.test stopped sending the response body (UND_ERR_BODY_TIMEOUT)',
    );
  });
});

describe('a list whose Link header names a next page', () => {
  it('is warned of once a client, however many times it is listed', async () => {
    const warned: string[] = [];
    const pages = client(ORIGIN, { warn: (text) => warned.push(text) });
    for (let i = 0; i < 2; i += 1) {
      agent
        .get(ORIGIN)
        .intercept({ path: '/plants', method: 'GET' })
        .reply(200, '[{"id":1,"name":"a"}]', {
          headers: { 'content-type': 'application/json', link: '<http://plants.test/plants?page=2>; rel="next"' },
        });
      expect(await pages.listPlants()).toEqual([{ id: 1, name: 'a' }]);
    }
    expect(warned).toEqual([expect.stringMatching(/^the service says it has more plants than this answer holds/)]);
  });
});

describe('deletePlant', () => {
  it.each([200, 202, 204])('treats %d as success and ignores the body', async (status) => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants/42', method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } })
      .reply(status, status === 204 ? '' : '{"deleted":true}');
    expect(await client().deletePlant('42')).toEqual({ status, afterLostResponse: false, attempts: 1 });
  });

  it.each([
    ['text sent as text/html, as PHP sends any answer', 'text/html; charset=UTF-8', 'deleted'],
    ['JSON sent as text/html', 'text/html', '{"deleted":true}'],
    ['an empty text/html answer', 'text/html', ''],
    ['a fragment of markup, no page', 'text/html', '<p>Plant 42 deleted</p>'],
    ['HTML in a JSON answer', 'application/json', '{"note":"<html>"}'],
  ])('a 2xx with %s is a deletion like any other', async (_what, type, body) => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants/42', method: 'DELETE' })
      .reply(200, body, { headers: { 'content-type': type } });
    expect(await client().deletePlant('42')).toEqual({ status: 200, afterLostResponse: false, attempts: 1 });
  });

  it.each([
    [
      'text/html',
      '<!DOCTYPE html>\n<html><head><title>My Shop</title></head><body><div id="app"></div></body></html>',
      'My Shop',
    ],
    [
      'application/xhtml+xml',
      '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body>Portal</body></html>',
      'Portal',
    ],
    // No content type at all, but a page.
    [undefined, '<html><title>Sign in</title></html>', 'Sign in'],
  ])(
    "a 2xx with an HTML page (%s) is a web site's answer, not the store's: unknown, check the base URL",
    async (type, page, shown) => {
      agent
        .get(ORIGIN)
        .intercept({ path: '/api/plants/42', method: 'DELETE' })
        .reply(200, page, { headers: type ? { 'content-type': type } : {} });
      const err = await failure<BadResponseError>(client(`${ORIGIN}/api`).deletePlant('42'));
      expect(err).toBeInstanceOf(NotTheServiceError);
      expect(err.code).toBe('bad_response');
      expect(err.status).toBe(200);
      expect(err.responseLost).toBe(true);
      expect(err.message).toBe(
        `DELETE http://plants.test/api/plants/42 → 200 OK, but with an HTML page (${shown}), not the plant store's answer; check the base URL (http://plants.test/api)`,
      );
    },
  );

  it('sends an id with reserved characters and dots as one encoded segment', async () => {
    agent.get(ORIGIN).intercept({ path: '/plants/a%3Fb%23c', method: 'DELETE' }).reply(204, '');
    // A function matcher: MockAgent would itself normalise a literal '/plants/%2E%2E%2E'.
    agent
      .get(ORIGIN)
      .intercept({ path: (path) => path === '/plants/%2E%2E%2E', method: 'DELETE' })
      .reply(204, '');
    await client().deletePlant('a?b#c');
    await client().deletePlant('...');
  });

  it('sends no DELETE of an id a server may read as another address (no interceptor: the network is off)', async () => {
    for (const id of ['..', '.', 'a/b', 'a\\b']) await expect(client().deletePlant(id)).rejects.toThrow(UsageError);
  });

  it('marks a 404 after a lost response (reset) as such, but not after a refused connection', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/plants/1', method: 'DELETE' }).replyWithError(reset);
    pool.intercept({ path: '/plants/1', method: 'DELETE' }).reply(404, { error: 404, message: 'gone' });
    pool.intercept({ path: '/plants/2', method: 'DELETE' }).replyWithError(refused);
    pool.intercept({ path: '/plants/2', method: 'DELETE' }).reply(404, { error: 404, message: 'gone' });
    const retrying = client(ORIGIN, { retries: 1 });
    expect(await retrying.deletePlant('1')).toEqual({ status: 404, afterLostResponse: true, attempts: 2 });
    const err = await failure<HttpError>(retrying.deletePlant('2'));
    expect(err.exitCode).toBe(ExitCode.notFound);
    expect(err.message).toMatch(/404 Not Found: gone \(error 404\) \(after 2 attempts\)/);
  });

  it('never retries without retries allowed, and says so when they run out', async () => {
    let requests = 0;
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(() => {
        requests += 1;
        return { statusCode: 503, data: 'busy', responseOptions: { headers: { 'retry-after': '0' } } };
      })
      .persist();
    const once = await failure(client(ORIGIN, { retries: 0 }).listPlants());
    expect(requests).toBe(1);
    expect(once.message).toBe('GET http://plants.test/plants → 503 Service Unavailable: busy');
    await agent.close();
    agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(503, 'busy', { headers: { 'retry-after': '0' } })
      .times(2);
    const err = await failure(client(ORIGIN, { retries: 1 }).listPlants());
    expect(err.message).toBe('GET http://plants.test/plants → 503 Service Unavailable: busy (after 2 attempts)');
  });

  it('maps 404 to the not-found exit code and keeps the service error', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants/9', method: 'DELETE' })
      .reply(404, { error: 404, message: 'plant 9 not found' });
    const err = await failure<HttpError>(client().deletePlant('9'));
    expect(err.exitCode).toBe(ExitCode.notFound);
    expect(err.status).toBe(404);
    expect(err.serviceError).toEqual({ error: 404, message: 'plant 9 not found' });
  });
});

describe('size and encoding limits', () => {
  it('refuses a body whose Content-Length is over --max-response-size, without reading it', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, '[]', { headers: { 'content-length': '1001' } });
    const err = await failure(client(ORIGIN, { maxResponseBytes: 1000 }).listPlants());
    expect(err).toBeInstanceOf(BadResponseError);
    expect(err.message).toBe(
      'GET http://plants.test/plants → 200: the response is 1001 bytes, more than --max-response-size (1000 bytes); refusing it',
    );
  });

  it('accepts a body of exactly --max-response-size bytes', async () => {
    const body = JSON.stringify([{ name: 'x'.repeat(87) }]);
    expect(body).toHaveLength(100);
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, body, { headers: { 'content-length': '100' } });
    expect(await client(ORIGIN, { maxResponseBytes: 100 }).listPlants()).toEqual([{ name: 'x'.repeat(87) }]);
  });

  it('says how large a body without Content-Length got when it passed the limit', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, JSON.stringify(Array(50).fill({ name: 'A' })));
    const err = await failure(client(ORIGIN, { maxResponseBytes: 100 }).listPlants());
    expect(err).toBeInstanceOf(BadResponseError);
    expect(err.message).toBe(
      'GET http://plants.test/plants → 200: the response is larger than 100 bytes, more than --max-response-size; refusing it',
    );
  });

  it('refuses a compressed list it did not ask for', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, 'gzipped bytes', { headers: { 'content-encoding': 'gzip' } });
    const err = await failure(client().listPlants());
    expect(err).toBeInstanceOf(BadResponseError);
    expect(err.message).toBe(
      'GET http://plants.test/plants → 200: the response is gzip-encoded, which plants did not ask for (it sends Accept-Encoding: identity)',
    );
  });

  it('does not show a compressed error body', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(500, 'gzipped bytes', { headers: { 'content-encoding': 'gzip' } });
    const err = await failure(client().listPlants());
    expect(err.message).toBe(
      'GET http://plants.test/plants → 500 Internal Server Error: the error body is gzip-encoded, which plants did not ask for (it sends Accept-Encoding: identity); not shown',
    );
    expect((err as HttpError).serviceError).toEqual({
      error: null,
      message:
        'the error body is gzip-encoded, which plants did not ask for (it sends Accept-Encoding: identity); not shown',
    });
  });

  it('masks the token in a list the service echoes it in', async () => {
    const token = 'a-longer-token-42';
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, `[{"name":"ok"},{"name":1,"auth":"Bearer ${token}"}]`, {
        headers: { 'content-type': 'application/json' },
      });
    const err = await failure(client(ORIGIN, { token }).listPlants());
    expect(err).toBeInstanceOf(BadResponseError);
    expect(err.message).toMatch(/^GET http:\/\/plants.test\/plants → 200: item 2 of the plant list is not a plant/);
    expect(err.message).not.toContain(token);
  });
});

describe('404 and the base URL', () => {
  it('a 404 to the list suggests checking the base URL; a DELETE 404 with an Error object is about the plant', async () => {
    agent.get(ORIGIN).intercept({ path: '/api/plants', method: 'GET' }).reply(404, 'no such path');
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/plants/3', method: 'DELETE' })
      .reply(404, { error: 404, message: 'no such plant' }, { headers: { 'content-type': 'application/json' } });
    const list = await failure(client(`${ORIGIN}/api`).listPlants());
    expect(list.message).toBe(
      'GET http://plants.test/api/plants → 404 Not Found: no such path; check the base URL (http://plants.test/api)',
    );
    expect((list as HttpError).exitCode).toBe(ExitCode.failure);
    const del = await failure(client(`${ORIGIN}/api`).deletePlant('3'));
    expect(del.message).toBe('DELETE http://plants.test/api/plants/3 → 404 Not Found: no such plant (error 404)');
    expect((del as HttpError).code).toBe('not_found');
  });

  const NONE = 'with no Error object from the service';
  const notOne = (why: string) => `with a body that is not the interface's Error object \\(${why}\\)`;
  it.each([
    ['a text body', 'Not Found', 'text/plain', NONE],
    ['an HTML page', '<html><title>404 Not Found</title></html>', 'text/html', NONE],
    ['an empty body', '', 'text/plain', NONE],
    ['JSON that is not an Error object', '{"detail":"not found"}', 'application/json', notOne('it has no "error"')],
    // NestJS's answer for a route it does not have: what a wrong base URL gets there.
    [
      "a framework's 404, its error a string",
      '{"statusCode":404,"message":"Cannot DELETE /api/plants/3","error":"Not Found"}',
      'application/json',
      notOne('its "error" is the string "Not Found", not an integer'),
    ],
    [
      'an error code that is a fraction',
      '{"error":404.5,"message":"x"}',
      'application/json',
      notOne('its "error" is 404.5, not an integer'),
    ],
    ['an Error object without its message', '{"error":404}', 'application/json', notOne('it has no "message"')],
    [
      'an Error object with an empty message',
      '{"error":404,"message":" "}',
      'application/json',
      notOne('its "message" is empty'),
    ],
    [
      'an error that is null',
      '{"error":null,"message":"x"}',
      'application/json',
      notOne('its "error" is null, not an integer'),
    ],
  ])(
    'a DELETE 404 with %s is a wrong address, not a missing plant: exit 1, check the base URL',
    async (_name, body, type, without) => {
      agent
        .get(ORIGIN)
        .intercept({ path: '/api/plants/3', method: 'DELETE' })
        .reply(404, body, { headers: { 'content-type': type } });
      const del = await failure<HttpError>(client(`${ORIGIN}/api`).deletePlant('3'));
      expect(del.code).toBe('http_error');
      expect(del.exitCode).toBe(ExitCode.failure);
      expect(del.message).toMatch(
        new RegExp(
          `^DELETE http://plants\\.test/api/plants/3 → 404 Not Found: .*; ${without}, as a router or proxy answers a wrong address: counted as failed, not as a missing plant; check the base URL \\(http://plants\\.test/api\\)$`,
        ),
      );
    },
  );

  it.each(['404.0', '4.04e2'])(
    'an Error object whose error is %s (an integer, as JSON Schema counts one) says a plant is missing',
    async (code) => {
      agent
        .get(ORIGIN)
        .intercept({ path: '/api/plants/3', method: 'DELETE' })
        .reply(404, `{"error":${code},"message":"no plant 3"}`, { headers: { 'content-type': 'application/json' } });
      const del = await failure<HttpError>(client(`${ORIGIN}/api`).deletePlant('3'));
      expect(del.code).toBe('not_found');
      expect(del.message).toBe('DELETE http://plants.test/api/plants/3 → 404 Not Found: no plant 3 (error 404)');
    },
  );

  it('a base URL that ends in /plants is named as the likely mistake', async () => {
    agent.get(ORIGIN).intercept({ path: '/api/plants/plants', method: 'GET' }).reply(404, 'no route');
    const list = await failure(client(`${ORIGIN}/api/plants/`).listPlants());
    expect(list.message).toBe(
      'GET http://plants.test/api/plants/plants → 404 Not Found: no route; check the base URL (http://plants.test/api/plants): it ends in /plants, which plants adds itself; use http://plants.test/api',
    );
  });

  it('a refused token is explained in the words the client was given', async () => {
    agent.get(ORIGIN).intercept({ path: '/plants', method: 'GET' }).reply(401, 'who?');
    const err = await failure(client(ORIGIN, { refusedToken: "profile 'work' has a stale token" }).listPlants());
    expect(err.message).toBe(
      "GET http://plants.test/plants → 401 Unauthorized: who?; profile 'work' has a stale token",
    );
  });
});

describe('large error bodies', () => {
  it('are shown as an excerpt of their start, not dropped', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(500, `overloaded ${'x'.repeat(200 * 1024)}`, { headers: { 'content-type': 'text/plain' } });
    const err = await failure(client().listPlants());
    expect(err.message).toBe(
      `GET http://plants.test/plants → 500 Internal Server Error: overloaded ${'x'.repeat(189)}…`,
    );
  });
});

describe('error pages', () => {
  it('an HTML page known only by its content type is summarised by its title', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/plants', method: 'GET' })
      .reply(503, '<div><title>Down for maintenance</title></div>', {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
    const err = await failure(client().listPlants());
    expect(err.message).toBe('GET http://plants.test/plants → 503 Service Unavailable: Down for maintenance');
  });
});
