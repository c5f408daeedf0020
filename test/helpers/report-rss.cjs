// Preloaded with NODE_OPTIONS=--require: prints, as the last line of stderr,
// the run's peak resident memory in kilobytes (`maxrss=123456`), for tests
// that bound what a large body costs (test/e2e/api.test.ts).
process.on('exit', () => {
  process.getBuiltinModule('node:fs').writeSync(2, `maxrss=${process.resourceUsage().maxRSS}\n`);
});
