import { UsageError } from '../errors.js';
import { JsonNumber, parseJson } from '../json.js';

/**
 * The id of a plant object as text, or undefined when it has none usable.
 * Ids are opaque: strings as they are, numbers as the service wrote them.
 */
export function plantId(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const id = (item as { id?: unknown }).id;
  if (typeof id === 'string') return id === '' ? undefined : id;
  if (typeof id === 'number' || id instanceof JsonNumber) return String(id);
  return undefined;
}

function idFromItem(item: unknown, where: string): string {
  if (typeof item === 'string' && item !== '') return item;
  if (typeof item === 'number' || item instanceof JsonNumber) return String(item);
  const id = plantId(item);
  if (id === undefined) {
    throw new UsageError(
      `${where} has no usable "id" (a non-empty string or a number); the plants may carry no ids, so they cannot be deleted by id; nothing was deleted`,
    );
  }
  return id;
}

/**
 * Ids from standard input, in one of the shapes scripts produce:
 * - the JSON array `plants list --json` prints (objects with `id`; plain strings or numbers work too);
 * - NDJSON, one object per line, as `plants list -o ndjson` prints;
 * - otherwise ids separated by whitespace or newlines.
 */
export function parseIdInput(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) {
    let items: unknown;
    try {
      items = parseJson(trimmed);
    } catch (err) {
      throw new UsageError(`standard input starts like a JSON array but is not valid JSON: ${(err as Error).message}`);
    }
    if (!Array.isArray(items)) throw new UsageError('standard input is JSON but not an array');
    return items.map((item: unknown, index) => idFromItem(item, `item ${index} of the JSON on standard input`));
  }
  if (trimmed.startsWith('{')) {
    return trimmed
      .split('\n')
      .map((line, index) => ({ line: line.trim(), number: index + 1 }))
      .filter(({ line }) => line !== '')
      .map(({ line, number }) => {
        let item: unknown;
        try {
          item = parseJson(line);
        } catch {
          throw new UsageError(`line ${number} of standard input is not a JSON object (NDJSON expected there)`);
        }
        return idFromItem(item, `line ${number} of standard input`);
      });
  }
  return trimmed.split(/\s+/);
}
