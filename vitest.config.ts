import { readFileSync } from 'node:fs';
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
