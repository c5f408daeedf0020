import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startPlantStoreServer } from './server.js';
import { PlantStore } from './store.js';

const HELP = `Usage: plant-store-server [options]

A local plant store service for trying plants and testing scripts safely.
Prints the URL it listens on as the first line of stdout, and logs each
DELETE it serves, with its X-Request-Id, to stderr.

Besides the interface's GET /plants and DELETE /plants/{id}, it answers
GET /plants/{id}, POST /plants (a JSON object with a string "name") and
PATCH /plants/{id} ({"name": ..., "tag": ...}; "tag": null takes it away).

Options:
  --port <n>     port to listen on; 0 picks a free one (default: 0)
  --host <addr>  address to listen on (default: 127.0.0.1)
  --token <t>    bearer token to accept (default: PLANT_STORE_TOKEN, else a random
                 token printed on stderr)
  --seed <n>     start with n sample plants when the store is empty (default: 0)
  --data <file>  keep the plants in this JSON file between runs
  -h, --help     show this help
`;

function fail(message: string): never {
  console.error(`plant-store-server: ${message}`);
  process.exit(2);
}

/** `unit`: what the number counts, for the message (`plants`); none for a port. */
function wholeNumber(raw: string | undefined, name: string, max: number, unit?: string): number {
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw) || Number(raw) > max) {
    fail(`--${name} must be a whole number ${unit ? `of ${unit} ` : ''}from 0 to ${max}`);
  }
  return Number(raw);
}

/** The command line, checked (a bad one fails with exit 2); undefined when --help was answered. */
function parseOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        token: { type: 'string' },
        seed: { type: 'string' },
        data: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    fail(`${(err as Error).message} (see --help)`);
  }
  if (values.help) {
    process.stdout.write(HELP);
    return undefined;
  }
  return values;
}

async function main(): Promise<void> {
  const values = parseOptions();
  if (values === undefined) return;
  const port = wholeNumber(values.port, 'port', 65_535);
  const seed = wholeNumber(values.seed, 'seed', 10_000_000, 'plants');
  const given = values.token ?? process.env.PLANT_STORE_TOKEN;
  const token = given || randomBytes(16).toString('hex');

  const dataFile = values.data;
  const existed = dataFile !== undefined && existsSync(dataFile);
  let store: PlantStore;
  try {
    store = existed ? PlantStore.load(dataFile) : new PlantStore();
  } catch (err) {
    fail(`cannot load --data: ${(err as Error).message}`);
  }
  // The file is written only when what it holds changes: a missing file is
  // made, a seeded one filled; one loaded as it is stays as it is (bytes and
  // mtime) until a DELETE.
  let changed = !existed;
  if (store.size === 0 && seed > 0) {
    store.seed(seed);
    changed = true;
  }

  let pending: NodeJS.Timeout | undefined;
  /** Save if anything changed since the last save; true when it did. */
  const flush = (): boolean => {
    if (pending) clearTimeout(pending);
    pending = undefined;
    if (!dataFile || !changed) return false;
    store.save(dataFile);
    changed = false;
    return true;
  };
  flush();

  const running = await startPlantStoreServer({
    token,
    store,
    host: values.host,
    port,
    // Each DELETE served, with the request id plants sent: its journal and this log side by side.
    onRequest: ({ method, path, status, requestId }) => {
      if (method !== 'DELETE') return;
      console.error(`plant-store-server: DELETE ${path} → ${status}${requestId ? ` (X-Request-Id ${requestId})` : ''}`);
    },
    // Batch writes: a bulk delete should not rewrite the file thousands of times.
    onChange: () => {
      changed = true;
      if (dataFile && !pending) pending = setTimeout(flush, 200);
    },
  }).catch((err: Error) => fail(`cannot listen on ${values.host}:${port}: ${err.message}`));

  process.stdout.write(`${running.url}\n`);
  console.error(`plant-store-server: ${store.size} plants; listening on ${running.url}`);
  if (!given) console.error(`plant-store-server: token: ${token}`);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      const saved = flush() ? `; ${store.size} plants saved to ${dataFile}` : dataFile ? `; ${dataFile} unchanged` : '';
      console.error(`plant-store-server: stopped${saved}`);
      void running.close().then(() => process.exit(0));
    });
  }
}

await main();
