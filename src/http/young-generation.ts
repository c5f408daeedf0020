/**
 * A bound on V8's young generation while a large body streams through.
 *
 * From Node 24, V8 grows its young generation with the allocation rate, as
 * far as the heap limit allows (up to 64 MB a semi-space on a machine with
 * memory to spare; Node 22 stops at 16 MB). A list of hundreds of MB
 * allocates fast, though little of it lives: the process would peak well
 * above the memory a streamed list is meant to take. Once the young
 * generation has reached Node 22's size, growing it further is turned off
 * (--semi-space-growth-factor=1), and back on when the body ends.
 *
 * The flag is restored because V8 rejects code cache data made under other
 * flags (src/startup/code-cache.ts saves it at exit). Left alone when NODE_OPTIONS
 * or node's own arguments mention the young generation.
 */

/** Node 22's largest young generation: two semi-spaces of 16 MB. */
const BOUND = 32 * 1024 * 1024;
/** Looked at after this much body, then again after as much more: small bodies never load node:v8. */
const EVERY = 4 * 1024 * 1024;
const DEFAULT_GROWTH = '--semi-space-growth-factor=2';

function chosenByUser(): boolean {
  return /semi[-_]space/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`);
}

/** Pass `body` through unchanged, bounding the young generation while it flows. */
export async function* boundYoungGeneration(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let bytes = 0;
  let next = EVERY;
  let bounded = false;
  let v8: typeof import('node:v8') | undefined;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (!bounded && bytes >= next) {
        next += EVERY;
        if (chosenByUser()) next = Infinity;
        else {
          v8 ??= process.getBuiltinModule('node:v8');
          const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
          if (young && young.space_size >= BOUND) {
            v8.setFlagsFromString('--semi-space-growth-factor=1');
            bounded = true;
          }
        }
      }
      yield chunk;
    }
  } finally {
    if (bounded) v8?.setFlagsFromString(DEFAULT_GROWTH);
  }
}
