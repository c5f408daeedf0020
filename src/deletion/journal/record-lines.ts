import type { DeleteResult } from '../results.js';
import { maskSecrets } from '../../secrets/registry.js';

// The journal's records as text: the fields every record of a run shares, a plant's fields, and whole lines.

/** Names and tags are cut to this many characters in a record: a service's text is not bounded. */
const MAX_TEXT = 200;

/** What every record of a run carries besides its own fields. */
export interface JournalRun {
  /** A UUID shared by the run's records. */
  run: string;
  command: string;
  profile: string;
  /** The base URL, credentials masked. */
  baseUrl: string;
  /** The plan the run applies (plants apply): its records name it. */
  plan?: string;
}

/** A plant as the run knows it: always its id; its name and tag when it listed or looked it up. */
export interface JournalPlant {
  id: string;
  name?: unknown;
  tag?: unknown;
}

/**
 * The lines of one run's records. The journal writer is a place where text
 * leaves the process: every secret the run knows is masked in what a record
 * takes from outside (the profile, the base URL, a plant's id, name and tag).
 */
export class RunRecords {
  /** The fields every record of the run shares, as JSON text without braces: made once. */
  readonly #shared: { run: string; rest: string };

  constructor({ run, command, profile, baseUrl, plan }: JournalRun) {
    const rest = { command, profile: maskSecrets(profile), base_url: maskSecrets(baseUrl), plan };
    this.#shared = { run: JSON.stringify(run), rest: JSON.stringify(rest).slice(1, -1) };
  }

  /**
   * A record's line. `fields` are its own, as JSON text without braces (made
   * as text: a record is written for every request, and spreading objects
   * into one cost more than the write).
   */
  line(event: string, fields: string): string {
    // {"v":1,"event":…,"run":…,"time":…,"command":…,"profile":…,"base_url":…,"plan"?:…, then the record's own fields}
    return `{"v":1,"event":"${event}","run":${this.#shared.run},"time":"${isoNow()}",${this.#shared.rest}${fields === '' ? '' : `,${fields}`}}\n`;
  }

  /** The plant's fields of a record, as JSON text without braces: its id, and its name and tag when known. */
  plant(plant: JournalPlant): string {
    let fields = `"id":${JSON.stringify(maskSecrets(plant.id))}`;
    for (const key of ['name', 'tag'] as const) {
      const value = plant[key];
      // Masked before it is cut: a cut could leave a piece of the token that no mask would find.
      if (typeof value === 'string') fields += `,"${key}":${JSON.stringify(cut(maskSecrets(value)))}`;
    }
    return fields;
  }

  /** The outcome record of a DELETE. */
  outcome(plant: JournalPlant, result: DeleteResult, attempts: number | null): string {
    return this.line(
      'outcome',
      `${this.plant(plant)},"request_id":${JSON.stringify(result.request_id ?? null)},"result":${JSON.stringify(result.result)},"status":${JSON.stringify(result.status ?? null)},"attempts":${JSON.stringify(attempts)}`,
    );
  }

  /** The outcome record of a plant never sent. */
  skipped(plant: JournalPlant): string {
    return this.line(
      'outcome',
      `${this.plant(plant)},"request_id":null,"result":"skipped","status":null,"attempts":null`,
    );
  }
}

/** The last record's time, in milliseconds and as written: a run records several DELETEs a millisecond. */
let lastTime = Number.NaN;
let lastIso = '';

/** Now, as an ISO 8601 UTC time with milliseconds (`toISOString`, which takes a microsecond, once a millisecond). */
function isoNow(): string {
  const now = Date.now();
  if (now !== lastTime) {
    lastIso = new Date(now).toISOString();
    lastTime = now;
  }
  return lastIso;
}

/** Text cut to MAX_TEXT characters, an ellipsis saying so. */
export function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}
