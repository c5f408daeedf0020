import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonArraySplitter, MAX_PLANT_DEPTH } from '../../src/api/json-array.js';
import { streamPlantList } from '../../src/api/plant-stream.js';
import { parsePlantList } from '../../src/api/responses.js';
import { BadResponseError } from '../../src/shared/errors.js';
import { JsonNumber } from '../../src/shared/json.js';
import { TooLargeError } from '../../src/shared/read-text.js';
import { holdsLarge } from '../../src/shared/large-values.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';
import { excerpt } from '../../src/shared/text.js';

// eslint-disable-next-line @typescript-eslint/require-await -- async on purpose: the code under test reads an async iterable.
async function* chunks(text: string, sizes: number[]): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  let at = 0;
  for (const size of sizes) {
    if (at >= bytes.length) break;
    yield bytes.subarray(at, at + size);
    at += size;
  }
  if (at < bytes.length) yield bytes.subarray(at);
}

async function collect(text: string, sizes: number[] = [text.length]): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const batch of streamPlantList(chunks(text, sizes), 'application/json', 1e9)) out.push(...batch);
  return out;
}

afterEach(() => forgetSecrets());

describe('streamPlantList', () => {
  it('masks a token the service echoes in a plant, in any string but the id, as sent or in its own escapes', async () => {
    const token = 'TOP+SECRET/abc=def==';
    registerSecret(token);
    const escaped = [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const body = JSON.stringify([
      { id: `x-${token}`, name: `one ${token}`, extra: { deep: [token], n: 12345678901234567890n.toString() } },
      { id: 2, name: 'two', tag: escaped },
      { id: 3, name: 'three' },
    ]);
    for (const sizes of [[body.length], [7, 50, 3]]) {
      const out: unknown[] = [];
      for await (const batch of streamPlantList(chunks(body, sizes), 'application/json', 1e9)) out.push(...batch);
      expect(out).toEqual([
        { id: `x-${token}`, name: 'one ***', extra: { deep: ['***'], n: '12345678901234567890' } },
        { id: 2, name: 'two', tag: '***' },
        { id: 3, name: 'three' },
      ]);
    }
  });

  it('masks a token the service echoes as a key, at any depth, as in a value', async () => {
    const token = 'TOP+SECRET/abc=def==';
    registerSecret(token);
    const body = JSON.stringify([
      { id: 1, name: 'one', [token]: 1, extra: { [`Bearer ${token}`]: 2, list: [{ [token]: 3 }] } },
    ]);
    const out: unknown[] = [];
    for await (const batch of streamPlantList(chunks(body, [body.length]), 'application/json', 1e9)) out.push(...batch);
    expect(out).toEqual([{ id: 1, name: 'one', '***': 1, extra: { 'Bearer ***': 2, list: [{ '***': 3 }] } }]);
    expect(JSON.stringify(out)).not.toContain('SECRET');
  });

  it('leaves a batch that does not hold the token as parsed, the same objects', async () => {
    const body = '[{"id":12345678901234567890,"name":"a \\\\ b % & c","tag":null}]';
    const out: unknown[] = [];
    for await (const batch of streamPlantList(chunks(body, [body.length]), 'application/json', 1e9)) out.push(...batch);
    expect(out).toEqual([{ id: new JsonNumber('12345678901234567890'), name: 'a \\ b % & c', tag: null }]);
  });

  it('marks a batch plain (PlainRows) only when its text has no backslash: no escape, so no control character', async () => {
    const marks = async (body: string, sizes = [Buffer.byteLength(body)]) => {
      const plain: (true | undefined)[] = [];
      for await (const batch of streamPlantList(chunks(body, sizes), 'application/json', 1e9)) {
        plain.push(batch.plain);
      }
      return plain;
    };
    expect(await marks('[{"id":1,"name":"Fern\u2028 é 🌱"},{"id":2,"name":"Ivy\u0085"}]')).toEqual([true]);
    for (const name of ['a\\tb', 'a\\\\b', 'a\\u0041', 'a\\"b', 'a\\/b']) {
      expect(await marks(`[{"id":1,"name":"Fern"},{"id":2,"name":"${name}"}]`)).toEqual([undefined]);
    }
    // Each batch by its own text: a backslash in the second piece's plants leaves the first's mark.
    expect(await marks('[{"id":1,"name":"Fern"},{"id":2,"name":"a\\nb"}]', [24, 30])).toEqual([true, undefined]);
  });

  it('yields what the buffered check returns, however the body is cut into pieces', async () => {
    const plant = fc.record(
      {
        id: fc.oneof(fc.integer(), fc.string()),
        name: fc.string({ unit: 'grapheme' }),
        tag: fc.oneof(fc.string(), fc.constant(null)),
        extra: fc.jsonValue(),
      },
      { requiredKeys: ['name'] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(plant, { maxLength: 8 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 7 })),
        async (plants, pretty, sizes) => {
          const text = JSON.stringify(plants, null, pretty ? 2 : undefined);
          expect(await collect(text, sizes)).toEqual(parsePlantList(text, 'application/json'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('splits multi-byte characters across pieces correctly', async () => {
    const text = '[{"name":"🌱 ü ñ"}]';
    expect(await collect(text, Array<number>(40).fill(1))).toEqual([{ name: '🌱 ü ñ' }]);
  });

  it.each([
    ['', /response body was empty/],
    ['{"plants":[]}', /received an object/],
    ['<html>', /not JSON/],
    ['[{"name":"a"}', /ends before the array is closed/],
    ['[{"name":"a"},]', /not JSON/],
    ['[{"name":"a"} {"name":"b"}]', /missing comma/],
    ['[{"name":"a"}] x', /text after the end/],
    ['[{"name":1}]', /item 1 of the plant list is not a plant/],
    ['[{"name":"a"},{"name":"b","x":tru}]', /item 2 of the plant list is not valid JSON/],
    ['[1]', /item 1 of the plant list is a number/],
  ])('refuses %j clearly', async (text, message) => {
    await expect(collect(text)).rejects.toThrow(BadResponseError);
    await expect(collect(text, [1, 2, 3])).rejects.toThrow(message);
  });

  it('yields earlier plants before finding a bad one', async () => {
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const batch of streamPlantList(chunks('[{"name":"a"},{"name":2}]', [5, 9]), undefined, 1e9))
          seen.push(...batch);
      })(),
    ).rejects.toThrow(/item 2 of the plant list/);
    expect(seen).toEqual([{ name: 'a' }]);
  });
});

describe('streamPlantList: positions', () => {
  it.each([
    ['[{"name":"a"},{"name":"b"},{"name":3}]', 'item 3 of the plant list is not a plant'],
    ['[{"name":"a"},{"name":"b","x":tru}]', 'item 2 of the plant list is not valid JSON'],
    ['[7]', 'item 1 of the plant list is a number'],
  ])('count items from 1, however the body is cut: %j', async (text, message) => {
    await expect(collect(text, [3, 7, 15])).rejects.toThrow(message);
    await expect(collect(text)).rejects.toThrow(message);
  });
});

describe('JsonArraySplitter', () => {
  it('keeps strings with brackets, quotes and escapes whole', () => {
    const splitter = new JsonArraySplitter();
    const items = splitter.push('[{"name":"a]}\\"[{"},"x",12 , true,[1,[2]]]');
    splitter.end();
    expect(items).toEqual(['{"name":"a]}\\"[{"}', '"x"', '12', 'true', '[1,[2]]']);
  });
});

describe('streamPlantList edges found in review', () => {
  it('refuses a non-JSON blank before the array, however it is cut up (a byte order mark is read: see below)', async () => {
    for (const lead of ['\u00a0', '\u2028', ' \ufeff']) {
      for (const sizes of [[1000], [1], [2], [3]]) {
        await expect(collect(`${lead}[{"name":"a"}]`, sizes)).rejects.toThrow(BadResponseError);
      }
    }
  });

  it('with a cap (--limit), neither reads nor checks what comes after it, however it is cut up', async () => {
    const text = '[{"name":"a"},{"name":"b"},{"nope":1}]';
    for (const sizes of [[1000], [1], [14], [27]]) {
      const batches: { plants: unknown[]; overflow?: true }[] = [];
      for await (const batch of streamPlantList(chunks(text, sizes), undefined, 1e9, 1)) {
        batches.push({ plants: [...batch], ...(batch.overflow ? { overflow: batch.overflow } : {}) });
      }
      expect(batches.flatMap((b) => b.plants)).toEqual([{ name: 'a' }]);
      expect(batches.at(-1)?.overflow).toBe(true);
    }
  });
});

describe('writePlants', () => {
  it('writes what came before a failure halfway', async () => {
    const { fakeIO } = await import('../helpers/io.js');
    const { writePlants } = await import('../../src/output/plants.js');
    const fake = fakeIO();
    // eslint-disable-next-line @typescript-eslint/require-await -- async on purpose: the code under test reads an async iterable.
    async function* failing() {
      yield [{ id: 1, name: 'a' }];
      throw new BadResponseError('broken');
    }
    await expect(writePlants(fake.io, failing(), { format: 'ndjson' })).rejects.toThrow('broken');
    expect(fake.stdout()).toBe('{"id":1,"name":"a"}\n');
  });
});

describe('streamPlantList: items that are no plants', () => {
  it('says an item is a number, however large (a JsonNumber is no plant object)', async () => {
    await expect(collect('[{"name":"a"},123456789012345678901234567890]')).rejects.toThrow(
      'item 2 of the plant list is a number, expected a plant object: 123456789012345678901234567890',
    );
  });
});

describe('streamPlantList: what a user is told, and JSON blanks', () => {
  it("takes JSON's four blanks anywhere between tokens, and a first piece of blanks only", async () => {
    const text = ' \r\n\t[\r\n\t{"name":"a"}\r\n\t,\t{"name":"b"} \r\n]\r\n\t ';
    for (const sizes of [[1000], [2, 1, 4], [1]]) {
      expect(await collect(text, sizes)).toEqual([{ name: 'a' }, { name: 'b' }]);
    }
  });

  it('names a comma with no item after it', async () => {
    await expect(collect('[{"name":"a"},]')).rejects.toThrow(
      'expected a JSON array of plants, but received application/json that is not JSON (a comma with no item after it) near: [{"name":"a"},]',
    );
    await expect(collect('[{"name":"a"},,{"name":"b"}]')).rejects.toThrow(/\(a comma with no item after it\)/);
  });

  it('says "a body" when there is no content type', async () => {
    const stream = streamPlantList(chunks('[1 2]', [10]), undefined, 1e9);
    await expect(stream.next()).rejects.toThrow(
      'expected a JSON array of plants, but received a body that is not JSON (missing comma between items) near: [1 2]',
    );
  });

  it('a body that is no array, of exactly the limit, is read and described', async () => {
    const text = '{"plants":[]}';
    const stream = streamPlantList(chunks(text, [2, 2, 2]), 'application/json', text.length);
    await expect(stream.next()).rejects.toThrow(/but received an object/);
  });

  it('with a cap (--limit), what comes after the plants asked for is not read, even when broken', async () => {
    const text = '[{"name":"a"},{"name":"b"}] and then junk';
    const seen: unknown[] = [];
    for await (const batch of streamPlantList(chunks(text, [14, 13, 5]), undefined, 1e9, 1)) {
      seen.push(...batch);
    }
    expect(seen).toEqual([{ name: 'a' }]);
  });

  it('reads a body that is no array only up to the limit', async () => {
    const text = `{"plants":[${'{"name":"a"},'.repeat(20)}]}`;
    const stream = streamPlantList(chunks(text, [5, 5, 5, 5, 5, 5, 5]), 'application/json', 40);
    await expect(stream.next()).rejects.toThrow(new TooLargeError('larger than 40 bytes'));
  });
});

describe('streamPlantList: what a body may start with, hold and nest', () => {
  const collectWarnings = async (body: Buffer, sizes: number[]) => {
    const warnings: string[] = [];
    const plants: unknown[] = [];
    // eslint-disable-next-line @typescript-eslint/require-await -- async on purpose: the code under test reads an async iterable.
    async function* pieces(): AsyncGenerator<Buffer> {
      let at = 0;
      for (const size of [...sizes, body.length]) {
        if (at >= body.length) break;
        yield body.subarray(at, at + size);
        at += size;
      }
    }
    for await (const batch of streamPlantList(pieces(), 'application/json', 1e9, Infinity, (text) =>
      warnings.push(text),
    ))
      plants.push(...batch);
    return { plants, warnings };
  };

  it('reads a body that starts with a byte order mark, however the mark is cut', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"id":1,"name":"a"}]')]);
    for (const first of [1, 2, 3, 4, 100]) {
      expect((await collectWarnings(body, [first])).plants, `cut at ${first}`).toEqual([{ id: 1, name: 'a' }]);
    }
  });

  it('keeps a byte order mark that is not at the start: it is not JSON there', async () => {
    await expect(collectWarnings(Buffer.from(' \ufeff[]'), [])).rejects.toThrow(BadResponseError);
  });

  it('warns once, naming the first bad byte, when the body is not valid UTF-8', async () => {
    const body = Buffer.concat([
      Buffer.from('[{"id":1,"name":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"},{"id":2,"name":"'),
      Buffer.from([0xff]),
      Buffer.from('"}]'),
    ]);
    for (const first of [1, 19, 20, 21, 30]) {
      const { plants, warnings } = await collectWarnings(body, [first]);
      expect(plants).toEqual([
        { id: 1, name: 'caf\ufffd' },
        { id: 2, name: '\ufffd' },
      ]);
      expect(warnings).toEqual([expect.stringMatching(/not valid UTF-8 from byte 20 on/)]);
    }
  });

  it('says nothing of a U+FFFD the service sent as such', async () => {
    const { warnings } = await collectWarnings(Buffer.from('[{"id":1,"name":"\ufffd"}]'), [18]);
    expect(warnings).toEqual([]);
  });

  it('refuses a plant nested deeper than MAX_PLANT_DEPTH, naming it, and takes one at that depth', async () => {
    const nested = (depth: number) => `${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}`;
    const at = `[{"id":1,"name":"a"},{"id":2,"name":"b","x":${nested(MAX_PLANT_DEPTH)}}]`;
    expect((await collectWarnings(Buffer.from(at), [])).plants).toHaveLength(2);
    const deep = `[{"id":1,"name":"a"},{"id":2,"name":"b","x":${nested(100_000)}}]`;
    await expect(collectWarnings(Buffer.from(deep), [4096])).rejects.toThrow(
      new BadResponseError(`expected a JSON array of plants, but item 2 nests deeper than ${MAX_PLANT_DEPTH} levels`),
    );
  });
});

describe('streamPlantList: plants larger than LARGE_TEXT, built as they arrive', () => {
  const many = (count: number) => Array<number>(count).fill(65536);
  // Escapes, astral characters and a multi-byte character spread over a name longer than LARGE_TEXT.
  const name = `${'Ficus '.repeat(120_000)}😀\\"\n\u00e9植${'x'.repeat(400_000)}\ud83c`;
  const plants = [
    { id: 1, name: 'small', tag: null },
    { id: new JsonNumber('12345678901234567890'), name, tag: 't', extra: { note: name, list: [1.5, 'a'] } },
    { id: 3, name: 'after', tag: 'x' },
  ];
  const text = JSON.stringify(plants);

  it('gives what the buffered check gives, however the body is cut, and marks the large plant', async () => {
    for (const sizes of [many(200), [1000, 3, 65536, 7, ...many(100)], [text.length]]) {
      const streamed = await collect(text, sizes);
      const buffered = parsePlantList(text, 'application/json');
      expect(JSON.stringify(streamed)).toBe(JSON.stringify(buffered));
      expect(streamed).toEqual(buffered);
      // Only a plant whose text arrived in many pieces is built as it comes.
      expect(holdsLarge(streamed[1])).toBe(sizes.length > 1);
      expect(holdsLarge(streamed[0])).toBe(false);
    }
  });

  it('says a large item is not valid JSON as it says of any item, its excerpt the start of its text', async () => {
    const broken = `[{"name":"a"},{"name":"b",\n\n   "note":"${'y'.repeat(3 * 65536)}", "x":tru}]`;
    const item = broken.slice(broken.indexOf('{"name":"b"'), -1);
    await expect(collect(broken, many(10))).rejects.toThrow(
      new BadResponseError(`item 2 of the plant list is not valid JSON: ${excerpt(item, 200)}`),
    );
  });

  it('refuses a large plant nested deeper than MAX_PLANT_DEPTH, naming it', async () => {
    const deep = `[{"name":"${'z'.repeat(2 * 65536)}","x":${'['.repeat(MAX_PLANT_DEPTH + 1)}${']'.repeat(MAX_PLANT_DEPTH + 1)}}]`;
    await expect(collect(deep, many(10))).rejects.toThrow(`item 1 nests deeper than ${MAX_PLANT_DEPTH} levels`);
  });
});
