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
  define: { __PLANTS_VERSION__: JSON.stringify(pkg.version) },
});
