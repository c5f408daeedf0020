import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundYoungGeneration } from '../../src/http/young-generation.js';

const MB = 1024 * 1024;

/** A body of `count` chunks of `size` bytes. */
// eslint-disable-next-line @typescript-eslint/require-await -- async on purpose: the code under test reads an async iterable.
async function* body(count: number, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < count; i += 1) yield Buffer.alloc(size, i % 256);
}

/** A stand-in node:v8 whose young generation is `youngMb` MB; records the flags set. */
function fakeV8(youngMb: number) {
  const flags: string[] = [];
  const v8 = {
    getHeapSpaceStatistics: () => [{ space_name: 'new_space', space_size: youngMb * MB }],
    setFlagsFromString: (flag: string) => flags.push(flag),
  };
  const real = process.getBuiltinModule.bind(process);
  vi.spyOn(process, 'getBuiltinModule').mockImplementation((id: string) => (id === 'node:v8' ? v8 : real(id)));
  return flags;
}

async function drain(chunks: AsyncIterable<Buffer>): Promise<number> {
  let bytes = 0;
  for await (const chunk of chunks) bytes += chunk.length;
  return bytes;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('boundYoungGeneration', () => {
  it('passes the body through unchanged', async () => {
    const seen: Buffer[] = [];
    for await (const chunk of boundYoungGeneration(body(3, 10))) seen.push(chunk);
    expect(seen).toEqual([Buffer.alloc(10, 0), Buffer.alloc(10, 1), Buffer.alloc(10, 2)]);
  });

  it('leaves a small body to V8 as it is', async () => {
    const flags = fakeV8(64);
    expect(await drain(boundYoungGeneration(body(3, MB)))).toBe(3 * MB);
    expect(flags).toEqual([]);
  });

  it("stops the young generation growing past Node 22's size during a large body, and restores the flag after", async () => {
    const flags = fakeV8(32);
    expect(await drain(boundYoungGeneration(body(40, MB)))).toBe(40 * MB);
    expect(flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
  });

  it('restores the flag when the reader stops early', async () => {
    const flags = fakeV8(32);
    for await (const chunk of boundYoungGeneration(body(40, MB))) {
      if (chunk[0] === 10) break;
    }
    expect(flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
  });

  it('does nothing while the young generation is smaller', async () => {
    const flags = fakeV8(16);
    await drain(boundYoungGeneration(body(40, MB)));
    expect(flags).toEqual([]);
  });

  it('leaves the young generation alone when NODE_OPTIONS sizes it', async () => {
    vi.stubEnv('NODE_OPTIONS', '--max-semi-space-size=64');
    const flags = fakeV8(64);
    await drain(boundYoungGeneration(body(40, MB)));
    expect(flags).toEqual([]);
  });
});
