import { describe, expect, it } from 'vitest';
import { inProcess } from '../helpers/in-process.js';

const TOKEN = 'list-command-test-token';
const { plants, service } = inProcess(TOKEN);

const json = { headers: { 'content-type': 'application/json' } };
const GARDEN = [
  { id: 1, name: 'Ficus lyrata', tag: 'weed', extra: { height: 3 } },
  { id: 2, name: 'Aloe vera', tag: 'succulent' },
  { id: 3, name: 'Ficus elastica', tag: 'tropical' },
  { id: 4, name: 'Moss', tag: 'moss' },
];
const listed = (body: object = GARDEN, query?: Record<string, string>) =>
  service()
    .intercept({ path: '/plants', method: 'GET', ...(query ? { query } : {}) })
    .reply(200, body, json);

describe('plants list: formats', () => {
  it('-o csv: a header and one row per plant', async () => {
    listed();
    const r = await plants(['list', '-o', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe(
      'id,name,tag\r\n1,Ficus lyrata,weed\r\n2,Aloe vera,succulent\r\n3,Ficus elastica,tropical\r\n4,Moss,moss\r\n',
    );
  });

  it('-o ndjson: one object per line, every field kept', async () => {
    listed(GARDEN.slice(0, 2));
    const r = await plants(['list', '-o', 'ndjson']);
    expect(r.stdout()).toBe(`${JSON.stringify(GARDEN[0])}\n${JSON.stringify(GARDEN[1])}\n`);
  });

  it('-o table when piped: a table all the same', async () => {
    listed(GARDEN.slice(1, 2));
    const r = await plants(['list', '-o', 'table']);
    expect(r.stdout()).toBe('ID  NAME       TAG\n2   Aloe vera  succulent\n');
  });

  it('-o tsv on a terminal: tab-separated all the same', async () => {
    listed(GARDEN.slice(1, 2));
    const r = await plants(['list', '-o', 'tsv'], { tty: true });
    expect(r.stdout()).toBe('2\tAloe vera\tsucculent\n');
  });

  it('--json and -o json together are fine; with another format they are refused before any request', async () => {
    listed(GARDEN.slice(1, 2));
    const same = await plants(['list', '--json', '-o', 'json']);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout())).toEqual(GARDEN.slice(1, 2));
    const r = await plants(['list', '--json', '-o', 'csv']);
    expect(r.code).toBe(2);
    // With --json, the error is a JSON line too, for scripts.
    expect(r.stderr()).toBe(
      'plants: --json conflicts with --output csv; use one of them\n' +
        '{"error":{"code":"usage","status":null,"message":"--json conflicts with --output csv; use one of them","request_id":null}}\n',
    );
  });

  it('--columns picks and orders the fields, dotted paths reading nested objects', async () => {
    listed(GARDEN.slice(0, 2));
    const r = await plants(['list', '--columns', 'name,extra.height', '-o', 'csv']);
    expect(r.stdout()).toBe('name,extra.height\r\nFicus lyrata,3\r\nAloe vera,\r\n');
  });

  it.each(['json', 'ndjson'])('--columns with -o %s: whole objects, and a warning', async (format) => {
    listed(GARDEN.slice(0, 1));
    const r = await plants(['list', '--columns', 'name', '-o', format]);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      `plants: warning: --columns applies to table, tsv and csv; -o ${format} keeps whole objects\n`,
    );
    const whole = format === 'json' ? GARDEN.slice(0, 1) : GARDEN[0];
    expect(r.stdout()).toBe(`${JSON.stringify(whole)}\n`);
  });

  it('--columns with --json warns too; without --columns there is no warning', async () => {
    listed(GARDEN.slice(0, 1));
    listed(GARDEN.slice(0, 1));
    expect((await plants(['list', '--columns', 'id', '--json'])).stderr()).toMatch(/-o json keeps whole objects/);
    expect((await plants(['list', '--json'])).stderr()).toBe('');
  });

  it('--columns with csv, tsv and table says nothing', async () => {
    for (const format of ['csv', 'tsv', 'table']) {
      listed(GARDEN.slice(0, 1));
      const r = await plants(['list', '--columns', 'id', '-o', format]);
      expect(r.stderr(), format).toBe('');
    }
  });
});

describe('plants list: filters', () => {
  it('--tag, repeated, keeps plants with any of the tags', async () => {
    listed();
    const r = await plants(['list', '--tag', 'weed', '--tag', 'moss']);
    expect(r.stdout()).toBe('1\tFicus lyrata\tweed\n4\tMoss\tmoss\n');
  });

  it('--name keeps plants whose whole name matches the glob; with --tag, both must match', async () => {
    listed();
    listed();
    expect((await plants(['list', '--name', 'Ficus*'])).stdout()).toBe(
      '1\tFicus lyrata\tweed\n3\tFicus elastica\ttropical\n',
    );
    expect((await plants(['list', '--name', 'Ficus*', '--tag', 'tropical'])).stdout()).toBe(
      '3\tFicus elastica\ttropical\n',
    );
  });

  it('--limit is sent to the service and applies before the filters', async () => {
    listed(GARDEN.slice(0, 2), { limit: '2' });
    const r = await plants(['list', '--limit', '2', '--tag', 'moss', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('[]\n');
    expect(r.stderr()).toBe('');
  });

  it('--limit 0 asks for none', async () => {
    listed([], { limit: '0' });
    const r = await plants(['list', '--limit', '0', '-o', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toBe('id,name,tag\r\n');
  });
});

describe('plants list: what a newcomer would otherwise miss, said once on stderr', () => {
  it('a table of plants without ids says they cannot be deleted by id', async () => {
    listed([{ name: 'A' }, { name: 'B', tag: 'x' }]);
    const r = await plants(['list'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout()).not.toContain('ID');
    expect(r.stderr()).toBe('plants: warning: the service sent no ids: these plants cannot be deleted by id\n');
    listed();
    expect((await plants(['list'], { tty: true })).stderr()).toBe('');
  });

  it.each([['table'], ['tsv'], ['csv']])('-o %s: a --columns field no plant has is named, once', async (format) => {
    listed();
    const r = await plants(['list', '-o', format, '--columns', 'id,hieght,extra.height,colour']);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      'plants: warning: --columns "hieght", "colour": no plant listed has these fields, so their columns are empty\n',
    );
    listed();
    expect((await plants(['list', '-o', format, '--columns', 'id,extra.height'])).stderr()).toBe('');
  });

  it.each([['table'], ['tsv'], ['csv']])('-o %s: a field asked for twice is named once', async (format) => {
    listed();
    const r = await plants(['list', '-o', format, '--columns', 'hieght,id,hieght,hieght']);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      'plants: warning: --columns "hieght": no plant listed has this field, so its column is empty\n',
    );
  });
});

describe('--debug shows response bodies, the token masked, cut short', () => {
  it('a list: its start and its size, once read', async () => {
    listed(GARDEN.slice(0, 1));
    const r = await plants(['list', '--debug']);
    expect(r.code).toBe(0);
    const body = JSON.stringify(GARDEN.slice(0, 1));
    expect(r.stderr()).toContain(`plants: debug:   body (${body.length} bytes): ${body}\n`);
  });

  it('an error: what the service said, the token masked, at most 1000 characters', async () => {
    service()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(500, { error: 500, message: `broke with ${TOKEN} ${'x'.repeat(3000)}` }, json);
    const r = await plants(['list', '--debug']);
    expect(r.code).toBe(1);
    const line = r
      .stderr()
      .split('\n')
      .find((text) => text.includes('  body: '))!;
    expect(line).toContain('"message":"broke with *** xxx');
    expect(line).toMatch(/x…$/);
    expect(line.length).toBeLessThan(1100);
  });
});
