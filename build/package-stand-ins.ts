/**
 * The package stand-ins of the build (see build/start-up.ts): what conf
 * loads but plants never calls is a bundle of its own, loaded on first use.
 */
import { dirname } from 'node:path';
import type { PluginBuild } from 'esbuild';

/**
 * Packages that a dependency imports when it loads but calls only on paths
 * this CLI does not take. The import gets a stand-in for each name it
 * imports (`names`: the name, and the export of `bundle`, a bundle of
 * BUNDLES, behind it), which loads the bundle through the code cache on
 * first use, and then acts as that export: called, constructed, or read
 * from. A name the dependency imports that the stand-in lacks fails the
 * build.
 *
 * conf imports ajv (with ajv-formats, and fast-uri beneath them), semver,
 * atomically, uint8array-extras and env-paths: 184 KB of its 214 KB bundle,
 * and most of what it did as it loaded (atomically's fs wrappers; env-paths
 * loads node:os and asks it for two directories).
 * It calls ajv only for a `schema`, `rootSchema` or `ajvOptions` option,
 * semver only for `migrations`, uint8array-extras only for an
 * `encryptionKey`, env-paths only without a `cwd`, and atomically only to
 * write the file itself: plants passes none of those options but `cwd`
 * (src/config/open.ts) and writes the file with its own writer
 * (src/config/atomic-write.ts). test/e2e/build.test.ts fails if a run that
 * opens the config loads them, and checks that they still work when called.
 * Saves 6.6 CPU ms (interquartile range 3.0 to 12.7) of a list from
 * config.json.
 */
export const LAZY_PACKAGES: {
  /** The package that imports `module`. */
  importer: string;
  module: string;
  bundle: string;
  /** Each name the importer imports (`default` included): the bundle's export that stands behind it. */
  names: Record<string, string>;
}[] = [
  { importer: 'conf', module: 'ajv/dist/2020.js', bundle: 'conf-lazy', names: { Ajv2020: 'Ajv2020' } },
  { importer: 'conf', module: 'ajv-formats', bundle: 'conf-lazy', names: { default: 'ajvFormats' } },
  { importer: 'conf', module: 'semver', bundle: 'conf-lazy', names: { default: 'semver' } },
  { importer: 'conf', module: 'atomically', bundle: 'conf-lazy', names: { writeFileSync: 'writeFileSync' } },
  { importer: 'conf', module: 'env-paths', bundle: 'conf-lazy', names: { default: 'envPaths' } },
  {
    importer: 'conf',
    module: 'uint8array-extras',
    bundle: 'conf-lazy',
    names: { concatUint8Arrays: 'concatUint8Arrays', uint8ArrayToString: 'uint8ArrayToString' },
  },
];

/**
 * The source of an ES module standing in for a package (see LAZY_PACKAGES):
 * each name it exports stands for the same name of `bundle`, through
 * lazyBundle.
 */
export function packageStandIn(bundle: string, names: Record<string, string>): string {
  const exports = Object.entries(names).map(([name, exported]) =>
    name === 'default'
      ? `export default lazy(${JSON.stringify(exported)});`
      : `export const ${name} = lazy(${JSON.stringify(exported)});`,
  );
  return [`import { lazy } from ${JSON.stringify(`lazy-bundle:${bundle}`)};`, ...exports].join('\n');
}

/**
 * The source of the ES module that loads `bundle` on first use, part of a
 * bundle in dist/vendor/: `bundle` is next to it, the entry point (whose
 * code cache loads it) one directory up. `lazy(name)` stands for the
 * bundle's export `name`: a function, so that it can be called and
 * constructed as the export can, and read from.
 */
export function lazyBundle(bundle: string): string {
  return `let real;
const load = () => (real ??= require('../plants.cjs').requireBundle(require.resolve(${JSON.stringify(`./${bundle}.cjs`)})));
export const lazy = (name) => new Proxy(function () {}, {
  apply: (_target, self, args) => Reflect.apply(load()[name], self, args),
  construct: (_target, args) => Reflect.construct(load()[name], args),
  get: (_target, key) => load()[name][key],
  has: (_target, key) => key in load()[name],
});`;
}

/**
 * when-exit, through which atomically (conf's file writer, in the lazy
 * bundle) removes its temporary files at exit. When it loads it also hooks
 * 17 signals (a signal handle each) to re-raise them after its callbacks,
 * which would turn a graceful Ctrl-C (plants' own) into an abrupt exit
 * (src/config/open.ts removes them where conf brings them as it loads: run
 * from the sources). Its stand-in keeps the exit hook only.
 */
export const EXIT_HOOK_ONLY = {
  importer: 'atomically',
  module: 'when-exit',
  contents: `const callbacks = new Set();
process.once('exit', () => {
  for (const callback of callbacks) callback();
});
export default function whenExit(callback) {
  callbacks.add(callback);
  return () => {
    callbacks.delete(callback);
  };
}`,
};

/**
 * Every package stand-in: the importing package, the module, and the
 * stand-in's source (an ES module). PLANTS_BUILD_NO_LAZY_PACKAGES=1 leaves
 * out the lazy ones (conf then loads them as it loads, its exit hook still
 * without signal handlers): `npm run bench` builds such a copy to show what
 * they save.
 */
const PACKAGE_STAND_INS = [
  ...(process.env.PLANTS_BUILD_NO_LAZY_PACKAGES === '1' ? [] : LAZY_PACKAGES).map(
    ({ importer, module, bundle, names }) => ({
      importer,
      module,
      contents: packageStandIn(bundle, names),
    }),
  ),
  EXIT_HOOK_ONLY,
];

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export const packageStandIns = {
  name: 'package-stand-ins',
  setup(build: PluginBuild) {
    const modules = `^(${PACKAGE_STAND_INS.map(({ module }) => escapeRegExp(module)).join('|')})$`;
    build.onResolve({ filter: new RegExp(modules), namespace: 'file' }, async ({ path, importer, kind }) => {
      const standIn = PACKAGE_STAND_INS.find(
        (entry) => entry.module === path && importer.includes(`/node_modules/${entry.importer}/`),
      );
      if (standIn) return { path, namespace: 'package-stand-in', pluginData: standIn.contents };
      // The bundle behind lazy stand-ins imports the very modules the importer would get: resolved from its entry.
      const lazy = LAZY_PACKAGES.find(
        (entry) => entry.module === path && importer.endsWith(`/src/vendor/${entry.bundle}.ts`),
      );
      if (!lazy) return undefined;
      const from = await build.resolve(lazy.importer, { kind, resolveDir: dirname(importer) });
      if (from.errors.length > 0) return { errors: from.errors };
      return build.resolve(path, { kind, resolveDir: dirname(from.path) });
    });
    build.onLoad({ filter: /.*/, namespace: 'package-stand-in' }, ({ pluginData }) => ({
      contents: pluginData as string,
      loader: 'js',
    }));
    // One loader per bundle, which the stand-ins share.
    build.onResolve({ filter: /^lazy-bundle:/, namespace: 'package-stand-in' }, ({ path }) => ({
      path,
      namespace: 'lazy-bundle',
    }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-bundle' }, ({ path }) => ({
      contents: lazyBundle(path.slice('lazy-bundle:'.length)),
      loader: 'js',
    }));
    // What the loader requires is found next to the bundle at run time.
    build.onResolve({ filter: /\.cjs$/, namespace: 'lazy-bundle' }, ({ path }) => ({ path, external: true }));
  },
};
