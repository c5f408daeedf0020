import fc from 'fast-check';

// Property tests draw the same values on every run, so `npm test` passes or
// fails the same way each time. PLANTS_TEST_SEED picks other values: a
// number, or `random` for a new seed per run (fast-check prints the seed of
// a failure, to be replayed with that number).
const chosen = process.env.PLANTS_TEST_SEED;
if (chosen !== 'random') {
  const seed = chosen === undefined || chosen === '' ? 20_261_129 : Number(chosen);
  if (!Number.isSafeInteger(seed)) throw new Error(`PLANTS_TEST_SEED must be a whole number or random, not ${chosen}`);
  fc.configureGlobal({ seed });
}
