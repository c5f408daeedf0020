import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson, stringifyJson } from '../shared/json.js';
import { cellText } from '../shared/text.js';
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

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The interface's Error object; `error` carries the HTTP status. */
function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: status, message }, headers);
}

/** Largest body a create accepts. */
const MAX_CREATE_BYTES = 1024 * 1024;

/**
 * POST /plants (not in the interface; a real store has it, and `plants api`
 * is how it is reached): a JSON object with a string `name`, and any other
 * fields but `id`, which the store assigns. Answers 201 with the plant.
 */
function createPlant(req: IncomingMessage, res: ServerResponse, store: PlantStore, onChange?: () => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_CREATE_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > MAX_CREATE_BYTES) {
      sendError(res, 413, `the body is larger than ${MAX_CREATE_BYTES} bytes`);
      return;
    }
    let fields: unknown;
    try {
      fields = parseJson(Buffer.concat(chunks).toString('utf8'));
    } catch {
      sendError(res, 400, 'the body is not JSON');
      return;
    }
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
      sendError(res, 400, 'expected a JSON object such as {"name": "Fern"}');
      return;
    }
    const { id, ...plant } = fields as Record<string, unknown>;
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
    // Only a create reads its body; others are drained, so keep-alive works.
    if (!(allowed && method === 'POST' && rawPath === '/plants')) req.resume();
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
      servePlant(res, method, match[1]!, options);
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

/** /plants/{id} (`encodedId` as in the path): GET or HEAD reads the plant, DELETE deletes it. */
function servePlant(
  res: ServerResponse,
  method: string,
  encodedId: string,
  { store, onChange }: PlantStoreServerOptions & { store: PlantStore },
): void {
  if (method !== 'DELETE' && method !== 'GET' && method !== 'HEAD') {
    sendError(res, 405, `method ${method} is not allowed on /plants/{id}`, { allow: 'GET, HEAD, DELETE' });
    return;
  }
  let id: string;
  try {
    id = decodeURIComponent(encodedId);
  } catch {
    sendError(res, 400, 'the plant id in the path is not valid percent-encoded UTF-8');
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
