import { afterEach, describe, expect, it, vi } from 'vitest';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A fresh copy of the module (its pool starts empty), with node:fs as `fs` makes it. */
async function load(fs?: Record<string, unknown>) {
  vi.resetModules();
  if (fs) vi.doMock('node:fs', async (original) => ({ ...(await original<object>()), ...fs }));
  return import('../../src/shared/random.js');
}

afterEach(() => {
  vi.doUnmock('node:fs');
  vi.restoreAllMocks();
});

describe('randomUUID', () => {
  it('writes version 4 UUIDs as crypto.randomUUID does, none twice, across many refills of the pool', async () => {
    const { randomUUID } = await load();
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i += 1) {
      const id = randomUUID();
      expect(id).toMatch(UUID);
      seen.add(id);
    }
    expect(seen.size).toBe(20_000);
    expect(globalThis.crypto.randomUUID()).toMatch(UUID);
  });

  it('sets every variable bit both ways: the bytes are not constant anywhere', async () => {
    const { randomUUID } = await load();
    const ids = Array.from({ length: 2000 }, () => randomUUID().replaceAll('-', ''));
    for (let at = 0; at < 32; at += 1) {
      if (at === 12) continue; // the version digit
      const digits = new Set(ids.map((id) => id[at]));
      expect(digits.size, `hex digit ${at}`).toBeGreaterThan(at === 16 ? 3 : 12);
    }
  });
});

describe('randomBytes', () => {
  it('gives the size asked, from 0 to the pool, and refuses other sizes', async () => {
    const { randomBytes } = await load();
    for (const size of [0, 1, 8, 16, 511, 512]) expect(randomBytes(size)).toHaveLength(size);
    for (const size of [-1, 1.5, 513, Number.NaN]) expect(() => randomBytes(size)).toThrow(RangeError);
  });

  it('never hands out the same bytes twice, within a pool or across a refill', async () => {
    const { randomBytes } = await load();
    const pieces = [randomBytes(500), randomBytes(16), randomBytes(12), randomBytes(500)];
    const hex = pieces.map((piece) => Buffer.from(piece).toString('hex'));
    expect(new Set(hex).size).toBe(4);
    // 16 bytes after 500: a fresh pool, not the 12 left in the old one.
    expect(hex[2]).not.toBe(hex[1]!.slice(0, 24));
  });

  it('reads /dev/urandom a pool at a time, not once a call', async () => {
    const actual = await vi.importActual<typeof import('node:fs')>('node:fs');
    const opened: string[] = [];
    const { randomBytes } = await load({
      openSync: (path: string, flags: string) => (opened.push(path), actual.openSync(path, flags)),
    });
    for (let i = 0; i < 32; i += 1) randomBytes(16);
    expect(opened).toEqual(process.platform === 'win32' ? [] : ['/dev/urandom']);
  });

  it('falls back to Web Crypto when /dev/urandom cannot be opened, or is not a device', async () => {
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues');
    const missing = await load({
      openSync: () => {
        throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      },
    });
    expect(missing.randomUUID()).toMatch(UUID);
    expect(spy).toHaveBeenCalledTimes(1);
    const actual = await vi.importActual<typeof import('node:fs')>('node:fs');
    const regular = await load({ openSync: (_path: string, flags: string) => actual.openSync(__filename, flags) });
    const id = regular.randomUUID();
    expect(id).toMatch(UUID);
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
