import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { tempDir } from './cli.js';
import { secretServiceMissing, startSecretService, type SecretService } from './secret-service.js';

// Kept apart from secret-service.ts, which the bench imports under plain Node.js (no vitest there).

const missing = secretServiceMissing();

export interface SecretServiceSuite {
  /** The Secret Service of this block (or of this test, with perTest). */
  readonly service: SecretService;
  /** The environment of a run that keeps its token there: no PLANTS_TOKEN, the keyring on, this bus. */
  keyringEnv(this: void): Record<string, string | undefined>;
}

/**
 * A describe block with a real Secret Service, GNOME Keyring on a private
 * D-Bus session bus: one for the block, or one per test (`perTest`: a
 * locked keyring cannot be unlocked again without a prompt). Linux only:
 * elsewhere the OS keyring would be the user's own. In CI a missing
 * Secret Service is a failure (.ci/run installs it), elsewhere a skip that
 * says why.
 */
export function describeWithSecretService(
  title: string,
  body: (suite: SecretServiceSuite) => void,
  { perTest = false } = {},
): void {
  describe.skipIf((missing !== undefined && !process.env.CI) || process.platform !== 'linux')(
    `${title}${missing ? ` (skipped: ${missing})` : ''}`,
    () => {
      let service: SecretService | undefined;
      let dir: ReturnType<typeof tempDir> | undefined;
      const [before, after] = perTest ? [beforeEach, afterEach] : [beforeAll, afterAll];
      before(async () => {
        dir = tempDir('plants-keyring-');
        service = await startSecretService(dir.path);
      });
      after(async () => {
        await service?.close();
        dir?.remove();
      });
      body({
        get service() {
          return service!;
        },
        keyringEnv: () => ({ PLANTS_KEYRING: undefined, PLANTS_TOKEN: undefined, ...service!.env }),
      });
    },
  );
}

/**
 * Run `body` with a D-Bus session bus at a socket in `dir` that takes
 * connections and never answers, as a hung bus does; `connections` says
 * how many were made. Closed afterwards, whatever happens.
 */
export async function withSilentBus<T>(
  dir: string,
  body: (address: string, connections: () => number) => Promise<T>,
): Promise<T> {
  const socket = join(dir, 'silent-bus');
  const held: Socket[] = [];
  const silent = createServer((connection) => held.push(connection));
  await new Promise<void>((resolve) => silent.listen(socket, resolve));
  try {
    return await body(`unix:path=${socket}`, () => held.length);
  } finally {
    for (const connection of held) connection.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
}
