import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { BUNDLES, lazyBuiltins, separateBundles } from './build/start-up.js';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const common: Options = {
  platform: 'node',
  target: 'node22',
  sourcemap: false,
  // Dependencies are bundled: one file loads faster than a tree of
  // node_modules to resolve, and the installed package needs no others.
  noExternal: [/.*/],
  minify: true,
  // Keep `node:` on built-in modules (tsup strips it by default), so the
  // start-up plugins see the names the dependencies ask for.
  removeNodeProtocol: false,
  define: {
    __PLANTS_VERSION__: JSON.stringify(pkg.version),
    // Names this build's code cache files (see src/code-cache.ts).
    __PLANTS_BUILD_ID__: JSON.stringify(`${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`),
  },
};

export default defineConfig([
  {
    ...common,
    // The start-up machinery: see build/start-up.ts.
    entry: BUNDLES,
    format: ['cjs'],
    // Read by scripts/licenses.js (the notices of the bundled packages), which then removes it.
    metafile: true,
    // The server's bundle is built alongside, at the same time: not this build's to remove.
    clean: ['!plant-store-server.js'],
    esbuildPlugins: [separateBundles, lazyBuiltins],
  },
  {
    ...common,
    entry: { 'plant-store-server': 'src/server/main.ts' },
    format: ['esm'],
  },
]);
