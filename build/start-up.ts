/**
 * How the build makes `plants` start fast: the build half of its start-up
 * devices (src/startup/ holds the run-time half). tsup.config.ts takes the
 * bundles and plugins from here. Each device is kept because `npm run
 * bench` (a row each) shows it saves at least 2 ms of `list` or `--help`
 * on Node 24; each device's own figure is beside it below. "CPU ms" there: the median of the
 * per-round differences in CPU time, a build with the device against one
 * without, 50 to 70 alternating rounds (wall time moved too much on the
 * shared machine to show a few milliseconds).
 *
 * - One CommonJS bundle per stage of a run (BUNDLES), each loaded only when
 *   a run reaches it: CommonJS starts without the ES module loader.
 *   `plants.cjs` answers --version alone and carries the code cache, through
 *   which the others load (separateBundles; src/startup/code-cache.ts).
 * - undici is bundled from its own modules, not its index, which also loads
 *   fetch, WebSocket, caches and mocks (src/vendor/undici.ts;
 *   test/unit/undici-modules.test.ts pins the paths, and what undici reads
 *   from the built-ins below).
 * - Built-in modules that dependencies load but this CLI does not use get
 *   stand-ins, which load the real module on first use (lazyBuiltins).
 * - So do packages: what conf loads but plants never calls (its schema
 *   validator, semver, its own file writer) is a bundle of its own, which
 *   conf's stand-ins load on first use; that writer gets an exit hook
 *   without signal handlers (packageStandIns, in build/package-stand-ins.ts).
 * - A default import of a built-in module is the module itself, not a copy
 *   of it made as the bundle loads (builtinDefaults).
 *
 * No dependency's source text is rewritten (such a rewrite breaks silently
 * on the dependency's next release), and no Node built-in is re-implemented.
 */
import { readFileSync } from 'node:fs';
import type { PluginBuild } from 'esbuild';
import { RESPONSE_HEADER_LIMIT } from '../src/http/network.js';
import { escapeRegExp } from './package-stand-ins.js';

/**
 * The bundles, by name in dist/. `npm run bench` builds a copy whose undici
 * bundle is undici's index (PLANTS_BUILD_UNDICI=index), to show what its own
 * modules save.
 */
export const BUNDLES = {
  plants: 'src/main.ts',
  cli: 'src/cli.ts',
  'vendor/undici': process.env.PLANTS_BUILD_UNDICI === 'index' ? 'build/undici-index.ts' : 'src/vendor/undici.ts',
  'vendor/conf': 'src/vendor/conf.ts',
  'vendor/conf-lazy': 'src/vendor/conf-lazy.ts',
  'vendor/chalk': 'src/vendor/chalk.ts',
  'vendor/table': 'src/vendor/table.ts',
  'vendor/east-asian-width': 'src/vendor/east-asian-width.ts',
};

/**
 * Imports that stay out of the bundle being built and come at run time from
 * a bundle of their own, through the code cache (src/startup/code-cache.ts, part of
 * plants.cjs, which the others share): `./cli.js` from the entry point, and
 * `src/vendor/*` from the command tree.
 *
 * Each becomes a one-line module. Marked external instead, an `import()`
 * would stay an `import()` and start the ES module loader.
 */
export const separateBundles = {
  name: 'separate-bundles',
  setup(build: PluginBuild) {
    const oneLine = (path: string, contents: string) => ({ path, namespace: 'separate-bundle', pluginData: contents });
    const viaCodeCache = (bundle: string) =>
      oneLine(
        bundle,
        `module.exports = require('./plants.cjs').requireBundle(require.resolve(${JSON.stringify(bundle)}));`,
      );
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
      importer.endsWith('/src/main.ts')
        ? undefined
        : oneLine('./plants.cjs', "module.exports = require('./plants.cjs');"),
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
 * used when allowH2 is set, which this CLI never does; node:http2 would
 * bring node:tls with it. The values are fixed by RFC 9113; a test compares
 * them with node's own, and test/unit/undici-modules.test.ts fails, naming
 * undici's version and the constant, when undici reads one not listed here.
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
  NGHTTP2_PROTOCOL_ERROR: 1,
  NGHTTP2_REFUSED_STREAM: 7,
};

/**
 * What undici reads from node:http, answered without loading it (with its
 * HTTP/1 server and client):
 * - `maxHeaderSize`, Node's limit on response headers, which undici checks
 *   when it loads and uses when an agent is not given one. This CLI's limit
 *   is RESPONSE_HEADER_LIMIT (src/http/network.ts), Node's default: its agent
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
 * real module, which is loaded for anything else, on first use. For undici's,
 * test/unit/undici-modules.test.ts checks that `known` answers every value
 * undici reads on load and in a request.
 */
export const LAZY_BUILTINS: { importer: string; module: string; known?: string }[] = [
  // commander: for stand-alone executable subcommands. Saves 2.6 CPU ms of --help, 1.9 of a list.
  { importer: '/node_modules/commander/', module: 'node:child_process' },
  // undici: for HTTP/2, see HTTP2_CONSTANTS.
  {
    importer: '/node_modules/undici/',
    module: 'node:http2',
    known: `{ constants: ${JSON.stringify(HTTP2_CONSTANTS)} }`,
  },
  // undici: see HTTP1_STAND_INS. With node:assert's (LAZY_ASSERT): 3.0 to 3.3 CPU ms of a list.
  { importer: '/node_modules/undici/', module: 'node:http', known: HTTP1_STAND_INS },
  // conf: for an encrypted file (its encryptionKey option), which plants never asks for.
  // Saves 2.6 CPU ms of a list from config.json.
  { importer: '/node_modules/conf/', module: 'node:crypto' },
];

/**
 * undici calls node:assert as `assert(value[, message])` only, to check its
 * own invariants, several times per request. The stand-in is a plain
 * function (a call V8 can inline), which loads the real one when a check
 * fails; it then throws its usual AssertionError. Anything else
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

/**
 * Built-in modules whose stand-ins a build leaves out, comma-separated
 * (PLANTS_BUILD_NO_STAND_IN=node:http2): `npm run bench` builds such copies
 * to show what each stand-in saves.
 */
const NO_STAND_IN = new Set((process.env.PLANTS_BUILD_NO_STAND_IN ?? '').split(',').filter(Boolean));

/** Needs `removeNodeProtocol: false`: it sees the names as the dependencies wrote them. */
export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build: PluginBuild) {
    build.onResolve({ filter: /^node:/ }, ({ path, importer }) => {
      if (NO_STAND_IN.has(path)) return undefined;
      if (path === 'node:assert' && importer.includes(LAZY_ASSERT.importer)) {
        return { path, namespace: 'lazy-builtin', pluginData: { contents: LAZY_ASSERT.contents } };
      }
      const lazy = LAZY_BUILTINS.find((entry) => entry.module === path && importer.includes(entry.importer));
      return lazy
        ? { path, namespace: 'lazy-builtin', pluginData: { contents: standIn(lazy.module, lazy.known) } }
        : undefined;
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
 * Whether every static import of `module` in `source` is a default import
 * (`import fs from 'node:fs'`): no named or namespace import, no re-export.
 * When in doubt (a comment that looks like one), no.
 */
export function onlyDefaultImports(source: string, module: string): boolean {
  const quoted = `['"]${escapeRegExp(module)}['"]`;
  const all = source.match(new RegExp(`\\bfrom\\s*${quoted}`, 'g'))?.length ?? 0;
  const defaults = source.match(new RegExp(`\\bimport\\s+[\\w$]+\\s+from\\s*${quoted}`, 'g'))?.length ?? 0;
  return all > 0 && defaults === all;
}

/**
 * A default import of a built-in module from an ES module (`import fs from
 * 'node:fs'`, as conf, its helpers, chalk and commander write them) becomes,
 * in a CommonJS bundle, a copy of the module: a getter for each property,
 * made as the bundle loads (process has 83, fs 108; conf's bundle made 13
 * such copies, about half a millisecond). Where a file imports a built-in
 * module by default only, it gets the module itself, from a one-line ES
 * module whose default export it is. A named import from that module would
 * fail the build (it has no other export), so onlyDefaultImports decides
 * which files qualify. Saves 1.2 CPU ms of --help and 1.5 of a list from
 * config.json: under 2 ms alone, kept as the largest saving of the devices
 * judged together (docs/architecture.md, "Start-up").
 */
export const builtinDefaults = {
  name: 'builtin-defaults',
  setup(build: PluginBuild) {
    // `npm run bench` builds a copy without it (PLANTS_BUILD_NO_BUILTIN_DEFAULTS=1) to show what it saves.
    if (process.env.PLANTS_BUILD_NO_BUILTIN_DEFAULTS === '1') return;
    const sources = new Map<string, string>();
    build.onResolve({ filter: /^node:/, namespace: 'file' }, ({ path, importer, kind }) => {
      if (kind !== 'import-statement') return undefined;
      let source = sources.get(importer);
      if (source === undefined) {
        source = readFileSync(importer, 'utf8');
        sources.set(importer, source);
      }
      return onlyDefaultImports(source, path) ? { path, namespace: 'builtin-default' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin-default' }, ({ path }) => ({
      // node:process is the global process: no module to load for it.
      contents:
        path === 'node:process' ? 'export default process;' : `export default require(${JSON.stringify(path)});`,
      loader: 'js',
    }));
    build.onResolve({ filter: /^node:/, namespace: 'builtin-default' }, ({ path }) => ({ path, external: true }));
  },
};
