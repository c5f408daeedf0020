import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The suite StrykerJS runs against each mutant (`npm run test:mutation`): the
// in-process tests only. The end-to-end tests spawn the built bundle in
// dist/, which a mutant in src/ never reaches, so running them would only cost
// time; docs/testing.md says what that means for the scores.
export default defineConfig({
  ...base,
  // Instrumented code (every mutant switchable, coverage counted per test)
  // runs the property tests several times slower: 20 s is not enough there.
  test: { ...base.test, include: ['test/unit/**/*.test.ts'], testTimeout: 60_000 },
});
