// Preloaded with NODE_OPTIONS=--require: prints, as the last line of stderr,
// the bundles of dist/ the run loaded (`vendor/conf.cjs`), comma-separated
// (see test/e2e/build.test.ts). Through the code cache a bundle is read with
// fs.readFileSync (src/startup/code-cache.ts), without it required.
const fs = process.getBuiltinModule('node:fs');
const bundles = new Set();
const seen = (file) => {
  const at = String(file).lastIndexOf('/dist/');
  if (at !== -1 && String(file).endsWith('.cjs')) bundles.add(String(file).slice(at + '/dist/'.length));
};
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  seen(file);
  return readFileSync.call(this, file, ...rest);
};
process.on('exit', () => {
  for (const file of Object.keys(process.getBuiltinModule('node:module')._cache)) seen(file);
  process.stderr.write(`${[...bundles].sort().join(',')}\n`);
});
