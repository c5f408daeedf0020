import { UsageError } from '../../shared/errors.js';
import { repeatedKey } from '../../shared/json-keys.js';
import { printable } from '../../shared/text.js';
import { jsonErrorPlace } from './json-error.js';
import { PLAN_KIND, PLAN_VERSION, type PlanDocument, type PlannedPlant, type PlanSelection } from './document.js';

// A plan file read back, every field checked: a hand edit that broke it is named, never guessed at.

/** A plan file that is not one: exit 2, naming the field or line, and what to do. */
export class InvalidPlanError extends UsageError {
  override name = 'InvalidPlanError';
}

/** A JSON number as a service writes one: what an id of id_type number must look like. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** A reader of one document's fields, each failure naming the field (`plants[3].id`). */
class Fields {
  constructor(readonly file: string) {}

  fail(field: string, problem: string): never {
    throw new InvalidPlanError(
      `${printable(this.file)} is not a valid plan: ${field} ${problem}; make the plan again (plants prune|delete … --plan <file>), or fix that field`,
    );
  }

  object(value: unknown, field: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(field, 'must be a JSON object');
    return value as Record<string, unknown>;
  }

  string(value: unknown, field: string, { empty = true } = {}): string {
    if (typeof value !== 'string' || (!empty && value === '')) {
      this.fail(field, `must be a${empty ? '' : ' non-empty'} string`);
    }
    return value;
  }

  nullableString(value: unknown, field: string): string | null {
    return value === null ? null : this.string(value, field);
  }

  boolean(value: unknown, field: string): boolean {
    if (typeof value !== 'boolean') this.fail(field, 'must be true or false');
    return value;
  }

  strings(value: unknown, field: string): string[] {
    if (!Array.isArray(value)) this.fail(field, 'must be an array of strings');
    return value.map((item, index) => this.string(item, `${field}[${index}]`));
  }
}

/**
 * The plan in `text` (read from `file`), checked: a JSON document of this
 * kind and version, every field of the type it must be, and no id twice.
 * An InvalidPlanError (exit 2) names what is wrong.
 */
export function parsePlan(fileText: string, file: string): PlanDocument {
  // A byte order mark (Notepad, PowerShell 5's Set-Content -Encoding UTF8) is no part of the JSON.
  const text = fileText.replace(/^\uFEFF/, '');
  const fields = new Fields(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidPlanError(
      `${printable(file)} is not a valid plan: it is not JSON (${jsonErrorPlace(text)}); make the plan again, or fix that line`,
    );
  }
  // JSON.parse keeps the last of a key written twice: a reviewer reading the file sees the first.
  const twice = repeatedKey(text)?.key;
  if (twice !== undefined) {
    throw new InvalidPlanError(
      `${printable(file)} is not a valid plan: one of its objects holds the key ${printable(JSON.stringify(twice))} twice, and which one is meant cannot be told; remove one of them`,
    );
  }
  const doc = fields.object(value, 'the document');
  if (doc.kind !== PLAN_KIND) fields.fail('"kind"', `must be ${JSON.stringify(PLAN_KIND)}`);
  if (doc.version !== PLAN_VERSION) {
    const given = typeof doc.version === 'number' ? `${doc.version}` : JSON.stringify(doc.version ?? null);
    throw new InvalidPlanError(
      `${printable(file)} is a plan of format version ${printable(given)}, which this plants does not read (it reads version ${PLAN_VERSION}); make the plan again with this plants`,
    );
  }
  const created = fields.string(doc.created_at, '"created_at"');
  const made = Date.parse(created);
  // Date.parse rolls a day or hour out of range into the next (02-30 is 03-02): the time must read back as written.
  const exact = !Number.isNaN(made) && new Date(made).toISOString().slice(0, 19) === created.slice(0, 19);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(created) || !exact) {
    fields.fail('"created_at"', 'must be a UTC time such as 2026-11-29T10:00:00.000Z');
  }
  const protections = fields.object(doc.protections, '"protections"');
  const maxDeletes = doc.max_deletes === null ? null : fields.string(doc.max_deletes, '"max_deletes"');
  return {
    kind: PLAN_KIND,
    version: PLAN_VERSION,
    plan_id: planIdOf(fields, doc.plan_id),
    created_at: created,
    origin: fields.string(doc.origin, '"origin"', { empty: false }),
    path_prefix: fields.string(doc.path_prefix, '"path_prefix"'),
    profile: fields.string(doc.profile, '"profile"'),
    selection: selectionOf(fields, doc.selection),
    include_protected: fields.boolean(doc.include_protected, '"include_protected"'),
    protections: {
      ids: fields.strings(protections.ids, '"protections"."ids"'),
      tags: fields.strings(protections.tags, '"protections"."tags"'),
      names: fields.strings(protections.names, '"protections"."names"'),
    },
    max_deletes: maxDeletes,
    plants: plantsOf(fields, doc.plants),
  };
}

/**
 * The plan's id: a UUID, as docs/plans.md says. The journal keeps it as it is and history shows it,
 * so text of any other shape (a line break, a secret, a megabyte) is no plan id.
 */
function planIdOf(fields: Fields, value: unknown): string {
  const id = fields.string(value, '"plan_id"', { empty: false });
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
    fields.fail('"plan_id"', 'must be a UUID such as 0b147983-3e0f-4c59-9a51-8d0e6c1a2b3c');
  }
  return id;
}

function selectionOf(fields: Fields, value: unknown): PlanSelection {
  const selection = fields.object(value, '"selection"');
  if (selection.command === 'delete') {
    return { command: 'delete', ids: fields.strings(selection.ids, '"selection"."ids"') };
  }
  if (selection.command !== 'prune') fields.fail('"selection"."command"', 'must be "prune" or "delete"');
  const limit = selection.limit;
  if (limit !== null && !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0)) {
    fields.fail('"selection"."limit"', 'must be a whole number, or null');
  }
  return {
    command: 'prune',
    tags: fields.strings(selection.tags, '"selection"."tags"'),
    name: fields.nullableString(selection.name, '"selection"."name"'),
    all: fields.boolean(selection.all, '"selection"."all"'),
    limit,
  };
}

function plantsOf(fields: Fields, value: unknown): PlannedPlant[] {
  if (!Array.isArray(value)) fields.fail('"plants"', 'must be an array');
  const first = new Map<string, number>();
  return value.map((item, index) => {
    const where = `"plants"[${index}]`;
    const plant = fields.object(item, where);
    const id = fields.string(plant.id, `${where}.id`, { empty: false });
    const idType = plant.id_type;
    if (idType !== 'number' && idType !== 'string') fields.fail(`${where}.id_type`, 'must be "number" or "string"');
    if (idType === 'number' && !JSON_NUMBER.test(id)) {
      fields.fail(`${where}.id`, `is ${JSON.stringify(id)}, which is not a JSON number, as its id_type "number" says`);
    }
    const earlier = first.get(id);
    if (earlier !== undefined) {
      throw new InvalidPlanError(
        `${printable(fields.file)} is not a valid plan: it names plant ${printable(id)} twice ("plants"[${earlier}] and ${where}); remove one of them`,
      );
    }
    first.set(id, index);
    return {
      id,
      id_type: idType,
      name: fields.nullableString(plant.name, `${where}.name`),
      tag: fields.nullableString(plant.tag, `${where}.tag`),
    };
  });
}
