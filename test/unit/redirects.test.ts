import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure, testClient } from '../helpers/client.js';
import { PlantStoreClient, type PlantStoreClientOptions } from '../../src/api/client.js';
import { HttpError } from '../../src/shared/errors.js';

// Which redirects the client follows (same origin, at most five; a DELETE only
// 307 and 308), which requests it then sends, and what it says otherwise.
const ORIGIN = 'http://plants.test';
const TOKEN = 'redirect-token-9';
let agent: MockAgent;
let debug: string[];

function client(options: Partial<PlantStoreClientOptions> = {}): PlantStoreClient {
  return testClient(ORIGIN, { token: TOKEN, dispatcher: agent, debug: (line) => debug.push(line), ...options });
}

function redirect(path: string, status: number, location?: string, method = 'GET'): void {
  agent
    .get(ORIGIN)
    .intercept({ path, method })
    .reply(status, '', { headers: location === undefined ? {} : { location } });
}

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  debug = [];
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
  expect(debug.join('\n')).not.toContain(TOKEN);
});

describe('a list request follows same-origin redirects', () => {
  it.each([301, 302, 303, 307, 308])('%d: asks again where Location points, path and query kept', async (status) => {
    redirect('/plants', status, '/v2/plants?limit=5&page=2');
    agent
      .get(ORIGIN)
      .intercept({ path: '/v2/plants', method: 'GET', query: { limit: '5', page: '2' } })
      .reply(200, [{ name: 'Fern' }]);
    expect(await client().listPlants()).toEqual([{ name: 'Fern' }]);
  });

  it('resolves a relative Location against the URL that answered', async () => {
    redirect('/plants', 302, 'https://plants.test/elsewhere');
    redirect('/plants', 302, 'moved');
    agent.get(ORIGIN).intercept({ path: '/moved', method: 'GET' }).reply(200, []);
    // The first goes to another origin (https) and is not followed.
    expect((await failure<HttpError>(client().listPlants())).message).toMatch(/another origin; not followed/);
    expect(await client().listPlants()).toEqual([]);
  });

  it('says in --debug where it goes, its query masked, and names the masked URL in a later failure', async () => {
    redirect('/plants', 302, '/next?sig=secret1');
    agent
      .get(ORIGIN)
      .intercept({ path: '/next', method: 'GET', query: { sig: 'secret1' } })
      .reply(500, 'boom');
    const err = await failure<HttpError>(client().listPlants());
    expect(err.message).toBe('GET http://plants.test/next?sig=*** → 500 Internal Server Error: boom');
    expect(debug).toContain('following 302 Found to http://plants.test/next?sig=***');
    expect(debug).toContain('→ GET http://plants.test/next?sig=***');
    expect(debug.join('\n')).not.toContain('secret1');
  });

  it('follows five redirects, not six', async () => {
    for (let i = 0; i < 5; i += 1) redirect(i === 0 ? '/plants' : `/r${i}`, 302, `/r${i + 1}`);
    agent.get(ORIGIN).intercept({ path: '/r5', method: 'GET' }).reply(200, []);
    expect(await client().listPlants()).toEqual([]);

    for (let i = 0; i < 6; i += 1) redirect(i === 0 ? '/plants' : `/r${i}`, 302, `/r${i + 1}`);
    const err = await failure<HttpError>(client().listPlants());
    expect(err.message).toBe('GET http://plants.test/r5 → 302 Found: more than 5 redirects (5 followed); last to /r6');
  });
});

describe('redirects that are not followed', () => {
  it('a redirect without a Location', async () => {
    redirect('/plants', 302);
    expect((await failure<HttpError>(client().listPlants())).message).toBe(
      'GET http://plants.test/plants → 302 Found: redirect without a Location header',
    );
  });

  it('a Location that is no URL', async () => {
    redirect('/plants', 302, 'http://[broken');
    expect((await failure<HttpError>(client().listPlants())).message).toBe(
      'GET http://plants.test/plants → 302 Found: redirect to http://[broken not followed',
    );
  });

  it('to another origin, the Location masked', async () => {
    redirect('/plants', 307, 'http://user:pw@other.test/plants?key=k1');
    const err = await failure<HttpError>(client().listPlants());
    expect(err.message).toBe(
      'GET http://plants.test/plants → 307 Temporary Redirect: redirected to http://***@other.test/plants?key=***, ' +
        'another origin; not followed, since the request carries the token (point the base URL at the final address)',
    );
    expect(err.status).toBe(307);
  });

  it.each([
    [
      304,
      '304 Not Modified: not a redirect but the answer to a conditional request, which plants never sends (no If-None-Match or If-Modified-Since)',
    ],
    [
      300,
      '300 Multiple Choices: a choice of representations (the service suggests /a), which plants does not make; not followed',
    ],
    [
      305,
      '305 Use Proxy: a request to go through a proxy, which plants takes only from HTTPS_PROXY or HTTP_PROXY, never from a response; not followed',
    ],
    [
      399,
      '399 Unknown Status: a 3xx status that is not a redirect plants follows (301, 302, 303, 307, 308); Location: /a',
    ],
  ])('%d is no redirect, and says what it is', async (status, said) => {
    redirect('/plants', status, '/a');
    expect((await failure<HttpError>(client().listPlants())).message).toBe(`GET http://plants.test/plants → ${said}`);
  });

  it('300 and other 3xx without a Location', async () => {
    redirect('/plants', 300);
    redirect('/plants', 310);
    expect((await failure<HttpError>(client().listPlants())).message).toBe(
      'GET http://plants.test/plants → 300 Multiple Choices: a choice of representations, which plants does not make; not followed',
    );
    expect((await failure<HttpError>(client().listPlants())).message).toBe(
      'GET http://plants.test/plants → 310 Unknown Status: a 3xx status that is not a redirect plants follows (301, 302, 303, 307, 308)',
    );
  });
});

describe('a DELETE follows no redirect', () => {
  it.each([301, 302, 303, 307, 308])('%d: not followed; the error says where it pointed, and why', async (status) => {
    redirect('/plants/1', status, '/v2/plants/1', 'DELETE');
    // No interceptor for /v2/plants/1: a DELETE sent there would fail otherwise (the network is off).
    const err = await failure<HttpError>(client().deletePlant('1'));
    expect(err.message).toMatch(
      new RegExp(
        `^DELETE http://plants.test/plants/1 → ${status} [A-Za-z ]+: redirected to /v2/plants/1; not followed: a DELETE goes only to the address asked for, which the protections and the journal name \\(if the service has moved, point the base URL at its new address\\)$`,
      ),
    );
  });
});

describe('a redirect from https to http on the same host is never followed with the token', () => {
  const SECURE = 'https://plants.test';
  const secure = () => testClient(SECURE, { token: TOKEN, dispatcher: agent, debug: (line) => debug.push(line) });
  const redirectSecure = (path: string, status: number, location: string, method = 'GET') =>
    agent.get(SECURE).intercept({ path, method }).reply(status, '', { headers: { location } });

  it.each([
    [301, 'GET', 'http://plants.test/plants'],
    [302, 'GET', 'http://plants.test:443/plants'],
    [303, 'GET', 'HTTP://PLANTS.TEST/v2/plants'],
  ])('%d to %s %s: refused as another origin, nothing sent there', async (status, method, location) => {
    const path = method === 'GET' ? '/plants' : '/plants/1';
    redirectSecure(path, status, location, method);
    // No interceptor for http://plants.test: a request there would fail otherwise (the network is off).
    const err = await failure<HttpError>(method === 'GET' ? secure().listPlants() : secure().deletePlant('1'));
    expect(err).toBeInstanceOf(HttpError);
    expect(err.message).toMatch(/another origin; not followed, since the request carries the token/);
    expect(debug.join('\n')).not.toMatch(/following/);
  });

  it('while https on the same host and port is followed, however written', async () => {
    redirectSecure('/plants', 302, 'https://PLANTS.test:443/v2/plants');
    agent.get(SECURE).intercept({ path: '/v2/plants', method: 'GET' }).reply(200, []);
    redirectSecure('/plants', 302, '//plants.test/v3/plants');
    agent.get(SECURE).intercept({ path: '/v3/plants', method: 'GET' }).reply(200, []);
    expect(await secure().listPlants()).toEqual([]);
    expect(await secure().listPlants()).toEqual([]);
  });
});
