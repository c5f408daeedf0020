// Preloaded with NODE_OPTIONS=--require: prints, as the last line of stderr,
// the built-in modules the run loaded, comma-separated (see test/e2e/build.test.ts).
process.on('exit', () => {
  process.stderr.write(`${process.moduleLoadList.filter((name) => name.startsWith('NativeModule ')).join(',')}\n`);
});
