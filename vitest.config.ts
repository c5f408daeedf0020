import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  define: { __PLANTS_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/fast-check.ts'],
    environment: 'node',
    // A worker per core, two at least (vitest's default leaves one core out): most test files
    // wait on the processes they start, so a 2-core CI machine runs npm test in half the time.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Colour and user config must never leak in from the developer's shell, and no test may
    // reach the developer's own keyring: the keyring tests start a Secret Service of their own.
    env: {
      NO_COLOR: '1',
      FORCE_COLOR: '',
      PLANTS_KEYRING: 'off',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/plants-tests-have-no-session-bus',
    },
  },
});
