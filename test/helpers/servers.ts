import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { startPlantStoreServer, type RunningPlantStore } from '../../src/server/server.js';
import { PlantStore, type StoredPlant } from '../../src/server/store.js';

export const TOKEN = 'canary-7f3a9c1e-token';

interface RecordedRequest {
  method: string;
  path: string;
  status: number;
}

/** The project's plant store on an ephemeral loopback port, recording every request. */
export async function plantStore(
  options: { seed?: number; plants?: StoredPlant[] } = {},
): Promise<RunningPlantStore & { requests: RecordedRequest[]; connections(): number }> {
  const store = new PlantStore(options.plants ?? []);
  store.seed(options.seed ?? 0);
  const requests: RecordedRequest[] = [];
  const ports: number[] = [];
  const running = await startPlantStoreServer({
    token: TOKEN,
    store,
    onRequest: ({ remotePort, requestId: _requestId, ...request }) => {
      requests.push(request);
      ports.push(remotePort ?? 0);
    },
  });
  /** How many TCP connections the requests came over. */
  const connections = () => new Set(ports).size;
  return Object.assign(running, { requests, connections });
}

export interface RawServer {
  url: string;
  /** Each request as it came; `body` grows as its bytes arrive. */
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: Buffer }[];
  close(this: void): Promise<void>;
}

/** A server that answers however the test says: for responses the plant store would never send. */
export async function rawServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<RawServer> {
  const requests: RawServer['requests'] = [];
  const server = createServer((req, res) => {
    const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.alloc(0) };
    requests.push(request);
    // Read as it comes (which keeps keep-alive working), never waited for.
    req.on('data', (chunk: Buffer) => (request.body = Buffer.concat([request.body, chunk])));
    handler(req, res);
  });
  return { ...(await listenOnLoopback(server)), requests };
}

/**
 * A TCP server that answers each request head with the bytes the test gives:
 * for what node:http will not send (an unsolicited `100 Continue`). Requests
 * without bodies only (GET, DELETE); the connection stays open for more.
 */
export async function rawTcpServer(
  answer: (head: string) => string,
): Promise<{ url: string; requests: string[]; close(this: void): Promise<void> }> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        const head = pending.slice(0, end);
        pending = pending.slice(end + 4);
        requests.push(head);
        socket.write(answer(head), 'latin1');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/**
 * Listen on 127.0.0.1 at a free port; `close` also ends kept-alive
 * connections, so no test waits for them.
 */
export async function listenOnLoopback(
  server: Server,
  scheme: 'http' | 'https' = 'http',
): Promise<{ url: string; close(this: void): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A forward proxy that only tunnels (HTTP CONNECT), as undici's ProxyAgent
 * uses. `route` may send a tunnel somewhere other than where it asked to go,
 * so a test can give a made-up host name without any DNS lookup.
 */
export async function connectProxy(
  route: (host: string, port: number) => { host: string; port: number } = (host, port) => ({ host, port }),
): Promise<{ url: string; tunnels: string[]; close(this: void): Promise<void> }> {
  const { createServer: createHttpServer } = await import('node:http');
  const { connect } = await import('node:net');
  const tunnels: string[] = [];
  const server = createHttpServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client, head) => {
    const target = req.url ?? '';
    tunnels.push(target);
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    const to = route(host, port);
    const upstream = connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return { ...(await listenOnLoopback(server)), tunnels };
}
