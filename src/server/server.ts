import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringifyJson } from '../shared/json.js';
import { cellText } from '../shared/text.js';
import { readJsonObject, sendError, sendJsonText } from './replies.js';
import { PlantStore } from './store.js';

interface PlantStoreServerOptions {
  /** The bearer token every request must carry. */
  token: string;
  store?: PlantStore;
  /** Called after each mutation (the CLI entry point persists with it). */
  onChange?: () => void;
  /** Called for every request, after it is answered (tests count requests with it). */
  onRequest?: (request: {
    method: string;
    path: string;
    status: number;
    remotePort?: number;
    /** The request's X-Request-Id, when it sent one. */
    requestId?: string;
  }) => void;
}

export interface RunningPlantStore {
  url: string;
  server: Server;
  store: PlantStore;
  close(this: void): Promise<void>;
}

const INT32_MAX = 2_147_483_647;

/**
 * POST /plants (not in the interface; a real store has it, and `plants api`
 * is how it is reached): a JSON object with a string `name`, and any other
 * fields but `id`, which the store assigns. Answers 201 with the plant.
 */
function createPlant(req: IncomingMessage, res: ServerResponse, store: PlantStore, onChange?: () => void): void {
  readJsonObject(req, res, 'expected a JSON object such as {"name": "Fern"}', (fields) => {
    const { id, ...plant } = fields;
    if (typeof plant.name !== 'string' || plant.name === '') {
      sendError(res, 400, 'a plant needs a non-empty string "name"');
      return;
    }
    if (id !== undefined) {
      sendError(res, 400, 'the store assigns the id; leave "id" out');
      return;
    }
    const created = store.add({ ...plant, name: plant.name });
    onChange?.();
    sendJsonText(res, 201, stringifyJson(created), { location: `/plants/${encodeURIComponent(cellText(created.id))}` });
  });
}

/**
 * PATCH /plants/{id} (not in the interface either; the tests and the demo
 * rename and retag plants with it, as a plan meets a store that changed):
 * a JSON object with a non-empty string `name`, a string `tag`, or `tag`
 * null to take it away. Answers 200 with the plant.
 */
function updatePlant(
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  { store, onChange }: { store: PlantStore; onChange?: () => void },
): void {
  readJsonObject(req, res, 'expected a JSON object such as {"name": "Fern", "tag": "fern"}', (fields) => {
    const { name, tag, ...others } = fields;
    const unknown = Object.keys(others);
    if (unknown.length > 0) {
      sendError(res, 400, `only "name" and "tag" can be changed, not ${JSON.stringify(unknown[0])}`);
    } else if (name !== undefined && (typeof name !== 'string' || name === '')) {
      sendError(res, 400, '"name" must be a non-empty string');
    } else if (tag !== undefined && tag !== null && typeof tag !== 'string') {
      sendError(res, 400, '"tag" must be a string, or null to take it away');
    } else {
      const updated = store.update(id, { name, tag });
      if (updated === undefined) {
        sendError(res, 404, `plant ${id} not found`);
        return;
      }
      onChange?.();
      sendJsonText(res, 200, stringifyJson(updated));
    }
  });
}

function authorized(header: string | undefined, expected: Buffer): boolean {
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The plant store service as the interface describes it: GET /plants?limit=N
 * and DELETE /plants/{id}, bearer auth on every request, Error bodies on failure.
 * A request listener, for node:http or node:https.
 */
export function plantStoreHandler(
  options: PlantStoreServerOptions & { store: PlantStore },
): (req: IncomingMessage, res: ServerResponse) => void {
  const expected = Buffer.from(`Bearer ${options.token}`);

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? 'GET';
    // Match on the raw path: a percent-encoded slash inside an id stays inside the id.
    const rawPath = (req.url ?? '/').split('?')[0]!;

    const allowed = authorized(req.headers.authorization, expected);
    // Only a create and an update read their bodies; others are drained, so keep-alive works.
    const readsBody = (method === 'POST' && rawPath === '/plants') || (method === 'PATCH' && rawPath !== '/plants');
    if (!(allowed && readsBody)) req.resume();
    if (!allowed) {
      sendError(res, 401, 'missing or invalid bearer token', { 'www-authenticate': 'Bearer' });
      return;
    }

    if (rawPath === '/plants') {
      servePlants(req, res, method, options);
      return;
    }
    const match = /^\/plants\/([^/]+)$/.exec(rawPath);
    if (match) {
      servePlant(req, res, method, match[1]!, options);
      return;
    }

    // As a router or a proxy answers a path it has no route for: not the interface's Error
    // object, which means "no such plant". Against this store, a base URL with a wrong path
    // prefix is then caught by plants as it would be against a real deployment.
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
  };

  const { onRequest } = options;
  return (req, res) => {
    if (onRequest) {
      res.on('finish', () => {
        onRequest({
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          status: res.statusCode,
          remotePort: req.socket.remotePort,
          requestId: typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'] : undefined,
        });
      });
    }
    handle(req, res);
  };
}

/** /plants: GET or HEAD lists (`limit` checked), POST creates. */
function servePlants(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  { store, onChange }: PlantStoreServerOptions & { store: PlantStore },
): void {
  if (method === 'POST') {
    createPlant(req, res, store, onChange);
    return;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    sendError(res, 405, `method ${method} is not allowed on /plants`, { allow: 'GET, HEAD, POST' });
    return;
  }
  const raw = new URL(req.url ?? '/', 'http://plant-store.invalid').searchParams.get('limit');
  let limit: number | undefined;
  if (raw !== null) {
    if (!/^\d+$/.test(raw) || Number(raw) > INT32_MAX) {
      sendError(res, 400, `limit must be an integer from 0 to ${INT32_MAX}, got ${JSON.stringify(raw)}`);
      return;
    }
    limit = Number(raw);
  }
  sendJsonText(res, 200, store.listJson(limit));
}

/** /plants/{id} (`encodedId` as in the path): GET or HEAD reads the plant, DELETE deletes it, PATCH changes it. */
function servePlant(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  encodedId: string,
  { store, onChange }: PlantStoreServerOptions & { store: PlantStore },
): void {
  if (!['DELETE', 'GET', 'HEAD', 'PATCH'].includes(method)) {
    req.resume();
    sendError(res, 405, `method ${method} is not allowed on /plants/{id}`, { allow: 'GET, HEAD, DELETE, PATCH' });
    return;
  }
  let id: string;
  try {
    id = decodeURIComponent(encodedId);
  } catch {
    sendError(res, 400, 'the plant id in the path is not valid percent-encoded UTF-8');
    return;
  }
  if (method === 'PATCH') {
    updatePlant(req, res, id, { store, onChange });
    return;
  }
  if (method !== 'DELETE') {
    const json = store.get(id);
    if (json === undefined) sendError(res, 404, `plant ${id} not found`);
    else sendJsonText(res, 200, json);
    return;
  }
  if (!store.delete(id)) {
    sendError(res, 404, `plant ${id} not found`);
    return;
  }
  onChange?.();
  res.writeHead(204).end();
}

function createPlantStoreServer(options: PlantStoreServerOptions): { server: Server; store: PlantStore } {
  const store = options.store ?? new PlantStore();
  return { server: createServer(plantStoreHandler({ ...options, store })), store };
}

/** Start listening; port 0 picks a free one. */
export async function startPlantStoreServer(
  options: PlantStoreServerOptions & { port?: number; host?: string },
): Promise<RunningPlantStore> {
  const { server, store } = createPlantStoreServer(options);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    server,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
