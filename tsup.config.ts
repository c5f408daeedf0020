import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import { packageStandIns } from './build/package-stand-ins.js';
import { BUNDLES, builtinDefaults, lazyBuiltins, separateBundles } from './build/start-up.js';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Every file below `dir` (relative to `root`, with `/`); none when there is no such directory. */
function filesBelow(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/**
 * Names a build's code cache files (see src/startup/code-cache.ts), which V8 tells
 * apart by the source's length only: a hash of what the bundles are made
 * from (the sources and the build itself), so that a change to any of it
 * names new files, and two builds of the same tree are byte for byte the
 * same (no time, no randomness). node_modules is not read:
 * package-lock.json pins it. Hex only: src/startup/code-cache.ts reads it back from cache file names.
 */
export function buildId(root: string): string {
  const files = [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsup.config.ts',
    ...filesBelow(root, 'src'),
    ...filesBelow(root, 'build'),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const contents = readFileSync(join(root, file));
    // Name and length first: no two different trees hash the same bytes.
    hash.update(`${file}\0${contents.length}\0`).update(contents);
  }
  return hash.digest('hex').slice(0, 16);
}

const common: Options = {
  platform: 'node',
  target: 'node22',
  sourcemap: false,
  // Dependencies are bundled: one file loads faster than a tree of
  // node_modules to resolve. All but the keyring binding, a native module
  // with a prebuilt binary per platform: the package's one dependency,
  // imported only by a run that uses the keyring (src/config/keyring.ts).
  noExternal: [/^(?!@napi-rs\/keyring(\/|$))/],
  external: ['@napi-rs/keyring'],
  minify: true,
  // Keep `node:` on built-in modules (tsup strips it by default), so the
  // start-up plugins see the names the dependencies ask for.
  removeNodeProtocol: false,
  // src/config/keyring.ts reads import.meta.url only where the sources run as ES modules (tests), never in the bundles.
  esbuildOptions(options) {
    // Notices kept in bundled code (/*! ... */) go to a file of their own, which
    // scripts/licenses.js adds to THIRD-PARTY-LICENSES.md: a bundle stays
    // ASCII, which V8 holds as one byte a character (undici's carries a notice
    // with an ä, which made its 0.5 MB two bytes a character, read and
    // scanned more slowly by every run).
    options.legalComments = 'external';
    options.logOverride = { ...options.logOverride, 'empty-import-meta': 'silent' };
  },
  define: {
    __PLANTS_VERSION__: JSON.stringify(pkg.version),
    __PLANTS_BUILD_ID__: JSON.stringify(buildId(fileURLToPath(new URL('.', import.meta.url)))),
    // As undici's own bundle for Node.js core is built (its package.json,
    // build:node): its HTTP/1 parser is llhttp alone, without the
    // experimental Milo parser (150 KB of WebAssembly, used only with
    // UNDICI_USE_MILO=1) and the module that chooses between them.
    esbuildDetection: '1',
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
    // lazyBuiltins before builtinDefaults: a stand-in wins.
    esbuildPlugins: [separateBundles, lazyBuiltins, packageStandIns, builtinDefaults],
  },
  {
    ...common,
    entry: { 'plant-store-server': 'src/server/main.ts' },
    format: ['esm'],
  },
]);
