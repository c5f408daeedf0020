import { Agent } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, testClient } from '../helpers/client.js';
import { PlantStoreClient } from '../../src/api/client.js';
import { BadResponseError, HttpError, NetworkError } from '../../src/shared/errors.js';
import { rawServer, type RawServer } from '../helpers/servers.js';

// Each attempt's time bound (--timeout), body included, against a real HTTP
// server on 127.0.0.1: what the user is told when the service is silent or
// trickles, and that a response stopped early is closed. The deadlines here
// only bound waits; nothing asserts how long anything took.
const TOKEN = 'attempt-token-4';
let server: RawServer | undefined;
let agent: Agent | undefined;

function client(url: string, timeoutMs: number): PlantStoreClient {
  agent = new Agent();
  return testClient(url, { token: TOKEN, dispatcher: agent, timeoutMs });
}

const raise = 'raise it with --timeout or PLANTS_TIMEOUT';

afterEach(async () => {
  vi.useRealTimers();
  await agent?.destroy();
  await server?.close();
  agent = undefined;
  server = undefined;
});

describe('the attempt deadline', () => {
  it('no response head: a timeout naming the --timeout figure', async () => {
    server = await rawServer(() => {
      // Never answers.
    });
    const err = await failure<NetworkError>(client(server.url, 200).listPlants());
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('timeout');
    expect(err.message).toBe(
      `GET ${server.url}/plants failed: 127.0.0.1:${new URL(server.url).port} sent no response within 0.2 s (--timeout 0.2; ${raise})`,
    );
  });

  it('no connection within the attempt: never sent, whichever of undici or the deadline ends it', async () => {
    // A connector that never calls back: the connection never opens, and no connect timeout ends it.
    agent = new Agent({ connect: () => undefined });
    const c = testClient('http://127.0.0.1:9', { token: TOKEN, dispatcher: agent, timeoutMs: 200 });
    const err = await failure<NetworkError>(c.deletePlant('5'));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('timeout');
    expect(err.responseLost).toBe(false);
    expect(err.message).toBe(
      `DELETE http://127.0.0.1:9/plants/5 failed: could not connect to 127.0.0.1:9 within 0.2 s (--timeout 0.2; ${raise})`,
    );
  });

  it('a DELETE sent and never answered may have been carried out', async () => {
    server = await rawServer(() => {
      // Never answers.
    });
    const err = await failure<NetworkError>(client(server.url, 200).deletePlant('5'));
    expect(err.responseLost).toBe(true);
    expect(err.message).toMatch(/ sent no response within 0\.2 s /);
  });

  it('a list body that stops: a timeout, not a bad response', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"name":"Fern"}');
    });
    const err = await failure<NetworkError>(client(server.url, 200).listPlants());
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('timeout');
    expect(err.message).toBe(
      `GET ${server.url}/plants failed: the response body did not arrive within 0.2 s (--timeout 0.2; ${raise})`,
    );
  });

  it('a body that trickles in is cut off once the whole attempt has taken its time', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      let sent = 0;
      const timer = setInterval(() => {
        sent += 1;
        if (sent < 40) res.write(`{"name":"p${sent}"},`);
        else {
          clearInterval(timer);
          res.end('{"name":"last"}]');
        }
      }, 50);
      res.on('close', () => clearInterval(timer));
    });
    // 40 pieces 50 ms apart take 2 s at the least: far more than the 0.3 s allowed.
    const err = await failure<NetworkError>(client(server.url, 300).listPlants());
    expect(err.code).toBe('timeout');
    expect(err.message).toMatch(/the response body did not arrive within 0.3 s/);
  });

  it('a body that arrives in pieces within the time is read whole', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"name":"Fern"},');
      setTimeout(() => res.end('{"name":"Moss"}]'), 30);
    });
    expect(await client(server.url, 5_000).listPlants()).toEqual([{ name: 'Fern' }, { name: 'Moss' }]);
  });

  it('an error body that stops: the status stands, and the message says the body did not arrive', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    const err = await failure<HttpError>(client(server.url, 200).listPlants());
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(500);
    expect(err.message).toBe(
      `GET ${server.url}/plants → 500 Internal Server Error: (the error body did not arrive within 0.2 s)`,
    );
  });

  it('an error body cut short: the status stands, and the message says the body was cut short', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('partial', () => res.destroy());
    });
    const err = await failure<HttpError>(client(server.url, 5_000).listPlants());
    expect(err.status).toBe(500);
    expect(err.message).toBe(`GET ${server.url}/plants → 500 Internal Server Error: (the error body was cut short)`);
  });

  it('a DELETE whose 2xx body never ends still counts as deleted once the time is up', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"deleted":');
    });
    expect(await client(server.url, 200).deletePlant('1')).toEqual({
      status: 200,
      afterLostResponse: false,
      attempts: 1,
    });
  });

  it('a body cut short by the server is a bad response naming the cause', async () => {
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('[{"name":"Fern"},', () => res.destroy());
    });
    const err = await failure(client(server.url, 5_000).listPlants());
    expect(err).toBeInstanceOf(BadResponseError);
    expect(err.message).toMatch(
      new RegExp(
        `^GET ${server.url}/plants → 200: the response body was cut short \\(the connection was closed by ${new URL(server.url).host} before the body ended \\((ECONNRESET|UND_ERR_SOCKET)\\)\\)$`,
      ),
    );
  });
});

describe('stopping early', () => {
  it('closes the response instead of reading the rest', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"name":"first"},');
      // Endless: only the client closing the connection ends it.
      const timer = setInterval(() => res.write('{"name":"more"},'), 20);
      res.on('close', () => {
        clearInterval(timer);
        closed();
      });
    });
    for await (const batch of client(server.url, 60_000).streamPlants()) {
      expect(batch[0]).toEqual({ name: 'first' });
      break;
    }
    await connectionClosed;
  });
});

describe('a slow reader', () => {
  it('is not cut off: time spent by the reader between pieces does not count', async () => {
    let sendRest!: () => void;
    const restWanted = new Promise<void>((resolve) => (sendRest = resolve));
    server = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"name":"first"},');
      void restWanted.then(() => res.end('{"name":"second"}]'));
    });
    // Only the clock is fake: the reader "takes" ten seconds over the first
    // batch, far more than the attempt's second, while the network waits on it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seen: unknown[] = [];
    for await (const batch of client(server.url, 1_000).streamPlants()) {
      seen.push(...batch);
      if (seen.length === 1) {
        vi.advanceTimersByTime(10_000);
        sendRest();
      }
    }
    expect(seen).toEqual([{ name: 'first' }, { name: 'second' }]);
  });
});
