import { repeatedFields } from '../api/repeated-fields.js';
import type { Plant } from '../api/responses.js';
import { JsonNumber, numberText } from '../shared/json.js';
import { printable, quoted, wordList } from '../shared/text.js';
import { plantId } from './id-input.js';

/**
 * A plant the service listed with its `id`, `name` or `tag` written twice,
 * differently (`{"id":"2","id":"3"}`): plants reads the last value, but
 * which plant (or tag, or name) the service means is not known, so no
 * protection can be checked against it. A run with protections refuses
 * to delete it, as it refuses a plant it cannot find (guard.ts).
 */

/** Every id the service listed this plant under: the one plants reads, then the others it wrote. */
export function listedIds(plant: Plant): string[] {
  const own = plantId(plant);
  const ids = own === undefined ? [] : [own];
  for (const value of repeatedFields(plant)?.get('id') ?? []) {
    const id = plantId({ id: value });
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** How long each value is shown in a refusal. */
const VALUE_IN_REFUSAL = 40;

/** What the service's list says more than once about the plant: `with more than one id: "2" and "3"`; undefined when nothing. */
export function ambiguity(plant: Plant): string | undefined {
  const fields = repeatedFields(plant);
  if (fields === undefined) return undefined;
  const parts = [...fields].map(([field, values]) => `more than one ${field}: ${wordList(values.map(shown), 'and')}`);
  return `with ${parts.join('; ')}`;
}

/** A value as JSON text, escaped for the terminal and cut short: `"2"` and `2` are told apart. */
function shown(value: unknown): string {
  if (typeof value === 'string') {
    return quoted(value.length > VALUE_IN_REFUSAL ? `${value.slice(0, VALUE_IN_REFUSAL)}…` : value);
  }
  const text = value instanceof JsonNumber ? numberText(value) : (JSON.stringify(value) ?? String(value));
  return printable(text.length > VALUE_IN_REFUSAL ? `${text.slice(0, VALUE_IN_REFUSAL)}…` : text);
}
