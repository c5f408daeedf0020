// Part of `npm run build`: the bundles in dist/ contain other packages'
// code, whose licenses ask that their notices travel with it. This writes
// dist/THIRD-PARTY-LICENSES.md from esbuild's list of what went into the
// bundles (scripts/bundled-packages.js), and the notices that
// bundled code carries in its comments (/*! ... */), which esbuild writes
// beside each bundle (<bundle>.LEGAL.txt, moved in here: see tsup.config.ts).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledPackages, compare } from './bundled-packages.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const packages = bundledPackages(root);
// Read by scripts/sbom.js before this runs; not shipped.
rmSync(join(root, 'dist', 'metafile-cjs.json'));

const sections = packages.map(({ dir, pkg }) => {
  const file = readdirSync(join(root, dir)).find((name) => /^(licen[cs]e|copying)/i.test(name));
  if (!file) throw new Error(`${pkg.name} is bundled but ships no license file`);
  return {
    name: pkg.name,
    version: pkg.version,
    license: pkg.license,
    text: readFileSync(join(root, dir, file), 'utf8').trim(),
  };
});

// The notices found in the bundled code, by bundle.
const legal = [];
const findLegal = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) findLegal(path);
    else if (entry.name.endsWith('.LEGAL.txt')) legal.push(path);
  }
};
if (existsSync(join(root, 'dist'))) findLegal(join(root, 'dist'));
legal.sort(compare);
const kept = legal.flatMap((path) => {
  const bundle = path
    .slice(join(root, 'dist').length + 1, -'.LEGAL.txt'.length)
    .split('\\')
    .join('/');
  const text = readFileSync(path, 'utf8').trim();
  rmSync(path);
  return [`### In dist/${bundle}`, '', '```', text, '```', ''];
});

const out = [
  '# Third-party licenses',
  '',
  'dist/ bundles the following packages. Their licenses follow.',
  '',
  ...sections.map((s) => `- ${s.name} ${s.version} (${s.license})`),
  '',
  ...sections.flatMap((s) => [`## ${s.name} ${s.version}`, '', '```', s.text, '```', '']),
  ...(kept.length ? ['## Notices in the bundled code', '', ...kept] : []),
].join('\n');
if (!existsSync(join(root, 'dist'))) throw new Error('dist/ is missing: build first');
writeFileSync(join(root, 'dist', 'THIRD-PARTY-LICENSES.md'), out);
