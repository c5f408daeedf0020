import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { againstRawServer } from '../helpers/against-store.js';
import { withoutRequestIds } from '../helpers/results.js';
import { TOKEN } from '../helpers/servers.js';

/** A password, query token or fragment token in a URL: never to be shown. */
const SECRET = 's3cret-pw-91xq';

let respond: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('[]');
const setup = againstRawServer((req, res) => respond(req, res));
const { plants } = setup;

function expectNoSecret(r: { stdout: string; stderr: string }): void {
  expect(r.stdout).not.toContain(SECRET);
  expect(r.stderr).not.toContain(SECRET);
}

/**
 * Base URLs that carry a secret, for an origin, and how each is shown: where
 * the token is not known yet (parsing settings), nothing of a query or
 * fragment; where it is (config get), each value of one (the third).
 */
const BASE_URLS: [string, (origin: string) => [string, string, string?]][] = [
  ['credentials', (origin) => [origin.replace('//', `//user:${SECRET}@`), origin.replace('//', '//***@')]],
  ['a query token', (origin) => [`${origin}/api?token=${SECRET}`, `${origin}/api?***`, `${origin}/api?token=***`]],
  [
    'a fragment token',
    (origin) => [`${origin}/#access_token=${SECRET}`, `${origin}/#***`, `${origin}/#access_token=***`],
  ],
  [
    'credentials and another scheme',
    (origin) => [origin.replace('http://', `ftp://user:${SECRET}@`), origin.replace('http://', 'ftp://***@')],
  ],
  ['credentials and no host', () => [`http://user:${SECRET}@`, 'http://***@']],
];

/** Each way a base URL reaches a message, and the server or address behind it. */
const PATHS: [string, string[], 'refused' | number][] = [
  ['a 404', ['list'], 404],
  ['a 500', ['list'], 500],
  ['a refused connection', ['list'], 'refused'],
  ['--debug', ['--debug', 'list'], 200],
  ['auth status', ['auth', 'status'], 200],
];

describe.each(BASE_URLS)('a base URL with %s', (_kind, make) => {
  it.each(PATHS)('is refused, masked, before any request: %s', async (_path, args, answer) => {
    respond = (_req, res) => res.writeHead(answer === 'refused' ? 200 : answer).end('[]');
    const [url, masked] = make(answer === 'refused' ? 'http://127.0.0.1:9' : setup.server.url);
    const r = await plants(args, { env: { PLANTS_BASE_URL: url } });
    expect(r.code).toBe(2);
    expectNoSecret(r);
    expect(r.stderr).toContain(`plants: invalid base URL "${masked}" (PLANTS_BASE_URL): `);
    expect(setup.server.requests).toEqual([]);
  });

  it('is refused, masked, as --base-url and by config set', async () => {
    const [url, masked] = make(setup.server.url);
    for (const args of [
      ['--base-url', url, 'list'],
      ['config', 'set', 'base-url', url],
    ]) {
      const r = await plants(args);
      expect(r.code).toBe(2);
      expectNoSecret(r);
      expect(r.stderr).toContain(`invalid base URL "${masked}"`);
    }
    expect(setup.server.requests).toEqual([]);
  });

  it('stored by hand in the config file, is masked by config get, list and profiles', async () => {
    const [url, whenUnknown, masked = whenUnknown] = make(setup.server.url);
    writeFileSync(join(setup.dir.path, 'config.json'), JSON.stringify({ profiles: { default: { 'base-url': url } } }), {
      mode: 0o600,
    });
    for (const args of [
      ['config', 'get', 'base-url'],
      ['config', 'list'],
      ['config', 'profiles'],
    ]) {
      const r = await plants(args, { env: { PLANTS_BASE_URL: undefined } });
      expect(r.code).toBe(0);
      expectNoSecret(r);
      expect(r.stdout).toContain(masked);
    }
    const inTerminal = await plants(['config', 'get', 'base-url'], { tty: true, env: { PLANTS_BASE_URL: undefined } });
    expect(inTerminal.stdout).toBe(`${masked}\r\n`);
  });
});

describe('an invalid base URL that holds the token', () => {
  // Refused before the token is looked up: the token is masked all the same (runCli fails a run that shows it).
  const invalid = (origin: string) => [`${origin}/${TOKEN}/../x`, `${origin}/***/../x`];
  const storeToken = () =>
    writeFileSync(join(setup.dir.path, 'config.json'), JSON.stringify({ profiles: { default: { token: TOKEN } } }), {
      mode: 0o600,
    });

  it.each([
    ['--base-url, the token from PLANTS_TOKEN', (url: string) => ['--base-url', url, 'list'], {}, '--base-url'],
    ['PLANTS_BASE_URL, the token from PLANTS_TOKEN', () => ['list', '--json'], {}, 'PLANTS_BASE_URL'],
    [
      '--base-url, the token in the config file',
      (url: string) => ['--base-url', url, 'prune', '--tag', 'x', '--yes'],
      { PLANTS_TOKEN: undefined },
      '--base-url',
    ],
    [
      'PLANTS_BASE_URL, the token in the config file',
      () => ['delete', '7', '--yes'],
      { PLANTS_TOKEN: undefined },
      'PLANTS_BASE_URL',
    ],
  ])('is refused with the token masked: %s', async (_kind, args, env: Record<string, undefined>, source) => {
    storeToken();
    const [url, masked] = invalid(setup.server.url);
    const r = await setup.plants(args(url!), { env: { PLANTS_BASE_URL: url, ...env } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`plants: invalid base URL "${masked}" (${source}): it must not contain`);
    expect(setup.server.requests).toEqual([]);
  });

  it('is refused with the token masked by config set', async () => {
    const [url, masked] = invalid(setup.server.url);
    const fromEnv = await plants(['config', 'set', 'base-url', url!]);
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain(`plants: invalid base URL "${masked}": it must not contain`);
    storeToken();
    const fromFile = await plants(['config', 'set', 'base-url', url!], { env: { PLANTS_TOKEN: undefined } });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain(`plants: invalid base URL "${masked}": it must not contain`);
  });

  it('stored by hand, is refused with the token masked', async () => {
    const [url, masked] = invalid(setup.server.url);
    writeFileSync(
      join(setup.dir.path, 'config.json'),
      JSON.stringify({ profiles: { default: { 'base-url': url, token: TOKEN } } }),
      { mode: 0o600 },
    );
    const r = await plants(['list'], { env: { PLANTS_TOKEN: undefined, PLANTS_BASE_URL: undefined } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`plants: invalid base URL "${masked}" (config file `);
  });
});

describe('a redirect to a URL with secrets in it', () => {
  const target = () =>
    `${setup.server.url.replace('//', `//user:${SECRET}@`)}/v2/plants?limit=1&sig=${SECRET}#t=${SECRET}`;
  const shown = () => `${setup.server.url.replace('//', '//***@')}/v2/plants?limit=1&sig=***#t=***`;
  const redirectThen = (status: number) => (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/v2/')) res.writeHead(req.method === 'DELETE' ? 307 : 302, { location: target() }).end();
    else res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":1,"message":"nope"}');
  };

  it.each([
    [404, 'Not Found'],
    [500, 'Internal Server Error'],
  ])('is followed within the origin, and masked in the error of a %i', async (status, text) => {
    respond = redirectThen(status);
    const r = await plants(['list', '--limit', '1']);
    expect(r.code).toBe(1);
    expectNoSecret(r);
    const hint = status === 404 ? `; check the base URL (${setup.server.url})` : '';
    expect(r.stderr).toBe(`plants: GET ${shown()} → ${status} ${text}: nope (error 1)${hint}\n`);
    expect(setup.server.requests.map((q) => q.path)).toEqual(['/plants?limit=1', `/v2/plants?limit=1&sig=${SECRET}`]);
  });

  it('is masked in the --debug log', async () => {
    respond = redirectThen(200);
    const r = await plants(['--debug', 'list', '--limit', '1']);
    expectNoSecret(r);
    expect(r.stderr).toContain(`plants: debug: following 302 Found to ${shown()}\n`);
    expect(r.stderr).toContain(`plants: debug: → GET ${shown()}\n`);
    expect(r.stderr).toContain(`plants: debug:   location: ${shown()}\n`);
  });

  it('of a DELETE is not followed, and masked in the message and in delete --json', async () => {
    respond = redirectThen(500);
    const r = await plants(['delete', '7', '--yes', '--json']);
    expectNoSecret(r);
    const message = `redirected to ${shown()}; not followed: a DELETE goes only to the address asked for, which the protections and the journal name (if the service has moved, point the base URL at its new address)`;
    expect(r.stderr).toContain(`plants: DELETE ${setup.server.url}/plants/7 → 307 Temporary Redirect: ${message}\n`);
    expect(withoutRequestIds(JSON.parse(r.stdout))).toEqual([
      { id: '7', result: 'failed', status: 307, error: { error: null, message } },
    ]);
    expect(setup.server.requests.map((q) => q.path)).toEqual(['/plants/7']);
  });

  it('to another origin is not followed, and its Location is masked', async () => {
    respond = (_req, res) =>
      res.writeHead(302, { location: `http://user:${SECRET}@elsewhere.invalid/?token=${SECRET}` }).end();
    const r = await plants(['list']);
    expect(r.code).toBe(1);
    expectNoSecret(r);
    expect(r.stderr).toContain('redirected to http://***@elsewhere.invalid/?token=***, another origin; not followed');
  });
});
