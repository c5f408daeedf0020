// The packages whose code esbuild put into dist/'s bundles, from its list of
// what went into them (dist/metafile-cjs.json, written by tsup: see
// tsup.config.ts). Read by scripts/licenses.js (their notices) and
// scripts/sbom.js (their SBOM), so both name the same packages.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Each bundled package: its directory (relative to `root`) and package.json,
 * by name then version, by code point (not localeCompare: the order must not
 * depend on the builder's locale).
 */
export function bundledPackages(root) {
  const metafile = join(root, 'dist', 'metafile-cjs.json');
  if (!existsSync(metafile)) throw new Error(`${metafile} is missing: run tsup first`);
  const { inputs } = JSON.parse(readFileSync(metafile, 'utf8'));
  const dirs = new Set();
  for (const input of Object.keys(inputs)) {
    // The innermost node_modules/<name> (or <@scope/name>) holding the file.
    const at = input.lastIndexOf('node_modules/');
    if (at === -1) continue;
    const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.slice(at));
    if (name) dirs.add(`${input.slice(0, at)}node_modules/${name[1]}`);
  }
  return [...dirs]
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) }))
    .sort((a, b) => compare(a.pkg.name, b.pkg.name) || compare(a.pkg.version, b.pkg.version));
}
