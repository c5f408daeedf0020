import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginBuild } from 'esbuild';
import { defineConfig, type Options } from 'tsup';
import { RESPONSE_HEADER_LIMIT } from './src/api/network.js';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * Imports that stay out of the bundle being built and come at run time from
 * a bundle of their own, through the code cache (src/code-cache.ts, part of
 * plants.cjs, the entry point, which the others share): `./cli.js` from the
 * entry point, and `src/vendor/*` from the command tree (see
 * src/vendor/README.md).
 *
 * Each becomes a one-line module. Marked external instead, an `import()`
 * would stay an `import()` and start the ES module loader, which is the
 * cost this build avoids.
 */
const separateBundles = {
  name: 'separate-bundles',
  setup(build: PluginBuild) {
    const oneLine = (path: string, contents: string) => ({ path, namespace: 'separate-bundle', pluginData: contents });
    const viaCodeCache = (bundle: string) =>
      oneLine(bundle, `module.exports = require('./plants.cjs').requireBundle(require.resolve(${JSON.stringify(bundle)}));`);
    build.onResolve({ filter: /^\.\/cli\.js$/ }, ({ importer }) =>
      importer.endsWith('/src/main.ts') ? viaCodeCache('./cli.cjs') : undefined,
    );
    build.onResolve({ filter: /\/vendor\/[a-z0-9-]+\.js$/ }, ({ path, importer }) =>
      importer.includes('/src/') && !importer.includes('/src/vendor/')
        ? viaCodeCache(`./vendor/${path.slice(path.lastIndexOf('/') + 1, -'.js'.length)}.cjs`)
        : undefined,
    );
    // In the entry point itself the code cache is bundled; elsewhere it is the entry point's.
    build.onResolve({ filter: /\/code-cache\.js$/ }, ({ importer }) =>
      importer.endsWith('/src/main.ts') ? undefined : oneLine('./plants.cjs', "module.exports = require('./plants.cjs');"),
    );
    build.onLoad({ filter: /.*/, namespace: 'separate-bundle' }, ({ pluginData }) => ({
      contents: pluginData as string,
      loader: 'js',
    }));
    // What those modules require is found next to the bundle at run time.
    build.onResolve({ filter: /\.cjs$/, namespace: 'separate-bundle' }, ({ path }) => ({ path, external: true }));
  },
};

/**
 * The HTTP/2 constants undici reads when it loads. Its HTTP/2 client is only
 * used when allowH2 is set, which this CLI never does; loading node:http2
 * just for these (and node:tls with it) costs 9 ms of a `plants list`. The
 * values are fixed by RFC 9113; a test compares them with node's own.
 */
export const HTTP2_CONSTANTS = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_NO_ERROR: 0,
  NGHTTP2_REFUSED_STREAM: 7,
};

/**
 * What undici reads from node:http, answered without loading it (with its
 * HTTP/1 server and client, 1 to 2 ms of a `plants list`):
 * - `maxHeaderSize`, Node's limit on response headers, which undici checks
 *   when it loads and uses when an agent is not given one. This CLI's limit
 *   is RESPONSE_HEADER_LIMIT (src/api/network.ts), Node's default: its agent
 *   is given it, and a proxy agent's own client reads it here.
 * - `IncomingMessage`, a class that undici compares the class of each
 *   stream it destroys with. Nothing undici gets from this CLI is one (and
 *   while node:http is not loaded nothing can be); a class of its own
 *   matches nothing.
 */
export const HTTP1_STAND_INS = `{ maxHeaderSize: ${RESPONSE_HEADER_LIMIT}, IncomingMessage: class IncomingMessage {} }`;

/**
 * Built-in modules that a dependency loads when it loads, but uses only on
 * paths this CLI does not take, or only when something fails. Each gets a
 * stand-in: `known` (JavaScript source of an object) answers without the
 * real module, which is loaded for anything else, on first use.
 */
const LAZY_BUILTINS: { importer: string; module: string; known?: string }[] = [
  // commander: for stand-alone executable subcommands (1.5 ms of every run).
  { importer: '/node_modules/commander/', module: 'node:child_process' },
  // undici: for HTTP/2, see HTTP2_CONSTANTS.
  { importer: '/node_modules/undici/', module: 'node:http2', known: `{ constants: ${JSON.stringify(HTTP2_CONSTANTS)} }` },
  // undici: see HTTP1_STAND_INS.
  { importer: '/node_modules/undici/', module: 'node:http', known: HTTP1_STAND_INS },
];

/**
 * undici calls node:assert as `assert(value[, message])` only, to check its
 * own invariants, several times per request. The stand-in is a plain
 * function (a call V8 can inline), which loads the real one (0.8 ms) when a
 * check fails; it then throws its usual AssertionError. Anything else
 * (`assert.strictEqual`, …) is found on the real module, through the
 * stand-in's prototype.
 */
export const LAZY_ASSERT = {
  importer: '/node_modules/undici/',
  contents: `let real;
const load = () => (real ??= require('node:assert'));
function assert(value, message) {
  if (!value) load()(value, message);
}
Object.setPrototypeOf(assert, new Proxy({}, { get: (_target, key) => load()[key] }));
module.exports = assert;`,
};

const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build: PluginBuild) {
    build.onResolve({ filter: /^node:/ }, ({ path, importer }) => {
      if (path === 'node:assert' && importer.includes(LAZY_ASSERT.importer)) {
        return { path, namespace: 'lazy-builtin', pluginData: { contents: LAZY_ASSERT.contents } };
      }
      const lazy = LAZY_BUILTINS.find((entry) => entry.module === path && importer.includes(entry.importer));
      return lazy ? { path, namespace: 'lazy-builtin', pluginData: { contents: standIn(lazy.module, lazy.known) } } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, ({ pluginData }) => ({
      contents: (pluginData as { contents: string }).contents,
      loader: 'js',
    }));
  },
};

/** The source of a CommonJS stand-in for `module`, with `known` answers. */
export function standIn(module: string, known = '{}'): string {
  return `let real;
const load = () => (real ??= require(${JSON.stringify(module)}));
// Known values first (objects among them fall back to the real module's), then the real module.
const stand = (known, get) => new Proxy(known, {
  get: (target, key) => key in target
    ? (typeof target[key] === 'object' ? stand(target[key], () => get()[key]) : target[key])
    : get()[key],
});
module.exports = stand(${known}, load);`;
}

/**
 * Names a build's code cache files (see src/code-cache.ts), which V8 tells
 * apart by the source's length only: a hash of what the bundles are made
 * from, so that a change to any of it names new files, and two builds of
 * the same tree are byte for byte the same (no time, no randomness).
 * node_modules is not read: package-lock.json pins it.
 */
export function buildId(root: string): string {
  const files = [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsup.config.ts',
    ...readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/')),
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
  // node_modules to resolve, and the installed package needs no others.
  noExternal: [/.*/],
  minify: true,
  // Keep `node:` on built-in modules (tsup strips it by default), so the
  // plugins below see the name commander asks for.
  removeNodeProtocol: false,
  define: {
    __PLANTS_VERSION__: JSON.stringify(pkg.version),
    __PLANTS_BUILD_ID__: JSON.stringify(buildId(fileURLToPath(new URL('.', import.meta.url)))),
  },
};

export default defineConfig([
  {
    ...common,
    // CommonJS starts faster than an ES module (no module loader to set up,
    // about 5 ms of a 40 ms run). One bundle per stage of a run, each loaded
    // only when needed: plants.cjs answers --version alone and loads the
    // others through the code cache; cli.cjs is the command tree with
    // commander and all of this package's code; each of vendor/*.cjs is one
    // dependency.
    entry: {
      plants: 'src/main.ts',
      cli: 'src/cli.ts',
      'vendor/undici': 'src/vendor/undici.ts',
      'vendor/conf': 'src/vendor/conf.ts',
      'vendor/chalk': 'src/vendor/chalk.ts',
      'vendor/table': 'src/vendor/table.ts',
    },
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
