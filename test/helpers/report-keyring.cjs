// Preloaded with NODE_OPTIONS=--require: says on stderr when the run looks up
// the keyring binding (see test/e2e/keyring.test.ts), which only a run that
// reads or writes a token in the OS keyring may do. Through the CommonJS
// resolver, which require() and require.resolve() share on every Node.js.
const Module = process.getBuiltinModule('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (String(request).startsWith('@napi-rs/keyring')) process.stderr.write('keyring binding loaded\n');
  return resolve.call(this, request, ...rest);
};
