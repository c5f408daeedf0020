// Part of `npm run build`, after tsup and before scripts/licenses.js (which
// removes the metafile this reads): writes dist/sbom.cdx.json, a CycloneDX
// SBOM of the packages bundled into dist/. npm installs no copy of them, so
// `npm audit` never sees them; an SBOM scanner can (docs/security.md#the-sbom).
// npm's own `npm sbom` describes them, from package-lock.json (which pins
// node_modules: a bundled package at another version than the lock's fails
// the build); this keeps the bundled ones only, and nothing that differs
// between two builds.
import { execFileSync } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledPackages } from './bundled-packages.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// The npm that runs the build (npm_execpath), else the one on PATH. From the lock, not the tree on disk:
// npm reads a node_modules that is a symbolic link (test/e2e/reproducible-build.test.ts) as broken.
const args = ['sbom', '--sbom-format', 'cyclonedx', '--sbom-type', 'application', '--package-lock-only', '--offline'];
const npm = /npm-cli\.js$/.test(process.env.npm_execpath ?? '') ? process.env.npm_execpath : undefined;
const sbom = JSON.parse(
  npm
    ? execFileSync(process.execPath, [npm, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    : execFileSync('npm', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }),
);

const bundled = new Set(bundledPackages(root).map(({ pkg }) => `${pkg.name}@${pkg.version}`));
const components = sbom.components
  .filter((component) => bundled.has(component['bom-ref']))
  // npm marks them development dependencies (optional, from the lock): in this package they are code it runs.
  .map(({ properties: _, ...component }) => ({ ...component, scope: 'required' }));
const found = new Set(components.map((component) => component['bom-ref']));
const missing = [...bundled].filter((ref) => !found.has(ref));
if (missing.length > 0) throw new Error(`npm sbom does not list the bundled ${missing.join(', ')}`);

const rootRef = sbom.metadata.component['bom-ref'];
const dependencies = sbom.dependencies
  .filter(({ ref }) => ref === rootRef || found.has(ref))
  .map(({ ref, dependsOn }) => ({ ref, dependsOn: (dependsOn ?? []).filter((to) => found.has(to)) }));

// No timestamp, and a serial number made from the contents (a UUID v5): two
// builds of the same tree give the same bytes (test/e2e/reproducible-build.test.ts).
const { timestamp: _time, lifecycles: _lock, component, ...meta } = sbom.metadata;
const head = { $schema: sbom.$schema, bomFormat: sbom.bomFormat, specVersion: sbom.specVersion };
const body = {
  version: sbom.version,
  // npm names the root after its directory; the package's own name is what users install.
  // From the lock npm says pre-build; this lists what the build put into dist/.
  metadata: {
    lifecycles: [{ phase: 'build' }],
    ...meta,
    component: { ...component, name: own.name, version: own.version },
  },
  components,
  dependencies,
};
const URL_NAMESPACE = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');
const hash = createHash('sha1')
  .update(URL_NAMESPACE)
  .update(JSON.stringify({ ...head, ...body }))
  .digest();
hash[6] = (hash[6] & 0x0f) | 0x50;
hash[8] = (hash[8] & 0x3f) | 0x80;
const uuid = hash.toString('hex', 0, 16).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
const out = { ...head, serialNumber: `urn:uuid:${uuid}`, ...body };
writeFileSync(join(root, 'dist', 'sbom.cdx.json'), `${JSON.stringify(out, null, 2)}\n`);
