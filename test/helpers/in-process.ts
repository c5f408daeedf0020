import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, expect } from 'vitest';
import { main } from '../../src/cli.js';
import type { ContextOptions } from '../../src/context.js';
import type { Prompter } from '../../src/output/prompt.js';
import { forgetSecrets } from '../../src/secrets/registry.js';
import { tempDir } from './cli.js';
import { fakeIO, scriptedPrompter, type FakeIO } from './io.js';

export const ORIGIN = 'https://plants.test';

export interface InProcessOptions {
  tty?: boolean;
  stdinTTY?: boolean;
  stdin?: string;
  /** The terminal's width, with `tty`. */
  columns?: number;
  /** Every write to stdout fails with this code (ENOSPC: a full disk). */
  stdoutFails?: string;
  prompter?: Prompter;
  /** An OS keyring stand-in (PLANTS_KEYRING must then be taken out of the environment). */
  keyring?: ContextOptions['keyring'];
  /** Added to (or, with `undefined`, taken out of) the base environment. */
  env?: Record<string, string | undefined>;
}

/**
 * `main()` of src/cli.ts in this process, as the commands' unit tests run it:
 * fake IO, a temporary PLANTS_CONFIG_DIR, and undici's MockAgent with the
 * network disabled (every interceptor must be used by the end of the test).
 * Registers its own beforeEach/afterEach. The token must never be printed.
 */
export function inProcess(token: string) {
  let agent!: MockAgent;
  let dir!: ReturnType<typeof tempDir>;

  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
    dir = tempDir();
  });

  afterEach(async () => {
    agent.assertNoPendingInterceptors();
    await agent.close();
    dir.remove();
    // The registry is the process's: one test's tokens are not the next one's.
    forgetSecrets();
  });

  async function plants(args: string[], options: InProcessOptions = {}): Promise<{ code: number } & FakeIO> {
    const fake = fakeIO(options);
    const env: Record<string, string> = {};
    const wanted = {
      PLANTS_CONFIG_DIR: dir.path,
      // The deletion journal too stays in the test's directory.
      PLANTS_STATE_DIR: join(dir.path, 'state'),
      PLANTS_BASE_URL: ORIGIN,
      PLANTS_TOKEN: token,
      PLANTS_RETRIES: '0',
      // Tokens go to the config file; a test that wants a keyring passes one (options.keyring).
      PLANTS_KEYRING: 'off',
      ...options.env,
    };
    for (const [name, value] of Object.entries(wanted)) if (value !== undefined) env[name] = value;
    const code = await main(args, {
      io: fake.io,
      env,
      dispatcher: () => agent,
      prompter: options.prompter ?? scriptedPrompter(),
      keyring: options.keyring,
    });
    expect(fake.stdout() + fake.stderr()).not.toContain(token);
    return { code, ...fake };
  }

  return {
    plants,
    /** The MockAgent's pool for the service's origin. */
    service: () => agent.get(ORIGIN),
    agent: () => agent,
    configDir: () => dir.path,
  };
}
