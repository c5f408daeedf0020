import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { PlantStoreClient } from '../../src/api/client.js';
import { deleteMany, type DeletionRecorder, type SendDelete } from '../../src/deletion/bulk-run.js';
import { HttpError, NetworkError } from '../../src/shared/errors.js';
import { parseBaseUrl } from '../../src/shared/url.js';
import { withoutRequestIds } from '../helpers/results.js';

// What a bulk delete reports per id (the `--json` array): the result kind,
// the status, what went wrong, in input order; and which requests it sends
// at all (concurrency, after a refused token, after Ctrl-C).
type Answer = { status: number; afterLostResponse: boolean } | Error;

function lost<E extends Error & { responseLost: boolean }>(err: E): E {
  err.responseLost = true;
  return err;
}

/** A client whose DELETEs answer as scripted, recording what was asked and what was in flight at once. */
function scripted(answers: Record<string, Answer>, log: string[] = []) {
  const sent: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const client = {
    async deletePlant(id: string): Promise<{ status: number; afterLostResponse: boolean }> {
      sent.push(id);
      log.push(`send ${id}`);
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await Promise.resolve();
      inFlight -= 1;
      const answer = answers[id] ?? { status: 204, afterLostResponse: false };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as PlantStoreClient;
  return { client, sent, mostInFlight: () => mostInFlight };
}

/** The client's DELETE, as deleteMany takes it. */
const sendOf =
  (client: PlantStoreClient): SendDelete =>
  (id, request) =>
    client.deletePlant(id, request);

const run = (client: PlantStoreClient, ids: string[], concurrency = 2, signal = new AbortController().signal) =>
  deleteMany(ids, { send: sendOf(client), concurrency, signal });

describe('deleteMany results', () => {
  it('says per id what happened, in input order', async () => {
    const { client } = scripted({
      gone: { status: 404, afterLostResponse: true },
      ok200: { status: 200, afterLostResponse: false },
      missing: new HttpError('DELETE … → 404', 404, { error: 404, message: 'no plant' }, true),
      broken: new HttpError('DELETE … → 500', 500, { error: null, message: 'oops' }),
      refused: new NetworkError('DELETE … failed: connection refused'),
    });
    const outcomes = await run(client, ['ok204', 'gone', 'ok200', 'missing', 'broken', 'refused']).done;
    expect(withoutRequestIds(outcomes.map((outcome) => outcome.result))).toEqual([
      { id: 'ok204', result: 'deleted', status: 204 },
      { id: 'gone', result: 'gone', status: 404 },
      { id: 'ok200', result: 'deleted', status: 200 },
      { id: 'missing', result: 'not_found', status: 404, error: { error: 404, message: 'no plant' } },
      { id: 'broken', result: 'failed', status: 500, error: { error: null, message: 'oops' } },
      {
        id: 'refused',
        result: 'failed',
        status: null,
        error: { error: null, message: 'DELETE … failed: connection refused' },
      },
    ]);
    expect(outcomes[3]!.error).toBeInstanceOf(HttpError);
    expect(outcomes[0]!.error).toBeUndefined();
  });

  it('a 404 without a lost response before it is no "gone"; a 2xx after a lost response is "deleted"', async () => {
    const { client } = scripted({ a: { status: 204, afterLostResponse: true } });
    const [a] = await run(client, ['a']).done;
    expect(withoutRequestIds(a!.result)).toEqual({ id: 'a', result: 'deleted', status: 204 });
  });

  it('a 410 Gone after a lost response is "gone", as a 404 is', async () => {
    const { client } = scripted({ a: { status: 410, afterLostResponse: true } });
    const [a] = await run(client, ['a']).done;
    expect(withoutRequestIds(a!.result)).toEqual({ id: 'a', result: 'gone', status: 410 });
    expect(a!.error).toBeUndefined();
  });

  it('a lost answer is "unknown": the plant may have been deleted, in the message and the error', async () => {
    const { client } = scripted({
      reset: lost(new NetworkError('DELETE x failed: reset')),
      gateway: lost(new HttpError('DELETE y → 502', 502, { error: 7, message: 'bad gateway' })),
    });
    const [reset, gateway] = await run(client, ['reset', 'gateway']).done;
    expect(withoutRequestIds(reset!.result)).toEqual({
      id: 'reset',
      result: 'unknown',
      status: null,
      error: { error: null, message: 'DELETE x failed: reset; the plant may have been deleted' },
    });
    expect(reset!.error?.message).toBe('DELETE x failed: reset; the plant may have been deleted');
    expect(withoutRequestIds(gateway!.result)).toEqual({
      id: 'gateway',
      result: 'unknown',
      status: 502,
      error: { error: 7, message: 'bad gateway; the plant may have been deleted' },
    });
    expect(gateway!.error?.message).toBe('DELETE y → 502; the plant may have been deleted');
  });

  it('a programming error is not reported as a failed delete', async () => {
    const { client } = scripted({ a: new TypeError('a bug') });
    await expect(run(client, ['a']).done).rejects.toThrow('a bug');
  });
});

describe('deleteMany requests', () => {
  it('keeps at most `concurrency` requests in flight, and reports each settled one', async () => {
    const { client, sent, mostInFlight } = scripted({});
    const settled: number[] = [];
    const ids = ['1', '2', '3', '4', '5'];
    await deleteMany(ids, {
      send: sendOf(client),
      concurrency: 2,
      signal: new AbortController().signal,
      onSettled: (n) => settled.push(n),
    }).done;
    expect(sent).toEqual(ids);
    expect(mostInFlight()).toBe(2);
    expect(settled).toEqual([1, 2, 3, 4, 5]);
  });

  it('with one at a time, never more than one in flight', async () => {
    const { client, mostInFlight } = scripted({});
    await run(client, ['1', '2', '3'], 1).done;
    expect(mostInFlight()).toBe(1);
  });

  it('after a refused token, sends no more and marks the rest skipped', async () => {
    const { client, sent } = scripted({
      '2': new HttpError('DELETE … → 401', 401, { error: 401, message: 'bad token' }),
    });
    const outcomes = await run(client, ['1', '2', '3', '4'], 1).done;
    expect(sent).toEqual(['1', '2']);
    expect(outcomes.map((outcome) => outcome.result.result)).toEqual(['deleted', 'failed', 'skipped', 'skipped']);
    expect(withoutRequestIds(outcomes[3]!.result)).toEqual({ id: '4', result: 'skipped', status: null });
  });

  it('a 404 does not stop the others', async () => {
    const { client, sent } = scripted({
      '1': new HttpError('DELETE … → 404', 404, { error: 404, message: 'none' }, true),
    });
    await run(client, ['1', '2'], 1).done;
    expect(sent).toEqual(['1', '2']);
  });

  it('after Ctrl-C, starts nothing new; requests in flight show as unknown until they settle', async () => {
    const stop = new AbortController();
    const { client, sent } = scripted({});
    const bulk = deleteMany(['1', '2', '3'], {
      send: sendOf(client),
      concurrency: 1,
      signal: stop.signal,
      onSettled: (n) => {
        if (n === 1) stop.abort();
      },
    });
    const during = bulk.snapshot();
    expect(withoutRequestIds(during.map((outcome) => outcome.result))).toEqual([
      {
        id: '1',
        result: 'unknown',
        status: null,
        error: { error: null, message: 'stopped before the service answered; the plant may have been deleted' },
      },
      { id: '2', result: 'skipped', status: null },
      { id: '3', result: 'skipped', status: null },
    ]);
    const outcomes = await bulk.done;
    expect(sent).toEqual(['1']);
    expect(outcomes.map((outcome) => outcome.result.result)).toEqual(['deleted', 'skipped', 'skipped']);
    expect(bulk.snapshot()).toEqual(outcomes);
  });

  it('nothing to delete: no requests', async () => {
    const { client, sent } = scripted({});
    expect(await run(client, []).done).toEqual([]);
    expect(sent).toEqual([]);
  });
});

describe('deleteMany with the real client', () => {
  it('Ctrl-C also ends the retry wait of a request in flight, whose last answer then stands', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('http://plants.test')
      .intercept({ path: '/plants/1', method: 'DELETE' })
      .reply(503, 'busy', { headers: { 'retry-after': '30' } });
    const stop = new AbortController();
    const client = new PlantStoreClient({
      baseUrl: parseBaseUrl('http://plants.test', 'test'),
      token: 'delete-many-token-2',
      dispatcher: agent,
      userAgent: 'plants/test',
      timeoutMs: 5_000,
      retries: 3,
      maxResponseBytes: 1024,
      debug: (line) => {
        if (line.startsWith('retrying in')) stop.abort();
      },
    });
    const [outcome] = await deleteMany(['1', '2'], { send: sendOf(client), concurrency: 1, signal: stop.signal }).done;
    expect(withoutRequestIds(outcome!.result)).toEqual({
      id: '1',
      result: 'failed',
      status: 503,
      error: { error: null, message: 'busy' },
    });
    agent.assertNoPendingInterceptors();
    await agent.close();
  });
});

describe('deleteMany with a recorder (the deletion journal)', () => {
  const recording = (failAt: { intent?: number; outcome?: number }) => {
    const events: string[] = [];
    const recorder = {
      intent(index: number, requestId: string) {
        if (index === failAt.intent) throw new Error('disk full');
        events.push(`intent ${index} ${requestId}`);
      },
      outcome(index: number, outcome: { result: { result: string; request_id: string | null } }) {
        if (index === failAt.outcome) throw new Error('disk full');
        events.push(`outcome ${index} ${outcome.result.result} ${outcome.result.request_id}`);
      },
    };
    return { recorder, events };
  };

  it('records each intent before its request and its outcome after, with the same request id', async () => {
    const { client, sent } = scripted({});
    const { recorder, events } = recording({});
    const bulk = deleteMany(['a', 'b'], {
      send: sendOf(client),
      concurrency: 1,
      signal: new AbortController().signal,
      recorder,
    });
    const outcomes = await bulk.done;
    expect(sent).toEqual(['a', 'b']);
    const [a, b] = outcomes.map((outcome) => outcome.result.request_id);
    expect(events).toEqual([`intent 0 ${a}`, `outcome 0 deleted ${a}`, `intent 1 ${b}`, `outcome 1 deleted ${b}`]);
    expect(bulk.recordingFailure()).toBeUndefined();
  });

  /** a, b, c, d one at a time, with a recorder that fails when c is to be recorded: a and b go, c and d never do. */
  const stoppedBeforeC = async (recorder: DeletionRecorder) => {
    const { client, sent } = scripted({});
    const bulk = deleteMany(['a', 'b', 'c', 'd'], {
      send: sendOf(client),
      concurrency: 1,
      signal: new AbortController().signal,
      recorder,
    });
    const outcomes = await bulk.done;
    expect(sent).toEqual(['a', 'b']);
    expect(outcomes.map((outcome) => [outcome.result.result, outcome.result.request_id === null])).toEqual([
      ['deleted', false],
      ['deleted', false],
      ['skipped', true],
      ['skipped', true],
    ]);
    expect((bulk.recordingFailure() as Error).message).toBe('disk full');
    expect(bulk.snapshot()).toEqual(outcomes);
  };

  it('an intent that cannot be recorded is not sent, nor is anything after it', async () => {
    await stoppedBeforeC(recording({ intent: 2 }).recorder);
  });

  it.each([1, 2])('a first intent that cannot be recorded is not sent (%i at a time)', async (concurrency) => {
    const { client, sent } = scripted({});
    const recorder = {
      intent() {
        throw new Error('disk full');
      },
      outcome() {},
    };
    const bulk = deleteMany(['a', 'b', 'c'], {
      send: sendOf(client),
      concurrency,
      signal: new AbortController().signal,
      recorder,
    });
    expect((await bulk.done).map((outcome) => outcome.result.result)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(sent).toEqual([]);
    expect((bulk.recordingFailure() as Error).message).toBe('disk full');
  });

  it('the first recording failure is the one the run reports', async () => {
    const { client, sent } = scripted({});
    const recorder = {
      intent() {},
      outcome() {
        throw new Error('second');
      },
      outcomeThenIntent() {
        throw new Error('first');
      },
    };
    const bulk = deleteMany(['a', 'b', 'c', 'd'], {
      send: sendOf(client),
      concurrency: 2,
      signal: new AbortController().signal,
      recorder,
    });
    await bulk.done;
    // a's outcome with c's intent failed first; b's outcome, alone after it, failed too.
    expect(sent).toEqual(['a', 'b']);
    expect((bulk.recordingFailure() as Error).message).toBe('first');
  });

  /** A recorder that records an outcome and the next intent as one record, as the journal does (one write). */
  const recordingTogether = (failAt?: number) => {
    const { recorder, events } = recording({});
    const together = {
      ...recorder,
      outcomeThenIntent(
        index: number,
        outcome: { result: { result: string; request_id: string | null } },
        nextIndex: number,
        requestId: string,
      ) {
        if (index === failAt) throw new Error('disk full');
        events.push(
          `outcome ${index} ${outcome.result.result} ${outcome.result.request_id} + intent ${nextIndex} ${requestId}`,
        );
      },
    };
    return { recorder: together, events };
  };

  it("with a recorder that can, each outcome and the next request's intent are one record", async () => {
    const { recorder, events } = recordingTogether();
    const { client, sent } = scripted({}, events);
    const bulk = deleteMany(['a', 'b', 'c'], {
      send: sendOf(client),
      concurrency: 1,
      signal: new AbortController().signal,
      recorder,
    });
    const outcomes = await bulk.done;
    expect(sent).toEqual(['a', 'b', 'c']);
    const [a, b, c] = outcomes.map((outcome) => outcome.result.request_id);
    expect(events).toEqual([
      `intent 0 ${a}`,
      'send a',
      `outcome 0 deleted ${a} + intent 1 ${b}`,
      'send b',
      `outcome 1 deleted ${b} + intent 2 ${c}`,
      'send c',
      `outcome 2 deleted ${c}`,
    ]);
    expect(bulk.recordingFailure()).toBeUndefined();
  });

  it('a last outcome, or one after which nothing may be sent, is a record of its own', async () => {
    const { client, sent } = scripted({
      '2': new HttpError('DELETE … → 401', 401, { error: 401, message: 'bad token' }),
    });
    const { recorder, events } = recordingTogether();
    const bulk = deleteMany(['1', '2', '3'], {
      send: sendOf(client),
      concurrency: 1,
      signal: new AbortController().signal,
      recorder,
    });
    const outcomes = await bulk.done;
    expect(sent).toEqual(['1', '2']);
    const [one, two] = outcomes.map((outcome) => outcome.result.request_id);
    expect(events).toEqual([
      `intent 0 ${one}`,
      `outcome 0 deleted ${one} + intent 1 ${two}`,
      `outcome 1 failed ${two}`,
    ]);
  });

  it('an outcome and intent that cannot be recorded: the next is not sent (it stays skipped), nor anything after', async () => {
    // b's outcome with c's intent fails.
    const { recorder, events } = recordingTogether(1);
    await stoppedBeforeC(recorder);
    expect(events).toHaveLength(2);
  });

  it('a request in flight when recording failed still gets its outcome on record, alone', async () => {
    const { client, sent } = scripted({});
    const { recorder, events } = recordingTogether(0);
    const bulk = deleteMany(['a', 'b', 'c', 'd'], {
      send: sendOf(client),
      concurrency: 2,
      signal: new AbortController().signal,
      recorder,
    });
    const outcomes = await bulk.done;
    expect(sent).toEqual(['a', 'b']);
    const [a, b] = outcomes.map((outcome) => outcome.result.request_id);
    // a's outcome with c's intent failed; b, in flight then, settled after it.
    expect(events).toEqual([`intent 0 ${a}`, `intent 1 ${b}`, `outcome 1 deleted ${b}`]);
    expect(outcomes.map((outcome) => outcome.result.result)).toEqual(['deleted', 'deleted', 'skipped', 'skipped']);
  });

  it('a progress display that throws ends the run, with the outcome of what settled on record first', async () => {
    const { recorder, events } = recordingTogether();
    const { client } = scripted({}, events);
    const bulk = deleteMany(['a', 'b'], {
      send: sendOf(client),
      concurrency: 1,
      signal: new AbortController().signal,
      recorder,
      onSettled: () => {
        throw new Error('display broke');
      },
    });
    await expect(bulk.done).rejects.toThrow('display broke');
    const a = events[0]!.split(' ')[2];
    expect(events).toEqual([`intent 0 ${a}`, 'send a', `outcome 0 deleted ${a}`]);
  });

  it('an outcome that cannot be recorded stops the run after it', async () => {
    const { client, sent } = scripted({});
    const { recorder } = recording({ outcome: 0 });
    const bulk = deleteMany(['a', 'b', 'c'], {
      send: sendOf(client),
      concurrency: 1,
      signal: new AbortController().signal,
      recorder,
    });
    await bulk.done;
    expect(sent).toEqual(['a']);
    expect(bulk.recordingFailure()).toBeInstanceOf(Error);
  });
});
