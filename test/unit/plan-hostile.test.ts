import { describe, expect, it } from 'vitest';
import { InvalidPlanError, parsePlan } from '../../src/deletion/plan/parse.js';

// A hostile pass over the plan parser: what a hand edit, or a file that is no plan, may hold.

const refusal = (text: string): string => {
  try {
    parsePlan(text, 'p.json');
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidPlanError);
    return (err as Error).message;
  }
  throw new Error('parsePlan accepted it');
};

describe('parsePlan of text that is no plan', () => {
  it('JSON nested deeper than the stack is an invalid plan (exit 2), not an unexpected error', () => {
    expect(refusal('['.repeat(200_000))).toMatch(/^p\.json is not a valid plan: it is not JSON/);
  });
});
