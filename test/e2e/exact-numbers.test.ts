import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { plantStore, TOKEN } from '../helpers/servers.js';
import { JsonNumber } from '../../src/shared/json.js';

// Ids as the service writes them stay exactly that text on every path: the
// list in every format, ids read back from stdin in every accepted form, the
// DELETE path, the journal and completion. The boundaries: 2^53 - 1, 2^53 + 1,
// 19 and 30 digits, negative, an exponent, trailing zeros.
const IDS = [
  '9007199254740991',
  '9007199254740993',
  '1234567890123456789',
  '123456789012345678901234567890',
  '-98765432109876543210',
  '1e21',
  '1.50',
  '7.0',
];

let dir: ReturnType<typeof tempDir>;
let store: Awaited<ReturnType<typeof plantStore>>;
beforeEach(async () => {
  dir = tempDir();
  store = await plantStore({
    plants: IDS.map((id, index) => ({ id: new JsonNumber(id), name: `Plant ${index + 1}` })),
  });
});
afterEach(async () => {
  await store.close();
  dir.remove();
});

const plants = (args: string[], input?: string) =>
  runCli(args, {
    configDir: dir.path,
    input,
    env: { PLANTS_BASE_URL: store.url, PLANTS_TOKEN: TOKEN, PLANTS_STATE_DIR: join(dir.path, 'state') },
  });

describe('exact numbers on every path', () => {
  it('lists every id as the service wrote it, in every format', async () => {
    const json = await plants(['list', '--json']);
    expect(json.stdout).toBe(`[${IDS.map((id, i) => `{"id":${id},"name":"Plant ${i + 1}"}`).join(',')}]\n`);
    const ndjson = await plants(['list', '-o', 'ndjson']);
    expect(ndjson.stdout.trim().split('\n')).toEqual(IDS.map((id, i) => `{"id":${id},"name":"Plant ${i + 1}"}`));
    const tsv = await plants(['list', '-o', 'tsv', '--columns', 'id']);
    expect(tsv.stdout.trim().split('\n')).toEqual(IDS);
    const csv = await plants(['list', '-o', 'csv', '--columns', 'id']);
    expect(csv.stdout.trim().split('\r\n')).toEqual(['id', ...IDS]);
    const table = await runCli(['list', '--columns', 'id'], {
      configDir: dir.path,
      tty: true,
      columns: 80,
      env: { PLANTS_BASE_URL: store.url, PLANTS_TOKEN: TOKEN },
    });
    expect(table.stdout.trim().split('\r\n').slice(1)).toEqual(IDS);
  });

  it.each([
    ['json', ['list', '-o', 'json']],
    ['ndjson', ['list', '-o', 'ndjson']],
    ['csv', ['list', '-o', 'csv']],
    ['one id a line (cut -f1 of tsv)', ['list', '-o', 'tsv', '--columns', 'id']],
  ])('deletes each id read back from %s, sending it as written, and records it so', async (_form, list) => {
    const listed = await plants(list);
    const r = await plants(['delete', '--stdin', '--yes', '--json'], listed.stdout);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((result) => result.id)).toEqual(IDS);
    expect(store.requests.filter((q) => q.method === 'DELETE').map((q) => q.path)).toEqual(
      IDS.map((id) => `/plants/${encodeURIComponent(id)}`),
    );
    expect(store.store.size).toBe(0);
    const journal = readFileSync(join(dir.path, 'state', 'deletions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; id?: string })
      .filter((record) => record.event === 'outcome');
    expect(journal.map((record) => record.id)).toEqual(IDS);
  });

  it('reads ids given as JSON numbers on stdin exactly as written', async () => {
    const r = await plants(['delete', '--stdin', '--yes', '--json'], `[${IDS.join(', ')}]`);
    expect(r.code, r.stderr).toBe(0);
    expect(store.store.size).toBe(0);
  });

  it('offers every id in completion as the service wrote it (a negative one after --)', async () => {
    const offered = async (words: string[]) =>
      (await plants(['__complete', '--', ...words])).stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t')[0]);
    expect((await offered(['delete', ''])).sort()).toEqual(IDS.filter((id) => !id.startsWith('-')).sort());
    expect(await offered(['delete', '--', '-'])).toEqual(['-98765432109876543210']);
  });
});
