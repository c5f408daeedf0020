import type { Plant } from '../../api/responses.js';
import type { Protections } from '../../config/profile-settings.js';
import { JsonNumber } from '../../shared/json.js';
import { formatMaxDeletes, type MaxDeletes } from '../../shared/values.js';
import { plantId } from '../id-input.js';

// A deletion plan as a document: what `--plan` writes and `plants apply` reads (docs/plans.md).

/** What the document says it is, beside its version: a file that says otherwise is no plan. */
export const PLAN_KIND = 'plants.deletion-plan';
/** The format version this plants writes and reads. */
export const PLAN_VERSION = 1;

/** The selection as the command was given it: prune's filters, or delete's ids. */
export type PlanSelection =
  | { command: 'prune'; tags: string[]; name: string | null; all: boolean; limit: number | null }
  | { command: 'delete'; ids: string[] };

/**
 * One plant of a plan, as the service listed it. The id is a string holding
 * exactly what the service wrote, `id_type` whether it wrote a number: an
 * editor or `jq` never rounds an id above 2^53.
 */
export interface PlannedPlant {
  id: string;
  id_type: 'number' | 'string';
  name: string | null;
  tag: string | null;
}

export interface PlanDocument {
  kind: typeof PLAN_KIND;
  version: typeof PLAN_VERSION;
  plan_id: string;
  /** When it was made, ISO 8601 UTC. */
  created_at: string;
  /** The base URL's origin and path prefix (`https://plants.example.com`, `/api`), as the run's secrets masked them. */
  origin: string;
  path_prefix: string;
  profile: string;
  selection: PlanSelection;
  /** The protections and cap in force when it was made, for the reviewer; apply checks those in force then. */
  include_protected: boolean;
  protections: Protections;
  max_deletes: string | null;
  plants: PlannedPlant[];
}

/** A listed plant as a plan keeps it (its id must be there: plantId). */
export function plannedPlant(plant: Plant): PlannedPlant {
  const id = plantId(plant)!;
  return {
    id,
    id_type: plant.id instanceof JsonNumber || typeof plant.id === 'number' ? 'number' : 'string',
    name: typeof plant.name === 'string' ? plant.name : null,
    tag: typeof plant.tag === 'string' ? plant.tag : null,
  };
}

/** What a plan is made of; the rest (kind, version, id, time) planDocument adds. */
export interface PlanContents {
  origin: string;
  pathPrefix: string;
  profile: string;
  selection: PlanSelection;
  includeProtected: boolean;
  protections: Protections;
  maxDeletes: MaxDeletes | undefined;
  plants: PlannedPlant[];
}

export function planDocument(contents: PlanContents, planId: string, now: Date): PlanDocument {
  return {
    kind: PLAN_KIND,
    version: PLAN_VERSION,
    plan_id: planId,
    created_at: now.toISOString(),
    origin: contents.origin,
    path_prefix: contents.pathPrefix,
    profile: contents.profile,
    selection: contents.selection,
    include_protected: contents.includeProtected,
    protections: contents.protections,
    max_deletes: contents.maxDeletes === undefined ? null : formatMaxDeletes(contents.maxDeletes),
    plants: contents.plants,
  };
}

/**
 * The document as its file holds it: indented JSON, each plant on a line
 * of its own, so that a reviewer removes a plant by removing its line (and
 * a comma) and a diff shows one line a plant.
 */
export function planText(plan: PlanDocument): string {
  const { plants, ...head } = plan;
  const lines = plants.map((plant) => `    ${JSON.stringify(plant)}`);
  const start = JSON.stringify({ ...head, plants: [] }, null, 2).replace(/\[\]\n\}$/, '');
  const text = `${start}${lines.length === 0 ? '[]' : `[\n${lines.join(',\n')}\n  ]`}\n}\n`;
  // The service's text as the reviewer's editor or terminal shows it: a character that is invisible,
  // reorders the line (bidi) or breaks it is written as its \u escape, which JSON reads back the same.
  return text.replace(UNSEEN, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Characters a person does not see as written: C1 controls, invisible, bidi and line or paragraph separators. */
const UNSEEN = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
