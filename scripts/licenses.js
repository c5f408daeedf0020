// Part of `npm run build`: the bundles in dist/ contain other packages'
// code, whose licenses ask that their notices travel with it. This writes
// dist/THIRD-PARTY-LICENSES.md from esbuild's list of what went into the
// bundles (dist/metafile-cjs.json, removed afterwards), and the notices that
// bundled code carries in its comments (/*! ... */), which esbuild writes
// beside each bundle (<bundle>.LEGAL.txt, moved in here: see tsup.config.ts).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const metafile = join(root, 'dist', 'metafile-cjs.json');
const { inputs } = JSON.parse(readFileSync(metafile, 'utf8'));
rmSync(metafile);

const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

const packages = new Set();
for (const input of Object.keys(inputs)) {
  // The innermost node_modules/<name> (or <@scope/name>) holding the file.
  const at = input.lastIndexOf('node_modules/');
  if (at === -1) continue;
  const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.slice(at));
  if (name) packages.add(`${input.slice(0, at)}node_modules/${name[1]}`);
}

const sections = [...packages]
  .map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(root, dir)).find((name) => /^(licen[cs]e|copying)/i.test(name));
    if (!file) throw new Error(`${pkg.name} is bundled but ships no license file`);
    return {
      name: pkg.name,
      version: pkg.version,
      license: pkg.license,
      text: readFileSync(join(root, dir, file), 'utf8').trim(),
    };
  })
  // By code point, not localeCompare: the order must not depend on the builder's locale.
  .sort((a, b) => compare(a.name, b.name) || compare(a.version, b.version));

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
