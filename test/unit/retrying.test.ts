import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failure, testClient } from '../helpers/client.js';
import { PlantStoreClient, type PlantStoreClientOptions } from '../../src/api/client.js';
import { ExitCode, HttpError, NetworkError } from '../../src/shared/errors.js';

// Retries as a user sees them: which requests are sent again, after which
// failures, how long it waits (in --debug), what the final error says, and
// what Ctrl-C (the signal) does to a wait.
const ORIGIN = 'http://plants.test';
const TOKEN = 'retrying-token-5';
let agent: MockAgent;
let debug: string[];

function client(options: Partial<PlantStoreClientOptions> = {}): PlantStoreClient {
  return testClient(ORIGIN, {
    token: TOKEN,
    dispatcher: agent,
    retries: 2,
    debug: (line) => debug.push(line),
    ...options,
  });
}

/** A client whose first wait before a retry is ended at once by `stop`, as Ctrl-C would end it. */
function stoppedWhenWaiting(stop: AbortController): PlantStoreClient {
  return client({
    debug: (line) => {
      debug.push(line);
      if (line.startsWith('retrying in')) stop.abort();
    },
  });
}

const pool = () => agent.get(ORIGIN);
const coded = (code: string, message: string) => Object.assign(new Error(message), { code });
const refused = () => coded('ECONNREFUSED', 'connect ECONNREFUSED');
const reset = () => coded('ECONNRESET', 'socket hang up');
const busy = (status = 503, headers: Record<string, string> = { 'retry-after': '0' }) =>
  [status, 'busy', { headers }] as const;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  debug = [];
});

afterEach(async () => {
  vi.restoreAllMocks();
  agent.assertNoPendingInterceptors();
  await agent.close();
  expect(debug.join('\n')).not.toContain(TOKEN);
});

describe('statuses', () => {
  it.each([408, 429, 500, 502, 503, 504])('%d is tried again, and the next answer stands', async (status) => {
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(...busy(status));
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, [{ name: 'Fern' }]);
    expect(await client().listPlants()).toEqual([{ name: 'Fern' }]);
  });

  it.each([400, 404, 409, 501])('%d is not tried again', async (status) => {
    pool().intercept({ path: '/plants', method: 'GET' }).reply(status, 'no');
    const err = await failure<HttpError>(client().listPlants());
    expect(err.status).toBe(status);
    expect(err.message).not.toContain('attempts');
  });

  it('--debug shows each attempt, its answer with headers, and the wait from Retry-After', async () => {
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(...busy());
    pool().intercept({ path: '/plants', method: 'GET' }).reply(200, []);
    await client().listPlants();
    expect(debug[0]).toBe('→ GET http://plants.test/plants');
    expect(debug).toContain('  authorization: Bearer ***');
    expect(debug).toContain('  user-agent: plants/test');
    const answer = debug.findIndex((line) => line.startsWith('← 503 Service Unavailable in '));
    expect(Number(/in (\d+) ms$/.exec(debug[answer]!)?.[1])).toBeLessThan(5_000);
    expect(debug[answer + 1]).toBe('  retry-after: 0');
    expect(debug).toContain('retrying in 0 ms after 503 Service Unavailable (attempt 2 of 3)');
    expect(debug).toContain('→ GET http://plants.test/plants (attempt 2)');
    expect(debug.some((line) => line.startsWith('← 200 OK in '))).toBe(true);
  });

  it('without Retry-After, waits a backoff of 250 to 500 ms before the second attempt', async () => {
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(...busy(503, {}));
    pool().intercept({ path: '/plants', method: 'GET' }).reply(200, []);
    await client().listPlants();
    const wait = debug.map((line) => /^retrying in (\d+) ms after 503/.exec(line)?.[1]).find(Boolean);
    expect(Number(wait)).toBeGreaterThanOrEqual(250);
    expect(Number(wait)).toBeLessThanOrEqual(500);
  });

  it('when retries run out, the last answer stands with the count of attempts', async () => {
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(...busy())
      .times(3);
    const err = await failure<HttpError>(client().listPlants());
    expect(err.message).toBe('GET http://plants.test/plants → 503 Service Unavailable: busy (after 3 attempts)');
    expect(debug.filter((line) => line.startsWith('retrying in'))).toHaveLength(2);
  });
});

describe('connection failures', () => {
  it('a refused connection is tried again, with the cause in --debug', async () => {
    pool().intercept({ path: '/plants', method: 'GET' }).replyWithError(refused());
    pool().intercept({ path: '/plants', method: 'GET' }).reply(200, []);
    expect(await client({ retries: 1 }).listPlants()).toEqual([]);
    const failed = debug.find((line) => line.startsWith('✗ '));
    expect(failed).toMatch(/^✗ connection refused by plants.test \(is the service running\?\) after \d+ ms$/);
    expect(Number(/after (\d+) ms/.exec(failed!)?.[1])).toBeLessThan(5_000);
    expect(debug.some((line) => /^retrying in \d+ ms after connection refused by plants.test/.test(line))).toBe(true);
  });

  it('says how many attempts were made when they all failed', async () => {
    pool().intercept({ path: '/plants', method: 'GET' }).replyWithError(refused()).times(2);
    const err = await failure<NetworkError>(client({ retries: 1 }).listPlants());
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(
      'GET http://plants.test/plants failed after 2 attempts: connection refused by plants.test (is the service running?)',
    );
    // Refused: never sent, so nothing can have been done.
    expect(err.responseLost).toBe(false);
  });

  it('a failure that is not transient is not tried again', async () => {
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .replyWithError(coded('CERT_HAS_EXPIRED', 'certificate has expired'));
    const err = await failure(client().listPlants());
    expect(err.message).toBe(
      'GET http://plants.test/plants failed: TLS error talking to plants.test: certificate has expired (CERT_HAS_EXPIRED)',
    );
    expect(debug.some((line) => line.startsWith('retrying'))).toBe(false);
  });

  it('a reset may have reached the service: its response counts as lost, even without retries', async () => {
    pool().intercept({ path: '/plants/1', method: 'DELETE' }).replyWithError(reset());
    const err = await failure<NetworkError>(client({ retries: 0 }).deletePlant('1'));
    expect(err.responseLost).toBe(true);
    expect(err.message).toBe(
      'DELETE http://plants.test/plants/1 failed: the connection was closed by plants.test before a response arrived (ECONNRESET)',
    );
  });

  it('a reset, then a refusal: the first may have been carried out', async () => {
    pool().intercept({ path: '/plants/1', method: 'DELETE' }).replyWithError(reset());
    pool().intercept({ path: '/plants/1', method: 'DELETE' }).replyWithError(refused());
    const err = await failure<NetworkError>(client({ retries: 1 }).deletePlant('1'));
    expect(err.responseLost).toBe(true);
    expect(err.message).toMatch(/failed after 2 attempts: connection refused/);
  });
});

describe('which connection failures are retried, and which may have reached the service', () => {
  it.each([
    'ECONNREFUSED',
    'ECONNRESET',
    'EPIPE',
    'ENOTFOUND',
    'EAI_AGAIN',
    'ETIMEDOUT',
    'ENETUNREACH',
    'EHOSTUNREACH',
    'UND_ERR_SOCKET',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
  ])('%s is transient: tried again', async (code) => {
    // The shortest backoff: 250 ms.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    pool().intercept({ path: '/plants', method: 'GET' }).replyWithError(coded(code, 'failed'));
    pool().intercept({ path: '/plants', method: 'GET' }).reply(200, []);
    expect(await client({ retries: 1 }).listPlants()).toEqual([]);
  });

  it.each([
    ['ECONNRESET', true],
    ['EPIPE', true],
    ['UND_ERR_SOCKET', true],
    ['UND_ERR_HEADERS_TIMEOUT', true],
    ['ECONNREFUSED', false],
    ['ENOTFOUND', false],
    ['EAI_AGAIN', false],
    ['ETIMEDOUT', false],
    ['ENETUNREACH', false],
    ['EHOSTUNREACH', false],
    ['UND_ERR_CONNECT_TIMEOUT', false],
  ])('%s: a DELETE that failed so may have been carried out: %s', async (code, lost) => {
    pool().intercept({ path: '/plants/1', method: 'DELETE' }).replyWithError(coded(code, 'failed'));
    const err = await failure<NetworkError>(client({ retries: 0 }).deletePlant('1'));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.responseLost).toBe(lost);
  });
});

describe('a DELETE whose earlier answer was lost', () => {
  // A 500 too: the service may have made the change and failed after it (committed, then crashed).
  it.each([500, 502, 504])('after a %d, a 404 means it is gone', async (status) => {
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(...busy(status));
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(404, { error: 404, message: 'none' }, { headers: { 'content-type': 'application/json' } });
    expect(await client().deletePlant('7')).toEqual({ status: 404, afterLostResponse: true, attempts: 2 });
    expect(debug).toContain('404 after a lost response or a 500: an earlier attempt most likely deleted it');
  });

  it('after a 502, a 410 Gone means it is gone, with no body too', async () => {
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(...busy(502));
    pool().intercept({ path: '/plants/7', method: 'DELETE' }).reply(410, '');
    expect(await client().deletePlant('7')).toEqual({ status: 410, afterLostResponse: true, attempts: 2 });
    expect(debug).toContain('410 after a lost response or a 500: an earlier attempt most likely deleted it');
  });

  it('after a lost answer, any other refusal still stands', async () => {
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(...busy(502));
    pool().intercept({ path: '/plants/7', method: 'DELETE' }).reply(409, 'locked');
    const err = await failure<HttpError>(client().deletePlant('7'));
    expect(err.message).toBe('DELETE http://plants.test/plants/7 → 409 Conflict: locked (after 2 attempts)');
    expect(err.responseLost).toBe(true);
  });

  it.each([502, 504])(
    'after a %d, a 404 without the Error object is no sign of the plant: a wrong address, and the first attempt stays unknown',
    async (status) => {
      pool()
        .intercept({ path: '/plants/7', method: 'DELETE' })
        .reply(...busy(status));
      pool()
        .intercept({ path: '/plants/7', method: 'DELETE' })
        .reply(404, '<html>Not Found</html>', { headers: { 'content-type': 'text/html' } });
      const err = await failure<HttpError>(client().deletePlant('7'));
      expect(err.code).toBe('http_error');
      expect(err.responseLost).toBe(true);
      // Counted as unknown (the first attempt may have deleted it), so not said to be counted as failed.
      expect(err.message).toMatch(/: not counted as a missing plant; check the base URL/);
      expect(debug).not.toContain('an earlier attempt deleted it');
    },
  );

  it.each([503, 429, 408])('after a %d (not acted on), a 404 is a 404', async (status) => {
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(...busy(status));
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(404, { error: 404, message: 'none' }, { headers: { 'content-type': 'application/json' } });
    const err = await failure<HttpError>(client().deletePlant('7'));
    expect(err.exitCode).toBe(ExitCode.notFound);
    expect(err.responseLost).toBe(false);
  });

  it('a GET 404 after a lost answer is still a failure', async () => {
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(...busy(502));
    pool().intercept({ path: '/plants', method: 'GET' }).reply(404, 'none');
    const err = await failure<HttpError>(client().listPlants());
    expect(err.status).toBe(404);
    expect(err.message).toMatch(/check the base URL/);
  });

  it('a 502 that stands is marked as a lost answer; a 500 is not', async () => {
    pool().intercept({ path: '/plants/7', method: 'DELETE' }).reply(502, 'bad gateway');
    pool().intercept({ path: '/plants/8', method: 'DELETE' }).reply(500, 'oops');
    expect((await failure<HttpError>(client({ retries: 0 }).deletePlant('7'))).responseLost).toBe(true);
    expect((await failure<HttpError>(client({ retries: 0 }).deletePlant('8'))).responseLost).toBe(false);
  });
});

describe('a Retry-After longer than plants waits', () => {
  it.each([
    ['31', 31],
    ['3600', 3600],
  ])('of %s s: no retry, and the error says what the service asked', async (header, seconds) => {
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(...busy(429, { 'retry-after': header }));
    const started = Date.now();
    const err = await failure<HttpError>(client().listPlants());
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err.message).toBe(
      `GET http://plants.test/plants → 429 Too Many Requests: busy (the service asks to be retried in ${seconds} s, later than plants waits: 30 s)`,
    );
    expect(debug).toContain(`not retrying: Retry-After asks for ${seconds} s, and plants waits at most 30 s`);
    expect(debug.some((line) => line.startsWith('retrying in'))).toBe(false);
  });

  it('of 30 s exactly: waited for', async () => {
    const stop = new AbortController();
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(...busy(503, { 'retry-after': '30' }));
    const stopping = stoppedWhenWaiting(stop);
    await failure<HttpError>(stopping.listPlants({ signal: stop.signal }));
    expect(debug).toContain('retrying in 30000 ms after 503 Service Unavailable (attempt 2 of 3)');
  });
});

describe('Ctrl-C during a wait', () => {
  it('ends the wait: no further attempt, and the last answer stands', async () => {
    const stop = new AbortController();
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(...busy(502, { 'retry-after': '30' }));
    const stopping = stoppedWhenWaiting(stop);
    const err = await failure<HttpError>(stopping.listPlants({ signal: stop.signal }));
    expect(err).toBeInstanceOf(HttpError);
    expect(err.message).toBe('GET http://plants.test/plants → 502 Bad Gateway: busy');
    expect(err.responseLost).toBe(true);
    expect(debug).toContain('retrying in 30000 ms after 502 Bad Gateway (attempt 2 of 3)');
    expect(debug).toContain('retry cancelled by Ctrl-C');
  });

  it('after a connection failure, the failure stands', async () => {
    const stop = new AbortController();
    pool().intercept({ path: '/plants', method: 'GET' }).replyWithError(reset());
    const stopping = stoppedWhenWaiting(stop);
    const err = await failure<NetworkError>(stopping.listPlants({ signal: stop.signal }));
    expect(err.message).toBe(
      'GET http://plants.test/plants failed: the connection was closed by plants.test before a response arrived (ECONNRESET)',
    );
    expect(err.responseLost).toBe(true);
    expect(debug).toContain('retry cancelled by Ctrl-C');
  });

  it('before the request: one attempt, no retry', async () => {
    const stop = new AbortController();
    stop.abort();
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(...busy());
    const err = await failure(client().listPlants({ signal: stop.signal }));
    expect(err.message).toBe('GET http://plants.test/plants → 503 Service Unavailable: busy');
  });
});
