import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPlantStoreServer, type RunningPlantStore } from '../../src/server/server.js';
import { PlantStore, type StoredPlant } from '../../src/server/store.js';

export const TOKEN = 'canary-7f3a9c1e-token';

export interface RecordedRequest {
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
    onRequest: ({ remotePort, ...request }) => {
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
  requests: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

/** A server that answers however the test says: for responses the plant store would never send. */
export async function rawServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<RawServer> {
  const requests: RawServer['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    req.resume();
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
