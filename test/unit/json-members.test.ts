import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { repeatedFields } from '../../src/api/repeated-fields.js';
import { streamPlantList } from '../../src/api/plant-stream.js';
import type { Plant } from '../../src/api/responses.js';
import { JsonNumber } from '../../src/shared/json.js';
import { repeatedMembers } from '../../src/shared/json-members.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';

// A plant object that writes id, name or tag twice: parsing keeps the last
// value, so what the others said is read from the text (docs/commands.md).

const members = repeatedMembers(['id', 'name', 'tag']);
const asMap = (entries: [string, unknown[]][]) => new Map(entries);

describe('repeatedMembers', () => {
  it.each([
    ['{"id":"2","id":"3","name":"x"}', asMap([['id', ['"2"', '"3"']]])],
    ['{ "id" : 2 , "name":"a", "id" : 3.0 }', asMap([['id', ['2', '3.0']]])],
    ['{"\\u0069d":"2","id":"3"}', asMap([['id', ['"2"', '"3"']]])],
    ['{"i\\u0064":2,"id":2}', asMap([['id', ['2', '2']]])],
    ['{"tag":"a","name":"x","tag":null,"tag":{"id":1}}', asMap([['tag', ['"a"', 'null', '{"id":1}']]])],
    ['{"name":"a \\"id\\": 1, \\"name\\"","name":"b"}', asMap([['name', ['"a \\"id\\": 1, \\"name\\""', '"b"']]])],
  ])('%s: the values of each key written twice', (text, expected) => {
    expect(members(text)).toEqual(expected);
  });

  it.each([
    '{"id":"2","name":"x","tag":"t"}',
    '{"id":"2","owner":{"id":"3","name":"y"},"name":"x"}',
    '{"id":"2","list":[{"name":"a"},{"name":"b"}],"name":"\\"name\\""}',
    '{"id":"2","x\\\\":"\\\\","note":"id"}',
    '{"ids":1,"id":2,"identity":3}',
    '[{"id":1},{"id":2}]',
    '{}',
  ])('%s: none', (text) => {
    expect(members(text)).toBeUndefined();
  });

  it('finds exactly the keys JSON.parse sees more than once at the top level, whatever the text', () => {
    const key = fc.constantFrom('id', 'name', 'tag', 'other', '\\u0069d', 'n\\u0061me', 'i"d');
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      fc.constantFrom('"id"', '{"id":1,"id":2}', '"a\\\\"', '" \\"name\\": "'),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 8 }), (pairs) => {
        const text = `{${pairs.map(([k, v]) => `"${k.replace('"', '\\"')}" : ${v}`).join(' , ')}}`;
        const counts = new Map<string, string[]>();
        for (const [k, v] of pairs) {
          const name = JSON.parse(`"${k.replace('"', '\\"')}"`) as string;
          if (['id', 'name', 'tag'].includes(name)) counts.set(name, [...(counts.get(name) ?? []), v]);
        }
        const expected = new Map([...counts].filter(([, values]) => values.length > 1));
        expect(members(text)).toEqual(expected.size > 0 ? expected : undefined);
      }),
      { numRuns: 1000 },
    );
  });
});

afterEach(() => forgetSecrets());

async function listed(text: string): Promise<Plant[]> {
  const plants: Plant[] = [];
  // eslint-disable-next-line @typescript-eslint/require-await -- the code under test reads an async iterable.
  const body = async function* () {
    // In the pieces a socket gives: an item over 1 MB spans them, and is built as it arrives.
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += 65536) yield bytes.subarray(at, at + 65536);
  };
  for await (const batch of streamPlantList(body(), 'application/json', 1e9)) plants.push(...batch);
  return plants;
}

describe('the plant list notes a plant whose id, name or tag is written twice, differently', () => {
  it('in a batch of plain plants, escaped keys and values named like keys too', async () => {
    const plants = await listed(
      '[{"id":"1","name":"a"},{"id":"2","id":"3","name":"b"},{"name":"c","id":4,"tag":"x","tag":"y"},' +
        '{"id":5,"name":"d","name":"d"},{"id":6,"name":"id"},{"\\u0069d":7,"id":8,"name":"e"},{"id":9,"name":"f"}]',
    );
    expect(plants.map((plant) => repeatedFields(plant))).toEqual([
      undefined,
      asMap([['id', ['2', '3']]]),
      asMap([['tag', ['x', 'y']]]),
      undefined,
      undefined,
      asMap([['id', [7, 8]]]),
      undefined,
    ]);
  });

  it('keeps a large id as written, and masks the token in a name', async () => {
    const token = 'TOP-SECRET-abc';
    registerSecret(token);
    const plants = await listed(`[{"id":12345678901234567890,"id":1,"name":"a ${token}","name":"b"}]`);
    const fields = repeatedFields(plants[0]!)!;
    expect(fields.get('id')![0]).toBeInstanceOf(JsonNumber);
    expect(JSON.stringify(fields.get('name'))).not.toContain(token);
  });

  it('in a plant over 1 MB, built as it arrives: its values kept as they come, large ones too', async () => {
    const long = 'x'.repeat(1_200_000);
    const plants = await listed(
      `[{"id":"2","name":"${long}","owner":{"id":9,"tag":"t"},"id":"3"},` +
        `{"id":4,"name":"${long}a","notes":{"name":"${long}"},"name":"${long}b"},` +
        `{"id":5,"name":"${long}","id":5}]`,
    );
    expect(plants.map((plant) => plant.id)).toEqual(['3', 4, 5]);
    expect(repeatedFields(plants[0]!)).toEqual(asMap([['id', ['2', '3']]]));
    expect(repeatedFields(plants[1]!)).toEqual(asMap([['name', [`${long}a`, `${long}b`]]]));
    expect(repeatedFields(plants[2]!)).toBeUndefined();
  });

  it('notes none in a list without repeats, however its plants nest', async () => {
    const plants = await listed(
      JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: i, name: `p${i}`, owner: { id: 1, name: 'o' } }))),
    );
    expect(plants.every((plant) => repeatedFields(plant) === undefined)).toBe(true);
  });
});
