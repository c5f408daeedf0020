import fc from 'fast-check';
import { Readable } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { bodyChunks } from '../../src/http/body-chunks.js';

/** What happens to a stream, in order, with turns of the event loop between. */
type Step = { push: string } | { end: true } | { fail: string } | { destroy: true } | { turn: true };

/** A paused stream that the test feeds by hand. */
function fedStream(): Readable {
  return new Readable({ read() {}, highWaterMark: 4 });
}

/** Run `steps` against a stream while `consume` reads it; what the reader saw, in order. */
async function course(steps: Step[], consume: (stream: Readable, seen: string[]) => Promise<void>): Promise<string[]> {
  const stream = fedStream();
  // The test's own listener: an error before a reader listens (a late one), or a push after the end,
  // is the readers' to see, not an uncaught error of the test.
  stream.on('error', () => {});
  const seen: string[] = [];
  const reading = consume(stream, seen).catch((err: Error & { code?: string }) => {
    seen.push(`error ${err.code ?? err.message}`);
  });
  for (const step of steps) {
    if ('push' in step) stream.push(step.push);
    else if ('end' in step) stream.push(null);
    else if ('fail' in step) stream.destroy(new Error(step.fail));
    else if ('destroy' in step) stream.destroy();
    await turn();
  }
  // Whatever the steps left open, the reader finishes: the stream ends if nothing ended it.
  if (!stream.destroyed && !stream.readableEnded) stream.push(null);
  await reading;
  return seen;
}

const byNode = async (stream: Readable, seen: string[]) => {
  for await (const chunk of stream) seen.push(String(chunk));
  seen.push('end');
};

const byBodyChunks = async (stream: Readable, seen: string[]) => {
  const next = bodyChunks(stream);
  for (let chunk = await next(); chunk !== null; chunk = await next()) seen.push(String(chunk));
  seen.push('end');
};

/** As byBodyChunks, but the first read only after the steps: the stream may be over by then. */
const lateBodyChunks = (steps: number) => async (stream: Readable, seen: string[]) => {
  for (let i = 0; i <= steps; i += 1) await turn();
  await byBodyChunks(stream, seen);
};

const lateByNode = (steps: number) => async (stream: Readable, seen: string[]) => {
  for (let i = 0; i <= steps; i += 1) await turn();
  await byNode(stream, seen);
};

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 6 }).map((push) => ({ push })) },
  { weight: 1, arbitrary: fc.constant({ end: true as const }) },
  { weight: 1, arbitrary: fc.constantFrom('boom', 'reset').map((fail) => ({ fail })) },
  { weight: 1, arbitrary: fc.constant({ destroy: true as const }) },
  { weight: 2, arbitrary: fc.constant({ turn: true as const }) },
);

describe("bodyChunks (src/http/body-chunks.ts): a stream's chunks as node's own async iterator gives them", () => {
  it('sees the same chunks, end, error or premature close as node does, for any course of events', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        expect(await course(steps, byBodyChunks)).toEqual(await course(steps, byNode));
      }),
      { numRuns: 300 },
    );
  });

  it('and the same when it first reads only after the stream is over, or has failed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 8 }), async (steps) => {
        const late = steps.length + 2;
        expect(await course(steps, lateBodyChunks(late))).toEqual(await course(steps, lateByNode(late)));
      }),
      { numRuns: 200 },
    );
  });

  it('reads chunks in order, and null at the end; throws the error a stream fails with, and a premature close', async () => {
    expect(await course([{ push: 'a' }, { push: 'b' }, { end: true }], byBodyChunks)).toEqual(['a', 'b', 'end']);
    expect(await course([{ push: 'a' }, { turn: true }, { push: 'b' }, { end: true }], byBodyChunks)).toEqual([
      'a',
      'b',
      'end',
    ]);
    expect(await course([{ push: 'a' }, { fail: 'reset' }], byBodyChunks)).toEqual(['a', 'error reset']);
    expect(await course([{ destroy: true }], byBodyChunks)).toEqual(['error ERR_STREAM_PREMATURE_CLOSE']);
  });
});
