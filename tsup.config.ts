import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  entry: {
    plants: 'src/main.ts',
    'plant-store-server': 'src/server/main.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // Chunks let the entry load commander alone; undici, conf, chalk and
  // cli-table3 are imported only on the paths that need them.
  splitting: true,
  clean: true,
  sourcemap: false,
  // Dependencies are bundled: one file per chunk loads faster than a tree
  // of node_modules to resolve. The chunks keep undici, conf, chalk and
  // cli-table3 out of start-up until a path uses them.
  noExternal: [/.*/],
  minify: true,
  // Bundled CommonJS (undici, commander) calls require(); ESM has none.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  define: { __PLANTS_VERSION__: JSON.stringify(pkg.version) },
});
