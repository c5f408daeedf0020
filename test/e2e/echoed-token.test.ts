import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { againstRawServer } from '../helpers/against-store.js';
import { TOKEN } from '../helpers/servers.js';

/**
 * A service that echoes the token back (as some gateways do with the
 * Authorization header), placed so that an excerpt's cut falls inside it.
 * runCli only catches the whole token; a cut one leaks a prefix, so every
 * piece of 8 characters is looked for.
 */
function expectNoPieceOfToken(text: string, where: string): void {
  for (let start = 0; start + 8 <= TOKEN.length; start += 1) {
    expect(text, `${where} holds ${TOKEN.slice(start, start + 8)}`).not.toContain(TOKEN.slice(start, start + 8));
  }
}

let respond: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
const setup = againstRawServer((req, res) => respond(req, res));
const plants = (args: string[]) => setup.plants(args);

/** The token as the server received it. */
const echoed = (req: IncomingMessage) => (req.headers.authorization ?? '').replace(/^Bearer /, '');

type Respond = (req: IncomingMessage, res: ServerResponse, into: number) => void;

/** Each way service text reaches the user as an excerpt: what the service sends, and what the start of the message looks like. */
const CASES: [string, string[], string, Respond][] = [
  [
    'a plain-text error body (cut at 200)',
    ['list', '--debug'],
    '→ 500 Internal Server Error: eeee',
    (req, res, into) =>
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`${'e'.repeat(200 - into)}${echoed(req)} tail`),
  ],
  [
    'a JSON message, the token written with a JSON escape (cut at 500)',
    ['list'],
    '→ 500 Internal Server Error: mmmm',
    (req, res, into) =>
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(`{"message":"${'m'.repeat(500 - into)}${echoed(req).replace('-', '\\u002d')} tail"}`),
  ],
  [
    'a problem document (cut at 500)',
    ['list'],
    '→ 502 Bad Gateway: Bad: dddd',
    (req, res, into) =>
      res
        .writeHead(502, { 'content-type': 'application/problem+json' })
        .end(JSON.stringify({ title: 'Bad', detail: `${'d'.repeat(500 - 'Bad: '.length - into)}${echoed(req)}` })),
  ],
  [
    'an HTML title, Bearer and the token (cut at 200)',
    ['list'],
    '→ 502 Bad Gateway: tttt',
    (req, res, into) =>
      res
        .writeHead(502, { 'content-type': 'text/html' })
        .end(`<html><title>${'t'.repeat(200 - 'Bearer '.length - into)}Bearer ${echoed(req)}</title></html>`),
  ],
  [
    'a response header in --debug (cut at 300)',
    ['list', '--debug'],
    'plants: debug:   x-echo: hhhh',
    (req, res, into) => res.writeHead(200, { 'x-echo': `${'h'.repeat(300 - into)}${echoed(req)}` }).end('[]'),
  ],
  [
    'a list body that is not JSON (cut at 200)',
    ['list'],
    'received text/plain that is not JSON: nnnn',
    (req, res, into) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`${'n'.repeat(200 - into)}${echoed(req)}`),
  ],
  [
    'a list that breaks off into text (cut at 200)',
    ['list'],
    '(missing comma between items) near: [{"name":"a"} nnnn',
    (req, res, into) => {
      const start = '[{"name":"a"} ';
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`${start}${'n'.repeat(200 - start.length - into)}${echoed(req)}`);
    },
  ],
  [
    'an item that is not JSON (cut at 200)',
    ['list'],
    'item 1 of the plant list is not valid JSON: nnnn',
    (req, res, into) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(`[${'n'.repeat(200 - into)}${echoed(req)}]`),
  ],
  [
    'an item that is not a plant (cut at 200)',
    ['list'],
    'is not a plant: it has no "name", expected a string: {"x":"iiii',
    (req, res, into) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`[{"x":"${'i'.repeat(200 - '{"x":"'.length - into)}${echoed(req)}"}]`),
  ],
  [
    'the Location of a redirect elsewhere (cut at 200)',
    ['list'],
    'redirected to http://elsewhere.invalid/rrrr',
    (req, res, into) => {
      const location = 'http://elsewhere.invalid/';
      res.writeHead(302, { location: `${location}${'r'.repeat(200 - location.length - into)}${echoed(req)}` }).end();
    },
  ],
  [
    'the error of delete --json, on stdout (cut at 500)',
    ['delete', '7', '--yes', '--json', '--debug'],
    '[{"id":"7","result":"failed","status":500,"error":{"error":9,"message":"mmmm',
    (req, res, into) =>
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 9, message: `${'m'.repeat(500 - into)}${echoed(req)}` })),
  ],
];

// How far into the token each cut falls: just past 8 characters, and one short of the whole.
describe.each([8, TOKEN.length - 1])('an echoed token, an excerpt cut %i characters into it, never leaks', (into) => {
  it.each(CASES)('%s', async (_name, args, shown, send) => {
    respond = (req, res) => send(req, res, into);
    const r = await plants(args);
    // Request ids are random: the text around them is what is checked.
    expect((r.stdout + r.stderr).replace(/,"request_id":("[^"]*"|null)/g, '')).toContain(shown);
    expectNoPieceOfToken(r.stdout, 'stdout');
    expectNoPieceOfToken(r.stderr, 'stderr');
  });
});

it('an echoed token as a response header name is masked in --debug', async () => {
  respond = (req, res) => res.writeHead(200, { [`x-${echoed(req)}`]: 'seen' }).end('[]');
  const r = await plants(['list', '--debug']);
  expect(r.code).toBe(0);
  // The name holds "token", so the value is masked too (a header named for a secret).
  expect(r.stderr).toContain('plants: debug:   x-***: ***\n');
});
