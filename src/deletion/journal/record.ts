import type { DeleteResultKind } from '../results.js';

/** One line of the journal, as written by DeletionJournal (journal.ts). */
export interface JournalRecord {
  event: 'start' | 'intent' | 'outcome';
  run: string;
  time: string;
  command: string;
  profile: string;
  base_url: string;
  /** The plan a run of plants apply applied. */
  plan?: string;
  id?: string;
  name?: string;
  tag?: string;
  request_id?: string | null;
  result?: DeleteResultKind;
  status?: number | null;
  attempts?: number | null;
  /** On a start record: how many plants the run was about to delete. */
  plants?: number;
}

const EVENTS = new Set(['start', 'intent', 'outcome']);
/** The results an outcome records (`would_delete` never is: a dry run records nothing). */
const RESULTS = new Set<string>(['deleted', 'gone', 'not_found', 'unknown', 'failed', 'skipped']);
const STRINGS = ['run', 'time', 'command', 'profile', 'base_url'] as const;

const optional = (value: unknown, type: 'string' | 'number') =>
  value === undefined || value === null || typeof value === type;

/**
 * A line of the journal as a record, or undefined when it is not one: not
 * JSON, not an object, or a field of the wrong type (a hand edit: an object
 * for a name, a result plants never writes). What is shown of a record is
 * text or a number, so nothing unmasked can pass through in an object.
 */
export function parseRecord(text: string): JournalRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (!EVENTS.has(record.event as string) || STRINGS.some((key) => typeof record[key] !== 'string')) return undefined;
  if (!optional(record.name, 'string') || !optional(record.tag, 'string')) return undefined;
  if (!optional(record.plan, 'string')) return undefined;
  if (!optional(record.request_id, 'string') || !optional(record.status, 'number')) return undefined;
  if (!optional(record.attempts, 'number') || !optional(record.plants, 'number')) return undefined;
  if (record.event !== 'start' && typeof record.id !== 'string') return undefined;
  if (record.event === 'outcome' && !RESULTS.has(record.result as string)) return undefined;
  return record as unknown as JournalRecord;
}
