import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Attempt } from '../../src/http/attempt.js';
import { bodyError, unaskedEncoding, type BodyOf, type BodyReading } from '../../src/http/body.js';
import { DebugLog } from '../../src/http/debug-log.js';
import { HttpClient } from '../../src/http/request.js';
import { Attempts } from '../../src/http/retry.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';
import { BadResponseError, NetworkError } from '../../src/shared/errors.js';
import { ReadTimeoutError, TooLargeError } from '../../src/shared/read-text.js';

// Reading a response's body (src/http/body.ts): its bound, a coding never
// asked for, what --debug shows of it, and what a failure while reading says.
const ORIGIN = 'http://plants.test';
const TOKEN = 'http-body-token-1';
const DEADLINE = '5 s (--timeout 5; raise it with --timeout or PLANTS_TIMEOUT)';
let agent: MockAgent;
let debug: string[];

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  debug = [];
  registerSecret(TOKEN);
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
  forgetSecrets();
});

function http(maxResponseBytes = 100): HttpClient {
  return new HttpClient({
    origin: ORIGIN,
    host: 'plants.test',
    authorization: `Bearer ${TOKEN}`,
    dispatcher: agent,
    userAgent: 'plants/test',
    maxResponseBytes,
    timeoutMs: 5_000,
    retries: 0,
    debug: (line) => debug.push(line),
  });
}

const get = (path: string) => ({ method: 'GET', target: { origin: ORIGIN, path, href: `${ORIGIN}${path}` } }) as const;

/** A response whose body failed: only what bodyError reads of it. */
function failed(timedOut = false, count = 1): BodyOf {
  const attempts = new Attempts();
  attempts.count = count;
  const attempt = { statusCode: 200, timedOut } as unknown as Attempt;
  return { attempt, label: 'GET http://plants.test/plants', attempts, requestId: 'id-9' };
}

const reading: BodyReading = { maxBytes: 100, log: new DebugLog(undefined), host: 'plants.test', deadline: DEADLINE };

describe('unaskedEncoding', () => {
  it.each([undefined, '', 'identity', ' Identity ', 'identity, identity'])('%j: the body is as sent', (header) => {
    expect(unaskedEncoding(header, 'response')).toBeUndefined();
  });

  it('names the coding, whatever its case, and several in order', () => {
    expect(unaskedEncoding('GZIP', 'response')).toBe(
      'the response is gzip-encoded, which plants did not ask for (it sends Accept-Encoding: identity)',
    );
    expect(unaskedEncoding(['deflate', 'br'], 'error body')).toMatch(
      /^the error body is encoded with deflate, br, which/,
    );
  });

  it('escapes what a hostile header holds', () => {
    expect(unaskedEncoding('x\u001b[31m', 'response')).not.toContain('\u001b');
  });
});

describe('the bound on a body', () => {
  it('a declared size of exactly the bound is read; one byte more is refused unread', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/a', method: 'GET' })
      .reply(200, 'x'.repeat(100), { headers: { 'content-length': '100' } });
    const client = http();
    expect((await client.readBody(await client.request(get('/a')))).length).toBe(100);
    agent
      .get(ORIGIN)
      .intercept({ path: '/b', method: 'GET' })
      .reply(200, 'x'.repeat(101), { headers: { 'content-length': '101' } });
    await expect(client.readBody(await client.request(get('/b')))).rejects.toThrow(
      'GET http://plants.test/b → 200: the response is 101 bytes, more than --max-response-size (100 bytes); refusing it',
    );
  });

  it("an error response's compressed body reads as empty; a success's is refused", async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/a', method: 'GET' })
      .reply(500, 'zzz', { headers: { 'content-encoding': 'gzip' } });
    const client = http();
    expect((await client.readBody(await client.request(get('/a')))).length).toBe(0);
    agent
      .get(ORIGIN)
      .intercept({ path: '/b', method: 'GET' })
      .reply(200, 'zzz', { headers: { 'content-encoding': 'gzip' } });
    await expect(client.readBody(await client.request(get('/b')))).rejects.toThrow(
      'GET http://plants.test/b → 200: the response is gzip-encoded, which plants did not ask for (it sends Accept-Encoding: identity)',
    );
  });

  it('--debug shows the start of a body read, its size, the secrets masked', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/a', method: 'GET' })
      .reply(200, `hello ${TOKEN}`, { headers: { 'content-type': 'text/plain' } });
    const client = http();
    expect((await client.readBody(await client.request(get('/a')))).toString()).toBe(`hello ${TOKEN}`);
    expect(debug.at(-1)).toBe(`  body (${6 + TOKEN.length} bytes): hello ***`);
  });
});

describe('bodyError', () => {
  it('a body past the bound', () => {
    const err = bodyError(new TooLargeError('larger than 100 bytes'), failed(), reading) as BadResponseError;
    expect(err).toBeInstanceOf(BadResponseError);
    expect(err.message).toBe(
      'GET http://plants.test/plants → 200: the response is larger than 100 bytes, more than --max-response-size; refusing it',
    );
    expect(err.requestId).toBe('id-9');
  });

  it("a body the interface's reader refused, the secrets masked", () => {
    const err = bodyError(new BadResponseError(`bad ${TOKEN}`), failed(), reading) as BadResponseError;
    expect(err.message).toBe('GET http://plants.test/plants → 200: bad ***');
  });

  it('a body that did not arrive in time, read timeout or deadline, with the attempts', () => {
    const late = bodyError(new ReadTimeoutError('late'), failed(false, 3), reading) as NetworkError;
    expect(late).toBeInstanceOf(NetworkError);
    expect(late.timeout).toBe(true);
    expect(late.message).toBe(
      `GET http://plants.test/plants failed: the response body did not arrive within ${DEADLINE} (after 3 attempts)`,
    );
    const aborted = bodyError(new Error('aborted'), failed(true), reading) as NetworkError;
    expect(aborted.message).toBe(
      `GET http://plants.test/plants failed: the response body did not arrive within ${DEADLINE}`,
    );
  });

  it.each(['ECONNRESET', 'UND_ERR_SOCKET'])('a connection closed before the body ended (%s)', (code) => {
    const err = bodyError(Object.assign(new Error('closed'), { code }), failed(), reading) as BadResponseError;
    expect(err.message).toBe(
      `GET http://plants.test/plants → 200: the response body was cut short (the connection was closed by plants.test before the body ended (${code}))`,
    );
  });

  it('any other failure, in the words of a network failure', () => {
    const err = bodyError(Object.assign(new Error('odd'), { code: 'EWEIRD' }), failed(false, 2), reading);
    expect((err as Error).message).toBe(
      'GET http://plants.test/plants → 200: the response body was cut short (odd (EWEIRD)) (after 2 attempts)',
    );
  });
});

describe('a compressed body at the edge of success', () => {
  it('a 300 is an error response: its compressed body reads as empty', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/a', method: 'GET' })
      .reply(300, 'zzz', { headers: { 'content-encoding': 'br' } });
    const client = http();
    expect((await client.readBody(await client.request(get('/a')))).length).toBe(0);
  });

  it('a 299 is a success: its compressed body is refused', async () => {
    agent
      .get(ORIGIN)
      .intercept({ path: '/a', method: 'GET' })
      .reply(299, 'zzz', { headers: { 'content-encoding': 'br' } });
    const client = http();
    await expect(client.readBody(await client.request(get('/a')))).rejects.toThrow(/the response is br-encoded/);
  });
});
