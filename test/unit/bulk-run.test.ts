import { describe, expect, it } from 'vitest';
import type { DeleteResponse } from '../../src/api/client.js';
import { deleteMany, type SendDelete } from '../../src/deletion/bulk-run.js';
import {
  deletionOutcome,
  serviceAsksToWait,
  tokenRefused,
  wrongAddress,
  type DeleteOutcome,
} from '../../src/deletion/results.js';
import { AuthError, HttpError, NetworkError, NotTheServiceError, type CliError } from '../../src/shared/errors.js';

// The bulk run as a pool over send(id): what it sends, in what order, how many at once, and when it stops.

/** A send whose answers the test gives, one id at a time, in any order. */
function controlled() {
  const waiting = new Map<string, { answer: (response: DeleteResponse) => void; fail: (err: Error) => void }>();
  const sent: { id: string; requestId: string; signal: AbortSignal }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const send: SendDelete = (id, { requestId, signal }) => {
    sent.push({ id, requestId, signal });
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    return new Promise<DeleteResponse>((resolve, reject) => {
      const settle = () => (inFlight -= 1);
      waiting.set(id, {
        answer: (response) => (settle(), resolve(response)),
        fail: (err) => (settle(), reject(err)),
      });
    });
  };
  /** Lets the pool take its next step (a few microtasks). */
  const tick = async () => {
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
  };
  const answer = async (id: string, status = 204) => {
    waiting.get(id)!.answer({ status, afterLostResponse: false, attempts: 1 });
    await tick();
  };
  const fail = async (id: string, err: Error) => {
    waiting.get(id)!.fail(err);
    await tick();
  };
  return { send, sent, answer, fail, tick, inFlight: () => inFlight, mostInFlight: () => mostInFlight };
}

const kinds = (outcomes: DeleteOutcome[]) => outcomes.map((o) => `${o.result.id}:${o.result.result}`);

describe('deleteMany: the pool', () => {
  it('sends at most `concurrency` at once, the next id as each settles, results in input order', async () => {
    const c = controlled();
    const signal = new AbortController().signal;
    const run = deleteMany(['a', 'b', 'c', 'd'], { send: c.send, concurrency: 2, signal });
    await c.tick();
    expect(c.sent.map((s) => s.id)).toEqual(['a', 'b']);
    await c.answer('b');
    expect(c.sent.map((s) => s.id)).toEqual(['a', 'b', 'c']);
    await c.answer('c');
    await c.answer('d');
    expect(c.inFlight()).toBe(1);
    await c.answer('a', 200);
    const outcomes = await run.done;
    expect(kinds(outcomes)).toEqual(['a:deleted', 'b:deleted', 'c:deleted', 'd:deleted']);
    expect(outcomes.map((o) => o.result.status)).toEqual([200, 204, 204, 204]);
    expect(c.mostInFlight()).toBe(2);
  });

  it("gives each request its own request id, the one its result names, and the run's signal", async () => {
    const c = controlled();
    const signal = new AbortController().signal;
    const run = deleteMany(['a', 'b'], { send: c.send, concurrency: 2, signal });
    await c.tick();
    await c.answer('a');
    await c.answer('b');
    const outcomes = await run.done;
    const ids = c.sent.map((s) => s.requestId);
    expect(new Set(ids).size).toBe(2);
    expect(ids.every((id) => /^[0-9a-f-]{36}$/.test(id))).toBe(true);
    expect(outcomes.map((o) => o.result.request_id)).toEqual(ids);
    expect(c.sent.every((s) => s.signal === signal)).toBe(true);
  });

  it('starts no more workers than there are ids, and none for no ids', async () => {
    const c = controlled();
    const run = deleteMany(['a'], { send: c.send, concurrency: 8, signal: new AbortController().signal });
    await c.tick();
    expect(c.sent).toHaveLength(1);
    await c.answer('a');
    expect(kinds(await run.done)).toEqual(['a:deleted']);
    const empty = deleteMany([], { send: c.send, concurrency: 8, signal: new AbortController().signal });
    expect(await empty.done).toEqual([]);
    expect(empty.snapshot()).toEqual([]);
    expect(empty.recordingFailure()).toBeUndefined();
  });

  it('sends nothing when stopped before it starts: every id skipped', async () => {
    const c = controlled();
    const stop = new AbortController();
    stop.abort();
    const run = deleteMany(['a', 'b'], { send: c.send, concurrency: 2, signal: stop.signal });
    const outcomes = await run.done;
    expect(c.sent).toEqual([]);
    expect(outcomes.map((o) => o.result)).toEqual([
      { id: 'a', result: 'skipped', status: null, request_id: null },
      { id: 'b', result: 'skipped', status: null, request_id: null },
    ]);
  });

  it('after a stop, lets those in flight finish and starts nothing new; the snapshot shows them unknown meanwhile', async () => {
    const c = controlled();
    const stop = new AbortController();
    const run = deleteMany(['a', 'b', 'c'], { send: c.send, concurrency: 2, signal: stop.signal });
    await c.tick();
    stop.abort();
    const snapshot = run.snapshot();
    expect(snapshot.map((o) => o.result)).toEqual([
      {
        id: 'a',
        result: 'unknown',
        status: null,
        request_id: c.sent[0]!.requestId,
        error: { error: null, message: 'stopped before the service answered; the plant may have been deleted' },
      },
      {
        id: 'b',
        result: 'unknown',
        status: null,
        request_id: c.sent[1]!.requestId,
        error: { error: null, message: 'stopped before the service answered; the plant may have been deleted' },
      },
      { id: 'c', result: 'skipped', status: null, request_id: null },
    ]);
    await c.answer('a');
    expect(kinds(run.snapshot())).toEqual(['a:deleted', 'b:unknown', 'c:skipped']);
    await c.answer('b');
    expect(kinds(await run.done)).toEqual(['a:deleted', 'b:deleted', 'c:skipped']);
    expect(c.sent.map((s) => s.id)).toEqual(['a', 'b']);
  });

  it.each([
    ['a refused token', new HttpError('401', 401, { error: 401, message: 'no' })],
    ['a wrong address', new HttpError('404', 404, { error: null, message: 'not here' })],
    ['a web page', new NotTheServiceError('HTML')],
    ['a 429', new HttpError('429', 429, { error: null, message: 'slow' })],
    [
      'a 503 with Retry-After',
      Object.assign(new HttpError('503', 503, { error: null, message: 'x' }), { retryAfterMs: 0 }),
    ],
  ])('sends no more after %s: the rest are skipped, those in flight finish', async (_, error) => {
    const c = controlled();
    const run = deleteMany(['a', 'b', 'c'], { send: c.send, concurrency: 2, signal: new AbortController().signal });
    await c.tick();
    await c.fail('a', error);
    await c.answer('b');
    expect(c.sent.map((s) => s.id)).toEqual(['a', 'b']);
    expect(kinds(await run.done)).toEqual(['a:failed', 'b:deleted', 'c:skipped']);
  });

  it.each([
    ['a 403 (that plant refused)', new HttpError('403', 403, { error: 403, message: 'no' })],
    ['a 500', new HttpError('500', 500, { error: null, message: 'x' })],
    ['a 503 without Retry-After', new HttpError('503', 503, { error: null, message: 'x' })],
    ['a network failure', new NetworkError('reset')],
  ])('goes on after %s', async (_, error) => {
    const c = controlled();
    const run = deleteMany(['a', 'b'], { send: c.send, concurrency: 1, signal: new AbortController().signal });
    await c.tick();
    await c.fail('a', error);
    await c.answer('b');
    expect(kinds(await run.done)).toEqual(['a:failed', 'b:deleted']);
  });
});

describe('deletionOutcome: what one DELETE came to', () => {
  const outcomeOf = (send: () => Promise<DeleteResponse>) => deletionOutcome('7', 'req-7', send);

  it('a 2xx is deleted, with its attempts; a 404 or 410 after a lost answer is gone', async () => {
    expect(await outcomeOf(() => Promise.resolve({ status: 204, afterLostResponse: false, attempts: 3 }))).toEqual({
      result: { id: '7', result: 'deleted', status: 204, request_id: 'req-7' },
      attempts: 3,
    });
    for (const status of [404, 410]) {
      const { result } = await outcomeOf(() => Promise.resolve({ status, afterLostResponse: true, attempts: 2 }));
      expect(result.result).toBe('gone');
    }
    const { result } = await outcomeOf(() => Promise.resolve({ status: 200, afterLostResponse: true, attempts: 2 }));
    expect(result.result).toBe('deleted');
  });

  it("a 403 says the service refused that plant, in the service's words", async () => {
    const error = new HttpError('DELETE → 403', 403, { error: 403, message: 'locked' });
    error.attempts = 1;
    const outcome = await outcomeOf(() => Promise.reject(error));
    expect(outcome.result).toEqual({
      id: '7',
      result: 'failed',
      status: 403,
      request_id: 'req-7',
      error: { error: 403, message: 'locked' },
    });
    expect(outcome.error!.message).toBe('the service refused to delete plant 7 (403 Forbidden): locked');
    expect(outcome.attempts).toBe(1);
  });

  it('a 404 with the Error object is not_found; without it, failed', async () => {
    const missing = await outcomeOf(() =>
      Promise.reject(new HttpError('404', 404, { error: 404, message: 'no such plant' }, true)),
    );
    expect(missing.result.result).toBe('not_found');
    const wrong = await outcomeOf(() => Promise.reject(new HttpError('404', 404, { error: null, message: 'x' })));
    expect(wrong.result.result).toBe('failed');
    expect(wrong.attempts).toBeUndefined();
  });

  it("an error that is not the service's is failed, its message the result's", async () => {
    const outcome = await outcomeOf(() => Promise.reject(new NetworkError('connection refused')));
    expect(outcome.result).toEqual({
      id: '7',
      result: 'failed',
      status: null,
      request_id: 'req-7',
      error: { error: null, message: 'connection refused' },
    });
  });

  it('rethrows what is no request failure (a programming error)', async () => {
    await expect(outcomeOf(() => Promise.reject(new TypeError('bug')))).rejects.toThrow(TypeError);
  });
});

describe('the answers that stop a run', () => {
  const outcome = (error?: CliError): DeleteOutcome => ({
    result: { id: '1', result: 'failed', status: error?.status ?? null, request_id: 'r' },
    error,
  });

  it('tokenRefused: a 401, not a 403 nor an auth error without a status', () => {
    expect(tokenRefused(outcome(new HttpError('401', 401, { error: null, message: '' })))).toBe(true);
    expect(tokenRefused(outcome(new HttpError('403', 403, { error: null, message: '' })))).toBe(false);
    expect(tokenRefused(outcome(new AuthError('no token')))).toBe(false);
    expect(tokenRefused(outcome(new HttpError('500', 500, { error: null, message: '' })))).toBe(false);
    expect(tokenRefused(outcome())).toBe(false);
  });

  it('wrongAddress: a 404 without the Error object, or a web page; not a plant that is missing', () => {
    expect(wrongAddress(outcome(new HttpError('404', 404, { error: null, message: '' })))).toBe(true);
    expect(wrongAddress(outcome(new NotTheServiceError('HTML')))).toBe(true);
    expect(wrongAddress(outcome(new HttpError('404', 404, { error: 404, message: '' }, true)))).toBe(false);
    expect(wrongAddress(outcome(new HttpError('410', 410, { error: null, message: '' })))).toBe(false);
    expect(wrongAddress(outcome(new NetworkError('x')))).toBe(false);
    expect(wrongAddress(outcome())).toBe(false);
  });

  it('serviceAsksToWait: a 429 with or without Retry-After, a 503 only with it', () => {
    const withWait = (status: number, retryAfterMs?: number) =>
      outcome(Object.assign(new HttpError(`${status}`, status, { error: null, message: '' }), { retryAfterMs }));
    expect(serviceAsksToWait(withWait(429))).toBe(true);
    expect(serviceAsksToWait(withWait(429, 1000))).toBe(true);
    expect(serviceAsksToWait(withWait(503, 0))).toBe(true);
    expect(serviceAsksToWait(withWait(503))).toBe(false);
    expect(serviceAsksToWait(withWait(500, 1000))).toBe(false);
    expect(serviceAsksToWait(outcome(new NetworkError('x')))).toBe(false);
  });
});
