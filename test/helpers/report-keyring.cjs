// Preloaded with NODE_OPTIONS=--require: says on stderr when the run loads the
// keyring binding (see test/e2e/keyring.test.ts), which only a run that reads
// or writes a token in the OS keyring may do.
process.getBuiltinModule('node:module').registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith('@napi-rs/keyring')) process.stderr.write('keyring binding loaded\n');
    return next(specifier, context);
  },
});
