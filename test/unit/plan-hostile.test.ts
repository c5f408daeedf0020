import { describe, expect, it } from 'vitest';
import { planDocument, planText, type PlanDocument } from '../../src/deletion/plan/document.js';
import { InvalidPlanError, parsePlan } from '../../src/deletion/plan/parse.js';

// A hostile pass over the plan parser: what a hand edit, or a file that is no plan, may hold.

const plan = (plants: PlanDocument['plants'] = []): PlanDocument =>
  planDocument(
    {
      origin: 'https://plants.example.com',
      pathPrefix: '/api',
      profile: 'prod',
      selection: { command: 'prune', tags: ['seedling'], name: null, all: false, limit: null },
      includeProtected: false,
      protections: { ids: [], tags: [], names: [] },
      maxDeletes: undefined,
      plants,
    },
    '0f9c1e2a-1111-4222-8333-444455556666',
    new Date('2026-11-29T10:00:00.000Z'),
  );
const fern = { id: '1', id_type: 'number', name: 'Fern', tag: null } as const;

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

describe('parsePlan of a plan edited to say two things', () => {
  it('refuses a key written twice: a reviewer reads the first, JSON.parse keeps the last', () => {
    const text = planText(plan([fern]));
    // A second "plants" after the first: the reviewer approves Fern, the apply would delete plant 2.
    const twoLists = text.replace(
      /\n\}\n$/,
      ',\n  "plants": [{"id":"2","id_type":"number","name":"Oak","tag":null}]\n}\n',
    );
    expect(refusal(twoLists)).toMatch(/"plants".*twice/);
    const twoIds = text.replace('{"id":"1",', '{"id":"1","id":"2",');
    expect(refusal(twoIds)).toMatch(/"id".*twice/);
  });

  it('refuses a created_at that is no day of the calendar, which Date.parse rolls into the next month', () => {
    const text = planText(plan([fern]));
    expect(refusal(text.replace('2026-11-29T10:00:00.000Z', '2026-02-30T10:00:00.000Z'))).toContain('"created_at"');
    expect(refusal(text.replace('2026-11-29T10:00:00.000Z', '2026-11-29T24:00:00.000Z'))).toContain('"created_at"');
    expect(parsePlan(text, 'p.json').created_at).toBe('2026-11-29T10:00:00.000Z');
  });
});

describe('parsePlan of a plan id', () => {
  it('refuses a plan_id that is no UUID: the journal keeps it unmasked and history shows it', () => {
    const text = planText(plan([fern]));
    for (const id of ['x', 'a\\nb', 's3cr3t-token-value', '0f9c1e2a-1111-4222-8333-444455556666 ']) {
      expect(refusal(text.replace('0f9c1e2a-1111-4222-8333-444455556666', id))).toContain('"plan_id" must be a UUID');
    }
  });
});

describe('planText of the service text a reviewer reads', () => {
  it('writes invisible, bidi and line-breaking characters as \\u escapes, which read back the same', () => {
    const name = 'Fern\u202e\u2066x\u2028y\u0085z\u009b31m\u200b\u00ad\ufeff';
    const doc = plan([{ ...fern, name, tag: 'a\u2029b\u061c' }]);
    const text = planText(doc);
    expect(text).not.toMatch(/[\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/);
    expect(text).toContain('"name":"Fern\\u202e\\u2066x\\u2028y\\u0085z\\u009b31m\\u200b\\u00ad\\ufeff"');
    expect(parsePlan(text, 'p.json')).toEqual(doc);
  });
});

describe('parsePlan of a plan saved by an editor', () => {
  it('reads a plan that starts with a byte order mark, as a reviewer editing it on Windows may save it', () => {
    const doc = plan([fern]);
    expect(parsePlan(`\uFEFF${planText(doc)}`, 'p.json')).toEqual(doc);
  });
});
