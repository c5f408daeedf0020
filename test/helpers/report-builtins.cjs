// Preloaded with NODE_OPTIONS=--require: prints, as the last line of stderr,
// the built-in modules the run loaded, comma-separated (see test/e2e/build.test.ts).
// Listed before anything is written, and written to the descriptor: making
// process.stderr would itself load node's streams.
process.on('exit', () => {
  const loaded = process.moduleLoadList.filter((name) => name.startsWith('NativeModule ')).join(',');
  process.getBuiltinModule('node:fs').writeSync(2, `${loaded}\n`);
});
