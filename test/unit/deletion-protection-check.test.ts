import { describe, expect, it } from 'vitest';
import { noteRepeatedFields } from '../../src/api/repeated-fields.js';
import type { Plant } from '../../src/api/responses.js';
import type { PlantsById } from '../../src/deletion/guard.js';
import { checkProtections } from '../../src/deletion/protection-check.js';
import { RefusedError } from '../../src/shared/errors.js';
import { parseJson } from '../../src/shared/json.js';

// The refusal a protected, unchecked or ambiguously listed target gets.

function listed(text: string): Plant {
  const plant = parseJson(text) as Plant;
  noteRepeatedFields([text], [plant]);
  return plant;
}

function refusal(run: () => void): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(RefusedError);
    return (err as Error).message;
  }
  throw new Error('not refused');
}

const NONE = { ids: [], tags: [], names: [] };
const TAIL =
  "; nothing was deleted; leave it out, or pass --include-protected to delete without checking any rule (rules: 'plants config list')";

describe('checkProtections: a plant the service listed ambiguously', () => {
  it('is refused when no rule protects it, saying what the list repeats', () => {
    const plant = listed('{"id":"2","name":"Fern","tag":"a","tag":"b"}');
    const byId: PlantsById = new Map([['2', [plant]]]);
    expect(refusal(() => checkProtections([{ id: '2' }], byId, { ...NONE, tags: ['keep'] }, 'prod'))).toBe(
      'plant 2 "Fern" (with more than one tag: "a" and "b") is listed ambiguously by the service (which plant it means is unknown), so cannot be checked against the protections of profile prod' +
        TAIL,
    );
    // The plant the run has, without a list.
    expect(refusal(() => checkProtections([{ id: '2', plant }], undefined, { ...NONE, tags: ['keep'] }, 'p'))).toMatch(
      /^plant 2 "Fern" \(with more than one tag: "a" and "b"\) is listed ambiguously .* of profile p; nothing was deleted; leave it out,/,
    );
  });

  it('names several, and counts them with the rest', () => {
    const two = listed('{"id":"2","name":"A","name":"B"}');
    const three = listed('{"id":"3","name":"C","name":"D"}');
    const byId: PlantsById = new Map([
      ['2', [two]],
      ['3', [three]],
    ]);
    const message = refusal(() =>
      checkProtections([{ id: '2' }, { id: '3' }, { id: '9' }], byId, { ...NONE, names: ['K*'] }, 'prod'),
    );
    expect(message).toBe(
      `plant 9 is not in the service's list, so cannot be checked against the protections of profile prod (name "K*"); ` +
        'plants 2 "B" (with more than one name: "A" and "B"), 3 "D" (with more than one name: "C" and "D") are listed ambiguously by the service (which plant it means is unknown), so cannot be checked against the protections of profile prod' +
        "; nothing was deleted; leave them out, or pass --include-protected to delete without checking any rule (rules: 'plants config list')",
    );
  });

  it('is refused as protected when a rule protects it anyway', () => {
    const plant = listed('{"id":"2","name":"Fern","tag":"keep","name":"Moss"}');
    const byId: PlantsById = new Map([['2', [plant]]]);
    expect(refusal(() => checkProtections([{ id: '2' }], byId, { ...NONE, tags: ['keep'] }, 'prod'))).toBe(
      '1 plant is protected in profile prod: plant 2 "Moss" (tag "keep")' + TAIL,
    );
  });

  it('lets a plainly listed plant no rule protects pass, and one ambiguous with no rule to check', () => {
    const byId: PlantsById = new Map([['2', [listed('{"id":"2","tag":"x"}')]]]);
    expect(() => checkProtections([{ id: '2' }], byId, { ...NONE, tags: ['keep'] }, 'prod')).not.toThrow();
    expect(() => checkProtections([{ id: '2' }], new Map(), { ...NONE, ids: ['3'] }, 'prod')).not.toThrow();
  });
});

describe('checkProtections: a tag or name matched loosely', () => {
  it('says by which tag, and what was set aside', () => {
    const plant = { id: '5', name: 'Fern', tag: 'KEEP' } as Plant;
    const byId: PlantsById = new Map([['5', [plant]]]);
    expect(refusal(() => checkProtections([{ id: '5' }], byId, { ...NONE, tags: ['keep'] }, 'prod'))).toMatch(
      /^1 plant is protected in profile prod: plant 5 "Fern" \(tag "keep", matched by its tag "KEEP" with .+ set aside\); nothing/,
    );
  });

  it('cuts a name past 60 characters, and not one of 60', () => {
    const sixty = 'A'.repeat(60);
    const at = (name: string) =>
      refusal(() =>
        checkProtections([{ id: '5', plant: { id: '5', name } }], undefined, { ...NONE, names: ['a*'] }, 'p'),
      );
    expect(at(sixty)).toContain(`matched by its name "${sixty}" with`);
    expect(at(`${sixty}B`)).toContain(`matched by its name "${sixty}…" with`);
  });

  it('says no text for a tag that is a number', () => {
    const plant = { id: '5', name: 'Fern', tag: 7 } as unknown as Plant;
    const message = refusal(() =>
      checkProtections([{ id: '5' }], new Map([['5', [plant]]]), { ...NONE, tags: ['7'] }, 'p'),
    );
    expect(message).toMatch(/^1 plant is protected in profile p: plant 5 "Fern" \(tag "7"\); nothing/);
    const loosely = refusal(() =>
      checkProtections([{ id: '5' }], new Map([['5', [plant]]]), { ...NONE, tags: ['\uff17'] }, 'p'),
    );
    expect(loosely).toMatch(
      /^1 plant is protected in profile p: plant 5 "Fern" \(tag "\uff17", matched with .+ set aside\); nothing/,
    );
  });
});
