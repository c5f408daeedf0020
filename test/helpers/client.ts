import { PlantStoreClient, type PlantStoreClientOptions } from '../../src/api/client.js';
import { registerSecret } from '../../src/secrets/registry.js';
import { parseBaseUrl } from '../../src/shared/url.js';

type Needed = Pick<PlantStoreClientOptions, 'token' | 'dispatcher'>;

/**
 * A PlantStoreClient for the client's unit tests: `base` as the base URL,
 * five-second attempts, no retries and a 1 MiB response limit unless
 * `options` say otherwise. Its token is registered as a secret, as the
 * context registers the token in effect, so that messages mask it.
 */
export function testClient(base: string, options: Needed & Partial<PlantStoreClientOptions>): PlantStoreClient {
  registerSecret(options.token);
  return new PlantStoreClient({
    baseUrl: parseBaseUrl(base, 'test'),
    userAgent: 'plants/test',
    timeoutMs: 5_000,
    retries: 0,
    maxResponseBytes: 1024 * 1024,
    ...options,
  });
}

/** The error `promise` fails with; fails the test if it succeeds. */
export async function failure<T extends Error = Error>(promise: Promise<unknown>): Promise<T> {
  try {
    await promise;
  } catch (err) {
    return err as T;
  }
  throw new Error('expected a failure');
}
