import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure, testClient } from '../helpers/client.js';
import { PlantStoreClient, type PlantStoreClientOptions } from '../../src/api/client.js';
import { saysPlantMissing } from '../../src/api/delete-plant.js';
import { movedList, namesNextPage } from '../../src/api/plant-list.js';
import type { Target } from '../../src/http/attempt.js';
import { forgetSecrets } from '../../src/secrets/registry.js';
import { ExitCode, HttpError } from '../../src/shared/errors.js';

// The plant store's rules, decided in api/ over what the transport answered:
// what a 404 or 410 means, when a DELETE's plant is gone, when a list is
// another address's, and what `plants api` is given.
const ORIGIN = 'http://plants.test';
const TOKEN = 'api-rules-token-2';
const ERROR_OBJECT = '{"error":404,"message":"no such plant"}';
const JSON_TYPE = { 'content-type': 'application/json' };
let agent: MockAgent;
let debug: string[];

function client(options: Partial<PlantStoreClientOptions> = {}): PlantStoreClient {
  return testClient(ORIGIN, {
    token: TOKEN,
    dispatcher: agent,
    debug: (line) => debug.push(line),
    ...options,
  });
}

const pool = () => agent.get(ORIGIN);
const target = (path: string): Target => ({ origin: ORIGIN, path, href: `${ORIGIN}${path}` });

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  debug = [];
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
  expect(debug.join('\n')).not.toContain(TOKEN);
  forgetSecrets();
});

describe('saysPlantMissing', () => {
  it('a 410 says so with or without a body', () => {
    expect(saysPlantMissing(410, '', undefined)).toBe(true);
    expect(saysPlantMissing(410, '<html>gone</html>', 'text/html')).toBe(true);
  });

  it("a 404 only with the service's Error object", () => {
    expect(saysPlantMissing(404, ERROR_OBJECT, 'application/json')).toBe(true);
    expect(saysPlantMissing(404, '{"error":"not_found","message":"x"}', 'application/json')).toBe(false);
    expect(saysPlantMissing(404, '', undefined)).toBe(false);
    expect(saysPlantMissing(404, '404 page not found', 'text/plain')).toBe(false);
  });

  it('no other status, whatever its body', () => {
    expect(saysPlantMissing(400, ERROR_OBJECT, 'application/json')).toBe(false);
    expect(saysPlantMissing(200, ERROR_OBJECT, 'application/json')).toBe(false);
    expect(saysPlantMissing(411, '', undefined)).toBe(false);
  });
});

describe('namesNextPage', () => {
  it.each([
    ['<http://plants.test/plants?page=2>; rel="next"', true],
    ['<http://plants.test/plants?page=2>; rel=next', true],
    ['<http://plants.test/plants?page=2>; rel="prev next"', true],
    ['<a>; rel=next, <b>; rel=last', true],
    ['<http://plants.test/plants?page=1>; rel="prev"', false],
    ['<a>; rel="nextpage"', false],
    ['<a>; rel=nexts', false],
    ['', false],
  ])('%s: %s', (link, expected) => {
    expect(namesNextPage(link)).toBe(expected);
  });

  it('no Link header names none', () => {
    expect(namesNextPage(undefined)).toBe(false);
  });
});

describe('movedList', () => {
  it('the same collection, a trailing slash or a query aside, is not moved', () => {
    expect(movedList(target('/plants'), target('/plants'))).toBeUndefined();
    expect(movedList(target('/plants?limit=5'), target('/plants/'))).toBeUndefined();
    expect(movedList(target('/plants'), target('/plants?page=1#top'))).toBeUndefined();
  });

  it('another path is another address: refused for a deletion, warned of for a list', () => {
    expect(movedList(target('/plants?limit=5'), target('/v2/plants?limit=5'))).toEqual({
      refusal:
        'the service redirected the list from http://plants.test/plants to http://plants.test/v2/plants: those are the plants of another address, and a DELETE goes only to http://plants.test/plants/<id>, never where a redirect points; point the base URL at the address the service moved to; nothing was deleted',
      warning:
        'the service redirected the list from http://plants.test/plants to http://plants.test/v2/plants; delete and prune refuse to act on it: point the base URL at the address the service moved to',
    });
  });
});

describe('deletePlant after a lost answer', () => {
  it('a 404 with the Error object after a 502 is success: the plant is gone', async () => {
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(502, 'bad gateway', { headers: { 'retry-after': '0' } });
    pool().intercept({ path: '/plants/7', method: 'DELETE' }).reply(404, ERROR_OBJECT, { headers: JSON_TYPE });
    expect(await client({ retries: 1 }).deletePlant('7')).toEqual({
      status: 404,
      afterLostResponse: true,
      attempts: 2,
    });
    expect(debug).toContain('404 after a lost response or a 500: an earlier attempt most likely deleted it');
  });

  it('a 410 after a 500 is gone too', async () => {
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(500, 'oops', { headers: { 'retry-after': '0' } });
    pool().intercept({ path: '/plants/7', method: 'DELETE' }).reply(410, '');
    expect(await client({ retries: 1 }).deletePlant('7')).toEqual({
      status: 410,
      afterLostResponse: true,
      attempts: 2,
    });
  });

  it("a router's 404 after a 502 leaves the outcome unknown: an error, not counted as a missing plant", async () => {
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(502, 'bad gateway', { headers: { 'retry-after': '0' } });
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(404, 'not here', { headers: { 'content-type': 'text/plain' } });
    const err = await failure<HttpError>(client({ retries: 1 }).deletePlant('7'));
    expect(err).toBeInstanceOf(HttpError);
    expect(err.exitCode).toBe(ExitCode.failure);
    expect(err.responseLost).toBe(true);
    expect(err.attempts).toBe(2);
    expect(err.message).toBe(
      'DELETE http://plants.test/plants/7 → 404 Not Found: not here (after 2 attempts); with no Error object from the service, as a router or proxy answers a wrong address: not counted as a missing plant; check the base URL (http://plants.test)',
    );
    // Its body was read once, for the rule, and shown once.
    expect(debug.filter((line) => line === '  body: not here')).toHaveLength(1);
  });

  it('a 404 with the Error object with no lost answer is a missing plant (exit 3)', async () => {
    pool().intercept({ path: '/plants/7', method: 'DELETE' }).reply(404, ERROR_OBJECT, { headers: JSON_TYPE });
    const err = await failure<HttpError>(client().deletePlant('7'));
    expect(err.exitCode).toBe(ExitCode.notFound);
    expect(err.attempts).toBe(1);
    expect(err.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('what plants api is given', () => {
  it('send: any status, its body unread, redirects within the origin followed', async () => {
    pool()
      .intercept({ path: '/a', method: 'GET' })
      .reply(302, '', { headers: { location: '/b' } });
    pool().intercept({ path: '/b', method: 'GET' }).reply(418, 'teapot');
    const api = client();
    const response = await api.send({ method: 'GET', target: target('/a') });
    expect(response.attempt.statusCode).toBe(418);
    expect(response.gone).toBeUndefined();
    expect((await api.readBody(response)).toString()).toBe('teapot');
  });

  it('send: retries ended on a status worth another try is an error, saying why', async () => {
    pool()
      .intercept({ path: '/a', method: 'GET' })
      .reply(503, 'busy', { headers: { 'retry-after': '120' } });
    const err = await failure<HttpError>(
      client({ retries: 1 }).send({ method: 'GET', target: target('/a'), requestId: 'id-5' }),
    );
    expect(err).toBeInstanceOf(HttpError);
    expect(err.message).toBe(
      'GET http://plants.test/a → 503 Service Unavailable: busy (the service asks to be retried in 120 s, later than plants waits: 30 s)',
    );
    expect(err.requestId).toBe('id-5');
    expect(err.attempts).toBe(1);
  });

  it('sendDelete: never redirected, and gone after a lost answer', async () => {
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(307, '', { headers: { location: '/plants/8' } });
    const api = client();
    const moved = await api.sendDelete({ method: 'DELETE', target: target('/plants/7') });
    expect(moved.attempt.statusCode).toBe(307);
    expect(moved.redirectsOff).toBe(true);
    moved.attempt.close();
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(504, '', { headers: { 'retry-after': '0' } });
    pool().intercept({ path: '/plants/7', method: 'DELETE' }).reply(404, ERROR_OBJECT, { headers: JSON_TYPE });
    const gone = await client({ retries: 1 }).sendDelete({ method: 'DELETE', target: target('/plants/7') });
    expect(gone.gone).toBe(true);
    expect(gone.text).toBe(ERROR_OBJECT);
    gone.attempt.close();
  });

  it('sendDelete: a 404 with no lost answer is left to errorFor, its body unread', async () => {
    pool().intercept({ path: '/plants/7', method: 'DELETE' }).reply(404, ERROR_OBJECT, { headers: JSON_TYPE });
    const api = client();
    const response = await api.sendDelete({ method: 'DELETE', target: target('/plants/7') });
    expect(response.gone).toBeUndefined();
    expect(response.text).toBeUndefined();
    const text = (await api.readBody(response)).toString();
    const asPlant = api.errorFor(response, text, true) as HttpError;
    expect(asPlant.exitCode).toBe(ExitCode.notFound);
    expect(asPlant.message).toBe('DELETE http://plants.test/plants/7 → 404 Not Found: no such plant (error 404)');
    const asAddress = api.errorFor(response, text) as HttpError;
    expect(asAddress.exitCode).toBe(ExitCode.failure);
    expect(asAddress.message).toBe(
      'DELETE http://plants.test/plants/7 → 404 Not Found: no such plant (error 404); check the base URL (http://plants.test)',
    );
  });
});

describe('a list that redirects led elsewhere', () => {
  const movedThere = () => {
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(302, '', { headers: { location: '/v2/plants' } });
    pool().intercept({ path: '/v2/plants', method: 'GET' }).reply(200, '[{"id":1,"name":"a"}]', { headers: JSON_TYPE });
  };

  it('is refused for a deletion, before anything is deleted', async () => {
    movedThere();
    const warnings: string[] = [];
    const err = await failure(
      client({ warn: (text) => warnings.push(text) })
        .streamPlants({ forDeletion: true })
        .next(),
    );
    expect(err.name).toBe('RefusedError');
    expect(err.message).toBe(movedList(target('/plants'), target('/v2/plants'))!.refusal);
    expect(warnings).toEqual([]);
  });

  it('is warned of once a client for a list, and listed', async () => {
    const warnings: string[] = [];
    const lister = client({ warn: (text) => warnings.push(text) });
    movedThere();
    expect(await lister.listPlants()).toEqual([{ id: 1, name: 'a' }]);
    movedThere();
    expect(await lister.listPlants()).toEqual([{ id: 1, name: 'a' }]);
    expect(warnings).toEqual([movedList(target('/plants'), target('/v2/plants'))!.warning]);
  });

  it('with nowhere to warn, moved or paged, is listed all the same', async () => {
    movedThere();
    expect(await client().listPlants()).toEqual([{ id: 1, name: 'a' }]);
    pool()
      .intercept({ path: '/plants', method: 'GET' })
      .reply(200, '[]', { headers: { ...JSON_TYPE, link: '</plants?page=2>; rel="next"' } });
    expect(await client().listPlants()).toEqual([]);
  });
});

describe("a DELETE's 2xx", () => {
  it('--debug shows its body', async () => {
    pool().intercept({ path: '/plants/7', method: 'DELETE' }).reply(200, '{"deleted":true}', { headers: JSON_TYPE });
    expect(await client().deletePlant('7')).toEqual({ status: 200, afterLostResponse: false, attempts: 1 });
    expect(debug).toContain('  body: {"deleted":true}');
  });

  it('is no web page when the markup starts past the first 8 KiB', async () => {
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(200, `${'x'.repeat(8192)}<html><title>late</title></html>`, { headers: { 'content-type': 'text/html' } });
    expect(await client().deletePlant('7')).toEqual({ status: 200, afterLostResponse: false, attempts: 1 });
  });

  it('after a lost answer is success, its body not read for the gone rule', async () => {
    pool()
      .intercept({ path: '/plants/7', method: 'DELETE' })
      .reply(502, '', { headers: { 'retry-after': '0' } });
    pool().intercept({ path: '/plants/7', method: 'DELETE' }).reply(200, 'done');
    const response = await client({ retries: 1 }).sendDelete({ method: 'DELETE', target: target('/plants/7') });
    expect(response.attempt.statusCode).toBe(200);
    expect(response.text).toBeUndefined();
    expect(response.gone).toBeUndefined();
    response.attempt.close();
  });
});
