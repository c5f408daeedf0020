import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { againstRawServer } from '../helpers/against-store.js';
import { TOKEN } from '../helpers/servers.js';
import { expectNoFormOf } from '../helpers/token-forms.js';

/**
 * Issue #40: a service that echoes the token split by characters a reader
 * does not see (zero-width space, NBSP, soft hyphen, word joiner, a tag
 * character), or in a body sent as UTF-16 or UTF-32. Every run is also
 * checked by runCli for the token with those taken out.
 */
let respond: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
const setup = againstRawServer((req, res) => respond(req, res));

/** The token as the server received it, with `between` after each of its characters but the last. */
const split = (req: IncomingMessage, between: string[]) =>
  Array.from((req.headers.authorization ?? '').replace(/^Bearer /, ''), (char, i) =>
    i === 0 ? char : `${between[(i - 1) % between.length]!}${char}`,
  ).join('');

const INVISIBLE = ['\u200b', '\u00a0', '\u00ad', '\u2060', '\u{e0020}', '\u200d\ufeff'];

function expectNoToken(r: { stdout: string; stderr: string }): void {
  expectNoFormOf(TOKEN, r.stdout, 'stdout');
  expectNoFormOf(TOKEN, r.stderr, 'stderr');
}

describe('the token split by invisible characters', () => {
  const list = (req: IncomingMessage) =>
    JSON.stringify([
      { id: 1, name: `Ficus ${split(req, INVISIBLE)} lyrata`, tag: split(req, ['\u200b']) },
      { id: 2, name: 'Monstera', tag: 'tropical' },
    ]);

  it.each([
    ['a table on a terminal', ['list'], true],
    ['a table in a pipe', ['list', '-o', 'table'], false],
    ['--json', ['list', '--json'], false],
    ['TSV', ['list', '-o', 'tsv'], false],
    ['TSV on a terminal', ['list', '-o', 'tsv'], true],
    ['NDJSON', ['list', '-o', 'ndjson'], false],
    ['CSV', ['list', '-o', 'csv'], false],
  ])('is masked in a plant name and tag: %s', async (_name, args, tty) => {
    respond = (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(list(req));
    const r = await setup.plants(args, { tty: tty });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Ficus \*\*\* lyrata/);
    expect(r.stdout).toContain('Monstera');
    expectNoToken(r);
  });

  it('is masked in the list body --debug shows', async () => {
    respond = (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(list(req));
    const r = await setup.plants(['list', '--debug', '-o', 'tsv']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /plants: debug: {3}body \(\d+ bytes\): \[\{"id":1,"name":"Ficus \*\*\* lyrata","tag":"\*\*\*"\}/,
    );
    expectNoToken(r);
  });

  it.each([
    ['a JSON message', 'application/json', (text: string) => JSON.stringify({ error: 9, message: `refused ${text}` })],
    [
      'a JSON message written with escapes',
      'application/json',
      (text: string) =>
        `{"error":9,"message":"refused ${text.replaceAll('\u200b', '\\u200B').replaceAll('\u00ad', '\\u00ad')}"}`,
    ],
    ['plain text', 'text/plain; charset=utf-8', (text: string) => `refused ${text}`],
    [
      'an HTML page',
      'text/html',
      (text: string) =>
        `<html><title>refused ${text.replaceAll('\u200b', '&#8203;').replaceAll('\u00ad', '&shy;').replaceAll('\u00a0', '&nbsp;')}</title></html>`,
    ],
  ])('is masked in an error message from %s, on stderr, in --debug and in delete --json', async (_name, type, body) => {
    respond = (req, res) => res.writeHead(500, { 'content-type': type }).end(body(split(req, INVISIBLE)));
    const listed = await setup.plants(['list', '--debug']);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toMatch(/plants: GET \S+ → 500 Internal Server Error: refused \*\*\*/);
    expect(listed.stderr).toMatch(/plants: debug: {3}body: .*refused \*\*\*/);
    expectNoToken(listed);
    const deleted = await setup.plants(['delete', '7', '--yes', '--json']);
    expect(deleted.code).toBe(1);
    expect(deleted.stdout).toMatch(/"message":"refused \*\*\*/);
    expectNoToken(deleted);
  });

  it('is masked in a response header --debug shows (NBSP and soft hyphen: Latin-1, which headers may hold)', async () => {
    respond = (req, res) =>
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': split(req, ['\u00a0', '\u00ad']) }).end('[]');
    const r = await setup.plants(['list', '--debug']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('plants: debug:   x-echo: ***\n');
    expectNoToken(r);
  });
});

/** `text` in UTF-16 or UTF-32, in either byte order, with or without a BOM. */
function encode(text: string, encoding: 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be', bom: boolean): Buffer {
  const all = bom ? `\ufeff${text}` : text;
  if (encoding.startsWith('utf-16')) {
    const bytes = Buffer.from(all, 'utf16le');
    return encoding === 'utf-16be' ? bytes.swap16() : bytes;
  }
  return Buffer.concat(
    Array.from(all, (char) => {
      const unit = Buffer.alloc(4);
      if (encoding === 'utf-32be') unit.writeUInt32BE(char.codePointAt(0)!);
      else unit.writeUInt32LE(char.codePointAt(0)!);
      return unit;
    }),
  );
}

describe('a body in UTF-16 or UTF-32', () => {
  const echoed = (req: IncomingMessage) => (req.headers.authorization ?? '').replace(/^Bearer /, '');

  it.each([
    ['UTF-16LE with a BOM', 'text/plain', 'utf-16le', true],
    ['UTF-16BE by its charset', 'text/plain; charset=utf-16be', 'utf-16be', false],
    ['UTF-16 by its charset, big-endian', 'text/plain; charset="UTF-16"', 'utf-16be', false],
    ['UTF-16LE with a BOM, though it says UTF-8', 'text/plain; charset=utf-8', 'utf-16le', true],
    ['UTF-32BE with a BOM', 'text/plain', 'utf-32be', true],
    ['UTF-32LE by its charset', 'text/plain; charset=utf-32le', 'utf-32le', false],
  ] as const)(
    'is read as text in an error message and --debug, the token masked: %s',
    async (_name, type, encoding, bom) => {
      respond = (req, res) =>
        res
          .writeHead(502, { 'content-type': type })
          .end(encode(`upstream refused ${split(req, ['\u200b'])} (end) é`, encoding, bom));
      const r = await setup.plants(['list', '--debug']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/plants: GET \S+ → 502 Bad Gateway: upstream refused \*\*\* \(end\) é\n/);
      expect(r.stderr).toMatch(/plants: debug: {3}body: upstream refused \*\*\* \(end\) é\n/);
      expectNoToken(r);
    },
  );

  it('reads the Error object of a UTF-16BE JSON body: its code and message', async () => {
    respond = (req, res) =>
      res
        .writeHead(500, { 'content-type': 'application/json; charset=utf-16be' })
        .end(encode(JSON.stringify({ error: 9, message: `refused ${echoed(req)}` }), 'utf-16be', false));
    const r = await setup.plants(['delete', '7', '--yes', '--json']);
    expect(r.code).toBe(1);
    const [outcome] = JSON.parse(r.stdout) as { result: string; error: { error: unknown; message: string } }[];
    expect(outcome!.error).toEqual({ error: 9, message: 'refused ***' });
    expectNoToken(r);
  });

  it.each([
    ['UTF-16LE with a BOM', 'application/json', 'utf-16le', true],
    ['UTF-16BE by its charset', 'application/json; charset=utf-16be', 'utf-16be', false],
    ['UTF-32LE with a BOM', 'application/json', 'utf-32le', true],
  ] as const)(
    'is a list read as JSON, the token masked in its table, TSV and --debug: %s',
    async (_name, type, encoding, bom) => {
      respond = (req, res) =>
        res.writeHead(200, { 'content-type': type }).end(
          encode(
            JSON.stringify([
              { id: 1, name: `Ficus ${echoed(req)}`, tag: 'fig' },
              { id: 2, name: 'Café 植物', tag: null },
            ]),
            encoding,
            bom,
          ),
        );
      const table = await setup.plants(['list', '-o', 'table', '--debug']);
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')).toEqual(['ID  NAME       TAG', '1   Ficus ***  fig', '2   Café 植物', '']);
      expect(table.stderr).toMatch(
        /plants: debug: {3}body \(\d+ bytes\): \[\{"id":1,"name":"Ficus \*\*\*","tag":"fig"\}/,
      );
      expect(table.stderr).not.toContain('not valid UTF-8');
      expectNoToken(table);
      const tsv = await setup.plants(['list', '-o', 'tsv']);
      expect(tsv.stdout).toBe('1\tFicus ***\tfig\n2\tCafé 植物\t\n');
    },
  );

  it('reads a list sent as ISO-8859-1 as UTF-8, as JSON is (a mislabelled UTF-8 list keeps its letters)', async () => {
    respond = (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json; charset=iso-8859-1' })
        .end(JSON.stringify([{ id: 1, name: 'Café' }]));
    const r = await setup.plants(['list', '-o', 'tsv']);
    expect(r.stdout).toBe('1\tCafé\t\n');
  });
});

describe('plants api in a pipe: a UTF-8 body, its bytes passed on as received', () => {
  const EACH = [
    ['ZWSP', '\u200b'],
    ['NBSP', '\u00a0'],
    ['soft hyphen', '\u00ad'],
    ['BOM', '\ufeff'],
    ['word joiner', '\u2060'],
    ['LRM', '\u200e'],
    ['tag characters', '\u{e0020}\u{e007f}'],
    ['U+3000', '\u3000'],
  ] as const;
  const echo = (req: IncomingMessage, between: string) => JSON.stringify({ echo: `é ${split(req, [between])} 植` });

  it.each(EACH.flatMap(([name, between]) => [200, 400].map((status) => [name, status, between] as const)))(
    'masks the token split by %s in a %i body, with --json and -i too',
    async (_name, status, between) => {
      respond = (req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(echo(req, between));
      for (const extra of [[], ['--json'], ['-i']]) {
        const r = await setup.plants(['api', ...extra, '/x']);
        expect(r.code).toBe(status === 200 ? 0 : 1);
        expect(r.stdout).toContain('{"echo":"é *** 植"}');
        expectNoToken(r);
      }
    },
  );

  it('masks the token when a chunk cuts the invisible character between its letters', async () => {
    respond = (req, res) => {
      const body = Buffer.from(echo(req, '\u200b'));
      // The cut falls inside the first zero-width space (E2 80 8B): after its first byte.
      const cut = body.indexOf(Buffer.from('\u200b')) + 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(body.subarray(0, cut), () => res.end(body.subarray(cut)));
    };
    const r = await setup.plants(['api', '/x']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"echo":"é *** 植"}');
    expectNoToken(r);
  });
});
