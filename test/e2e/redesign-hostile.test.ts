import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { againstRawServer } from '../helpers/against-store.js';

/**
 * Hostile services met after the redesign moved masking to the writers:
 * each case once let the token through (runCli fails a run whose output
 * holds it).
 */
let respond: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
const setup = againstRawServer((req, res) => respond(req, res));

describe('plants api, a body that says it is UTF-16 but is ASCII', () => {
  // Read as UTF-16, ASCII is no text the masker finds; its bytes once went to the pipe as they came.
  it.each([
    ['a declared charset=utf-16le', 'text/plain; charset=utf-16le', Buffer.alloc(0), 0],
    ['a declared charset=utf-16, with an error status', 'application/json; charset=utf-16', Buffer.alloc(0), 1],
    ['a UTF-16 byte order mark', 'text/plain', Buffer.from([0xff, 0xfe, 0x41]), 0],
  ])('masks an echoed Authorization header after %s', async (_, type, start, code) => {
    respond = (req, res) =>
      res
        .writeHead(code === 0 ? 200 : 500, { 'content-type': type })
        .end(Buffer.concat([start, Buffer.from(`your token: ${req.headers.authorization ?? ''}\n`)]));
    const result = await setup.plants(['api', '/echo']);
    expect(result.code).toBe(code);
    expect(result.stdout).toContain('your token: Bearer ***\n');
  });
});
