import { beforeEach, describe, expect, it } from 'vitest';
import { againstRawServer } from '../helpers/against-store.js';
import { rawServer } from '../helpers/servers.js';

/** A service whose list is whatever the test says. */
let list = '[]';
const setup = againstRawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(list));
const { plants } = setup;

describe('a table with a huge name', () => {
  it('plants list -o table lays out a 1 MiB name (wide characters too) in time', async () => {
    const huge = 'Ficus 植物 '.repeat(Math.ceil(2 ** 20 / 9)).slice(0, 2 ** 20);
    const width = huge.length + (huge.match(/[植物]/g)?.length ?? 0);
    list = JSON.stringify([
      { id: 1, name: huge, tag: 'fern' },
      { id: 2, name: 'Monstera', tag: 'tropical' },
    ]);
    // Coloured, as on a terminal: the header goes through the same layout.
    const r = await plants(['list', '-o', 'table'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      `\u001b[1mID\u001b[22m  \u001b[1mNAME\u001b[22m${' '.repeat(width - 4)}  \u001b[1mTAG\u001b[22m`,
      `1   ${huge}  fern`,
      `2   Monstera${' '.repeat(width - 8)}  tropical`,
      '',
    ]);
  });
});

// A name with a bidi override and isolate, zero-width characters, a BOM, a line separator and a C1 CSI.
const HOSTILE = 'Fi\u202ecus\u2066 x\u200by\ufeffz\u2028w\u061cv\u180eu\u009b31m';
const SHOWN = 'Fi\\u202ecus\\u2066 x\\u200by\\ufeffz\\u2028w\\u061cv\\u180eu\\u009b31m';
// Any of them raw, or ESC.
// eslint-disable-next-line no-control-regex
const RAW = /[\u001b\u0080-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;
const inTerminal = (args: string[]) => plants(args, { tty: true, env: { TERM: 'xterm-256color' } });

describe('bidi, zero-width and separator characters from the service', () => {
  beforeEach(() => {
    list = JSON.stringify([{ id: `id${HOSTILE}`, name: HOSTILE, tag: 'x' }]);
  });

  it.each([
    ['a table', ['list']],
    ['TSV', ['list', '-o', 'tsv']],
    ['CSV', ['list', '-o', 'csv']],
  ])('are escaped in %s on a terminal', async (_what, args) => {
    const r = await inTerminal(args);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain(`id${SHOWN}`);
    expect(r.stdout).toContain(SHOWN);
  });

  it.each([
    ['JSON', ['list', '--json']],
    ['NDJSON', ['list', '-o', 'ndjson']],
  ])('are JSON escapes in %s on a terminal, which read back as the same data', async (_what, args) => {
    const r = await inTerminal(args);
    expect(r.stdout).not.toMatch(RAW);
    const text = r.stdout.replaceAll('\r\n', '\n');
    expect(JSON.parse(args.includes('--json') ? text : `[${text.trim()}]`)).toEqual(JSON.parse(list));
  });

  it('piped, JSON and CSV are the exact data, and TSV escapes only what would break its line', async () => {
    expect(JSON.parse((await plants(['list', '--json'])).stdout)).toEqual(JSON.parse(list));
    expect((await plants(['list', '-o', 'csv'])).stdout).toBe(`id,name,tag\r\nid${HOSTILE},${HOSTILE},x\r\n`);
    const keptInTsv = (text: string) => text.replace('\u2028', '\\u2028').replace('\u009b', '\\u009b');
    expect((await plants(['list'])).stdout).toBe(`${keptInTsv(`id${HOSTILE}`)}\t${keptInTsv(HOSTILE)}\tx\n`);
  });

  it('are escaped in the message about a plant without a usable id', async () => {
    list = JSON.stringify([{ name: HOSTILE }]);
    const r = await plants(['prune', '--all', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `plants: matching plant 1 ("${SHOWN}") has no usable "id" (a non-empty string or a number); plants without ids cannot be deleted by id; nothing was deleted\n`,
    );
  });

  it('are escaped in an error message from the service', async () => {
    const failing = await rawServer((_req, res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: HOSTILE })),
    );
    try {
      const r = await plants(['list'], { env: { PLANTS_BASE_URL: failing.url } });
      // An excerpt is one line: what JavaScript counts as white space (U+FEFF, U+2028) is a space there.
      expect(r.stderr).toBe(
        `plants: GET ${failing.url}/plants → 500 Internal Server Error: Fi\\u202ecus\\u2066 x\\u200by z w\\u061cv\\u180eu\\u009b31m\n`,
      );
    } finally {
      await failing.close();
    }
  });

  it('are escaped in the plant names completion shows; an id holding them is not offered at all', async () => {
    list = JSON.stringify([
      { id: `id${HOSTILE}`, name: HOSTILE },
      { id: 'plain', name: HOSTILE },
    ]);
    const r = await plants(['__complete', '--', 'delete', '']);
    // Inserted, such an id would look like another one on the command line.
    expect(r.stdout).toBe(`plain\t${SHOWN}\n`);
  });

  it('are escaped when standard input is not valid JSON and the error quotes it', async () => {
    const r = await plants(['delete', '--stdin', '--yes'], { input: `[1, x${HOSTILE}]` });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^plants: standard input starts like a JSON array but is not valid JSON: /);
    expect(r.stderr).not.toMatch(RAW);
  });
});
