import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { againstRawServer } from '../helpers/against-store.js';
import { ECHO_FORMS, expectNoFormOf } from '../helpers/token-forms.js';
import type { JsonError } from '../helpers/cli.js';

/**
 * A service that echoes the token in every form of issue #22 (percent,
 * base64 at any alignment, JSON and HTML escapes, split across lines),
 * and of issue #40 (split by invisible characters, raw or encoded):
 * in error bodies, plant names, headers and redirect locations. No form
 * may reach stdout, stderr (--debug and the JSON error line included), the
 * journal or `plants history`. The token has the characters every
 * encoding changes.
 */
const TOKEN = 'TOP+SECRET/abc=def==';

/** How the service writes the token it received, this test. */
let echo: (token: string) => string = (token) => token;
/** Whether the list fails (500), to see the error of a list. */
let listFails = false;
/** The list redirects to another path (/v2/<echo>/plants), which prune refuses. */
let listMoves = false;

const setup = againstRawServer((req, res) => respond(req, res));
const plants = (args: string[], env: Record<string, string | undefined> = {}, tty = false) =>
  setup.plants(args, {
    env: { PLANTS_TOKEN: TOKEN, PLANTS_STATE_DIR: join(setup.dir.path, 'state'), ...env },
    tty,
    answers: tty ? [{ when: '[y/N]', send: 'n\r' }] : undefined,
  });

function respond(req: IncomingMessage, res: ServerResponse): void {
  const echoed = echo((req.headers.authorization ?? '').replace(/^Bearer /, ''));
  // Header values hold no line breaks, and no character outside Latin-1 or control (percent-encoded there).
  const inHeader = echoed.replace(/\s+/g, ' ').replace(/[^\t\x20-\x7e\x80-\xff]/gu, (char) => encodeURIComponent(char));
  const path = req.url!.slice(req.url!.indexOf('/plants'));
  const json = { 'content-type': 'application/json', 'x-echo': inHeader };
  if (req.method === 'GET' && listMoves && !req.url!.startsWith('/v2/')) {
    // To another path: followed, and refused by prune, which names both addresses.
    res.writeHead(308, { location: `/v2/${inHeader}/plants?${inHeader}` }).end();
  } else if (req.method === 'GET' && !/\/plants\/(\?|$)/.test(req.url!) && !listFails && !listMoves) {
    // Within the origin, the same list (a trailing slash added): followed, and named in --debug (as the URL parser writes it).
    res.writeHead(308, { location: `${req.url!.replace(/\?.*/, '')}/?${inHeader}` }).end();
  } else if (req.method === 'GET' && listFails) {
    res
      .writeHead(500, {
        'content-type': 'text/plain',
        'www-authenticate': `Bearer error="invalid_token", error_description="${inHeader}"`,
        'x-echo': inHeader,
      })
      .end(`upstream refused ${echoed} (end)`);
  } else if (req.method === 'GET') {
    res.writeHead(200, { ...json, 'set-cookie': `sid=${inHeader}; Path=/` }).end(
      JSON.stringify([
        { id: '1', name: `one ${echoed}`, tag: echoed },
        { id: '2', name: 'two', tag: 't' },
        { id: '3', name: 'three', tag: 't' },
      ]),
    );
  } else if (path === '/plants/1') {
    res.writeHead(500, json).end(JSON.stringify({ error: 9, message: `refused ${echoed}` }));
  } else if (path === '/plants/2') {
    // Elsewhere: not followed; its Location is shown (a parameter is cut at its first `=`: the token must be masked first).
    res.writeHead(307, { location: `http://elsewhere.invalid/cb/${inHeader}?${inHeader}#${inHeader}` }).end();
  } else {
    // Within the origin, but a DELETE follows no redirect: its Location is shown.
    res.writeHead(308, { location: `/v2/${inHeader}/plants/3?${inHeader}` }).end();
  }
}

describe.each(ECHO_FORMS)('the token echoed %s', (_name, form) => {
  it('is in no output, journal record or history line', async () => {
    echo = form;
    listFails = false;
    const prune = await plants(['prune', '--all', '--yes', '--json', '--debug']);
    expect(prune.code).toBe(1);
    // What the service said shows, the token masked.
    const results = JSON.parse(prune.stdout) as { id: string; result: string; error?: { message: string } }[];
    expect(results.map(({ id, result }) => [id, result])).toEqual([
      ['1', 'failed'],
      ['2', 'failed'],
      ['3', 'failed'],
    ]);
    expect(results[0]!.error!.message).toMatch(/^refused .*\*\*\*/);
    expect(results[1]!.error!.message).toMatch(/^redirected to http:\/\/elsewhere\.invalid\/cb\/.*\*\*\*/);
    expect(prune.stderr).toMatch(/plants: debug: {3}x-echo: .*\*\*\*/);
    expect(prune.stderr).toMatch(/plants: debug: {3}set-cookie: sid=\*\*\*; Path=\//);
    expect(prune.stderr).toMatch(/plants: debug: following 308 Permanent Redirect to .*\/plants\/\?\*\*\*/);
    expect(results[2]!.error!.message).toMatch(
      /^redirected to \/v2\/\S*\?\S*\*\*\*\S*; not followed: a DELETE goes only/,
    );
    expect(prune.stderr).toMatch(
      /plants: DELETE http:\/\/127\.0\.0\.1:\d+\/plants\/3 → 308 Permanent Redirect: redirected to \/v2\//,
    );
    const errorLine = JSON.parse(prune.stderr.trimEnd().split('\n').pop()!) as JsonError;
    expect(errorLine.error.code).toBeDefined();

    const journal = readFileSync(join(setup.dir.path, 'state', 'deletions.jsonl'), 'utf8');
    const run = (JSON.parse(journal.split('\n')[0]!) as { run: string }).run;
    expect(journal).toMatch(/"name":"one .*\*\*\*/);
    const history = await plants(['history', run, '-o', 'json']);
    expect(history.code).toBe(0);
    expect(history.stdout).toMatch(/"name": ?"one .*\*\*\*/);

    // The list itself, in every format: the plant that holds the token shows `***` in its place.
    const listed: Record<string, string> = {};
    for (const format of ['json', 'ndjson', 'tsv', 'csv', 'table']) {
      const r = await plants(['list', '-o', format]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/one .*\*\*\*/);
      listed[`list -o ${format}`] = r.stdout + r.stderr;
    }

    // A list moved to another path, the token in it: prune refuses, naming both addresses, masked.
    listMoves = true;
    const moved = await plants(['prune', '--all', '--yes']);
    listMoves = false;
    expect(moved.code).toBe(2);
    // (What the URL parser leaves of some forms, `\u0054` as `/u0054`, is no longer the token; the check below sees to that.)
    expect(moved.stderr).toMatch(/^plants: the service redirected the list from \S+\/plants to \S+\/v2\//);

    listFails = true;
    const list = await plants(['list', '-o', 'json', '--debug']);
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(/plants: GET \S+ → 500 Internal Server Error: upstream refused .*\*\*\*.* \(end\)/);
    expect(list.stderr).toContain('www-authenticate: Bearer error=***, error_description=***');
    expect((JSON.parse(list.stderr.trimEnd().split('\n').pop()!) as JsonError).error.message).toMatch(/\*\*\*/);

    for (const [where, text] of Object.entries({
      'prune stdout': prune.stdout,
      'prune stderr': prune.stderr,
      'moved prune stderr': moved.stderr,
      journal,
      'history stdout': history.stdout,
      'history stderr': history.stderr,
      'list stdout': list.stdout,
      'list stderr': list.stderr,
      ...listed,
    })) {
      expectNoFormOf(TOKEN, text, where);
    }
  });
});

describe('the token as a path segment of the base URL', () => {
  it('is masked in the confirmation, the journal, history and auth status', async () => {
    echo = () => 'nothing';
    listFails = false;
    const base = `${setup.server.url}/${TOKEN}`;
    const env = { PLANTS_BASE_URL: base };
    const asked = await plants(['delete', '3'], env, true);
    expect(asked.stdout).toMatch(/Delete plant 3 from 127\.0\.0\.1:\d+\/\*\*\* \(profile default\)\? \[y\/N\]/);
    const prune = await plants(['prune', '--all', '--yes', '--json'], env);
    expect(prune.code).toBe(1);
    const journal = readFileSync(join(setup.dir.path, 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toContain(`"base_url":"${setup.server.url}/***"`);
    const history = await plants(['history', '-o', 'json'], env);
    expect(history.stdout).toContain(`"base_url":"${setup.server.url}/***"`);
    const status = await plants(['auth', 'status'], env);
    expect(status.stdout).toContain(`Base URL: ${setup.server.url}/*** (from PLANTS_BASE_URL)`);
    for (const r of [asked, prune, history, status]) {
      expectNoFormOf(TOKEN, r.stdout + r.stderr, r === asked ? 'the confirmation' : 'a command');
    }
    expectNoFormOf(TOKEN, journal, 'the journal');
  });
});
