// Mutation testing: `npm run test:mutation` (not part of `npm test`).
// docs/testing.md records the scores.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // forks, not threads: a worker thread closes at its exit the descriptors it opened, and a
  // pipe handed to a socket (deletion/journal/read.ts) is closed by libuv, not by fs, so a
  // later file's worker would close a descriptor that by then is another's (libuv aborts).
  vitest: { configFile: 'vitest.mutation.config.ts', pool: 'forks' },
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants: tables of codes, limits) have no
  // per-test coverage, so each runs the whole suite: 8% of the mutants, 60%
  // of the time. Left out unless STRYKER_STATIC=1. (Incremental runs also
  // keep a static mutant's old result when only the tests changed.)
  ignoreStatic: process.env.STRYKER_STATIC !== '1',
  // Every folder that decides, records or masks (docs/architecture.md).
  mutate: [
    'src/deletion/**/*.ts',
    'src/secrets/**/*.ts',
    'src/http/**/*.ts',
    'src/api/**/*.ts',
    'src/shared/**/*.ts',
    'src/commands/**/*.ts',
    'src/config/**/*.ts',
    'src/output/**/*.ts',
  ],
  // Only mutants whose code or tests changed since the last run are tested
  // again; delete the file (or pass --force) for a full run.
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  ignorePatterns: ['dist', 'coverage', 'reports', '*.tgz'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 80, low: 60, break: null },
  timeoutMS: 10_000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
