import { afterEach, describe, expect, it } from 'vitest';
import { planDocument, plannedPlant, planText, type PlanDocument } from '../../src/deletion/plan/document.js';
import { InvalidPlanError, parsePlan } from '../../src/deletion/plan/parse.js';
import { forgetSecrets } from '../../src/secrets/registry.js';
import { JsonNumber, parseJson } from '../../src/shared/json.js';
import type { Plant } from '../../src/api/responses.js';

afterEach(() => forgetSecrets());

const plan = (plants: PlanDocument['plants'] = []): PlanDocument =>
  planDocument(
    {
      origin: 'https://plants.example.com',
      pathPrefix: '/api',
      profile: 'prod',
      selection: { command: 'prune', tags: ['seedling'], name: 'Old *', all: false, limit: 100 },
      includeProtected: false,
      protections: { ids: ['7'], tags: ['tree'], names: [] },
      maxDeletes: { percent: 10 },
      plants,
    },
    '0f9c1e2a-1111-4222-8333-444455556666',
    new Date('2026-11-29T10:00:00.000Z'),
  );

const fern = { id: '9007199254740993', id_type: 'number', name: 'Fern', tag: null } as const;

describe('plannedPlant', () => {
  it('keeps the id as the service wrote it, and whether it was a number', () => {
    const [big, text, small] = parseJson(
      '[{"id": 9007199254740993, "name": "A", "tag": "t"}, {"id": "07", "name": "B"}, {"id": 7, "name": "C", "tag": null}]',
    ) as Plant[];
    expect(big!.id).toBeInstanceOf(JsonNumber);
    expect(plannedPlant(big!)).toEqual({ id: '9007199254740993', id_type: 'number', name: 'A', tag: 't' });
    expect(plannedPlant(text!)).toEqual({ id: '07', id_type: 'string', name: 'B', tag: null });
    expect(plannedPlant(small!)).toEqual({ id: '7', id_type: 'number', name: 'C', tag: null });
    expect(plannedPlant({ id: 8, name: 'D', tag: 5 } as unknown as Plant)).toEqual({
      id: '8',
      id_type: 'number',
      name: 'D',
      tag: null,
    });
  });
});

describe('planText and parsePlan', () => {
  it('writes every field, the cap as written, one plant a line, and reads back the same document', () => {
    const doc = plan([fern, { id: 'a"b', id_type: 'string', name: 'x\ny', tag: 'z' }]);
    const text = planText(doc);
    expect(doc.max_deletes).toBe('10%');
    expect(text).toContain(
      '\n  "plants": [\n    {"id":"9007199254740993","id_type":"number","name":"Fern","tag":null},\n    {"id":"a\\"b",',
    );
    expect(text.endsWith('"tag":"z"}\n  ]\n}\n')).toBe(true);
    expect(parsePlan(text, 'p.json')).toEqual(doc);
  });

  it('writes an empty plan as an empty array, and reads it back', () => {
    const text = planText(plan());
    expect(text.endsWith('"plants": []\n}\n')).toBe(true);
    expect(parsePlan(text, 'p.json').plants).toEqual([]);
  });

  it('reads a plan of delete, and ignores fields it does not know', () => {
    const doc = {
      ...plan([fern]),
      selection: { command: 'delete', ids: ['9007199254740993'] },
      note: 'reviewed by Ann',
    };
    expect(parsePlan(JSON.stringify(doc), 'p.json').selection).toEqual({
      command: 'delete',
      ids: ['9007199254740993'],
    });
  });

  const broken = (edit: (doc: Record<string, unknown>) => void) => {
    const doc = JSON.parse(planText(plan([fern, { ...fern, id: '8' }]))) as Record<string, unknown>;
    edit(doc);
    try {
      parsePlan(JSON.stringify(doc), 'p.json');
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidPlanError);
      expect((err as InvalidPlanError).exitCode).toBe(2);
      return (err as Error).message;
    }
    throw new Error('the plan was read');
  };
  const plants = (doc: Record<string, unknown>) => doc.plants as Record<string, unknown>[];
  const selection = (doc: Record<string, unknown>) => doc.selection as Record<string, unknown>;

  it.each<[string, (doc: Record<string, unknown>) => void, string]>([
    ['kind', (d) => (d.kind = 'plan'), '"kind" must be "plants.deletion-plan"'],
    ['plan_id', (d) => (d.plan_id = ''), '"plan_id" must be a non-empty string'],
    ['created_at, not a time', (d) => (d.created_at = 'yesterday'), '"created_at" must be a UTC time such as'],
    ['created_at, no such day', (d) => (d.created_at = '2026-13-40T10:00:00Z'), '"created_at" must be a UTC time'],
    ['created_at, not UTC', (d) => (d.created_at = '2026-11-29T10:00:00+01:00'), '"created_at" must be a UTC time'],
    ['origin', (d) => (d.origin = 7), '"origin" must be a non-empty string'],
    ['path_prefix', (d) => delete d.path_prefix, '"path_prefix" must be a string'],
    ['profile', (d) => (d.profile = null), '"profile" must be a string'],
    ['selection', (d) => (d.selection = []), '"selection" must be a JSON object'],
    ['selection.command', (d) => (selection(d).command = 'list'), '"selection"."command" must be "prune" or "delete"'],
    ['selection.tags', (d) => (selection(d).tags = 'x'), '"selection"."tags" must be an array of strings'],
    ['selection.tags[1]', (d) => (selection(d).tags = ['a', 1]), '"selection"."tags"[1] must be a string'],
    ['selection.name', (d) => (selection(d).name = 3), '"selection"."name" must be a string'],
    ['selection.all', (d) => (selection(d).all = 'no'), '"selection"."all" must be true or false'],
    ['selection.limit', (d) => (selection(d).limit = -1), '"selection"."limit" must be a whole number, or null'],
    ['selection.limit, a fraction', (d) => (selection(d).limit = 1.5), '"selection"."limit" must be a whole number'],
    ['selection.ids', (d) => (d.selection = { command: 'delete' }), '"selection"."ids" must be an array of strings'],
    ['include_protected', (d) => (d.include_protected = 0), '"include_protected" must be true or false'],
    ['protections', (d) => (d.protections = null), '"protections" must be a JSON object'],
    [
      'protections.names',
      (d) => ((d.protections as Record<string, unknown>).names = [null]),
      '"protections"."names"[0] must be a string',
    ],
    ['max_deletes', (d) => (d.max_deletes = 5), '"max_deletes" must be a string'],
    ['plants', (d) => (d.plants = {}), '"plants" must be an array'],
    ['plants[1]', (d) => (plants(d)[1] = null as never), '"plants"[1] must be a JSON object'],
    ['plants[0].id', (d) => (plants(d)[0]!.id = 7), '"plants"[0].id must be a non-empty string'],
    ['plants[0].id, empty', (d) => (plants(d)[0]!.id = ''), '"plants"[0].id must be a non-empty string'],
    ['plants[1].id_type', (d) => (plants(d)[1]!.id_type = 'int'), '"plants"[1].id_type must be "number" or "string"'],
    [
      'plants[1].id, no number',
      (d) => (plants(d)[1]!.id = '08'),
      '"plants"[1].id is "08", which is not a JSON number, as its id_type "number" says',
    ],
    ['plants[0].name', (d) => (plants(d)[0]!.name = ['x']), '"plants"[0].name must be a string'],
    ['plants[0].tag', (d) => delete plants(d)[0]!.tag, '"plants"[0].tag must be a string'],
  ])('names the field: %s', (_, edit, message) => {
    const said = broken(edit);
    expect(said).toContain(`p.json is not a valid plan: ${message}`);
    expect(said).toContain('make the plan again (plants prune|delete … --plan <file>), or fix that field');
  });

  it('takes any JSON number as an id of id_type number', () => {
    for (const id of ['0', '-7', '7.5', '1e3', '12345678901234567890']) {
      expect(parsePlan(planText(plan([{ ...fern, id }])), 'p.json').plants[0]!.id).toBe(id);
    }
  });

  it('refuses one id twice, naming both places', () => {
    expect(broken((d) => (plants(d)[1]!.id = fern.id))).toBe(
      'p.json is not a valid plan: it names plant 9007199254740993 twice ("plants"[0] and "plants"[1]); remove one of them',
    );
  });

  it('refuses another version, saying which it reads', () => {
    expect(broken((d) => (d.version = 2))).toBe(
      'p.json is a plan of format version 2, which this plants does not read (it reads version 1); make the plan again with this plants',
    );
    expect(broken((d) => delete d.version)).toContain('format version null');
    expect(broken((d) => (d.version = '1'))).toContain('format version "1"');
  });

  it('says where a file that is not JSON breaks', () => {
    expect(() => parsePlan('{\n  "kind": x\n}', 'p.json')).toThrow(
      'p.json is not a valid plan: it is not JSON (an unexpected "x" at line 2, column 11); make the plan again, or fix that line',
    );
    expect(() => parsePlan('[]', 'p.json')).toThrow('p.json is not a valid plan: the document must be a JSON object');
  });
});
