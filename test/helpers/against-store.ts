import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { runCli, tempDir, type CliResult, type RunOptions } from './cli.js';
import { plantStore, rawServer, TOKEN, type RawServer } from './servers.js';

type Store = Awaited<ReturnType<typeof plantStore>>;

interface AgainstStore {
  /** The local plant store (started by the hooks; read it inside tests). */
  readonly store: Store;
  /** This test's config directory, which is also HOME. */
  readonly dir: ReturnType<typeof tempDir>;
  /** Run the CLI with this test's directory, pointed at the store with the token; `env` adds or overrides. */
  plants(this: void, args: string[], options?: Omit<RunOptions, 'configDir'>): Promise<CliResult>;
}

/**
 * The usual set-up of an e2e file: a config directory of its own for each
 * test, and a local plant store, made afresh for each test when `perTest`
 * (tests that change it), else once for the file.
 */
export function againstStore(storeOptions: Parameters<typeof plantStore>[0], { perTest = false } = {}): AgainstStore {
  let store: Store | undefined;
  let dir: ReturnType<typeof tempDir> | undefined;
  const [before, after] = perTest ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    store = await plantStore(storeOptions);
  });
  after(async () => {
    await store?.close();
  });
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir?.remove());
  return {
    get store() {
      return store!;
    },
    get dir() {
      return dir!;
    },
    plants: (args, options = {}) =>
      runCli(args, {
        ...options,
        configDir: dir!.path,
        env: { PLANTS_BASE_URL: store!.url, PLANTS_TOKEN: TOKEN, ...options.env },
      }),
  };
}

type Handler = Parameters<typeof rawServer>[0];

interface AgainstRawServer {
  /** The server (started by the hooks); its `requests` are cleared before each test. */
  readonly server: RawServer;
  /** This test's config directory, which is also HOME. */
  readonly dir: ReturnType<typeof tempDir>;
  /** Run the CLI with this test's directory, pointed at the server with the token; `env` adds or overrides. */
  plants(this: void, args: string[], options?: Omit<RunOptions, 'configDir'>): Promise<CliResult>;
}

/**
 * The set-up of an e2e file against a service that answers however the
 * test says: one raw server for the file (`handler` decides each answer,
 * and may read variables the tests change), a config directory per test.
 */
export function againstRawServer(handler: Handler): AgainstRawServer {
  let server: RawServer | undefined;
  let dir: ReturnType<typeof tempDir> | undefined;
  beforeAll(async () => {
    server = await rawServer(handler);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    dir = tempDir();
    server!.requests.length = 0;
  });
  afterEach(() => dir?.remove());
  return {
    get server() {
      return server!;
    },
    get dir() {
      return dir!;
    },
    plants: (args, options = {}) =>
      runCli(args, {
        ...options,
        configDir: dir!.path,
        env: { PLANTS_BASE_URL: server!.url, PLANTS_TOKEN: TOKEN, ...options.env },
      }),
  };
}
