import { UsageError } from '../errors.js';
import { JsonNumber, parseJson } from '../json.js';
import { printable } from '../output/text.js';

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

/** The id of a plant object, or a usage error naming `where` it is missing. */
export function requirePlantId(item: unknown, where: string): string {
  const id = plantId(item);
  if (id === undefined) {
    throw new UsageError(
      `${where} has no usable "id" (a non-empty string or a number); plants without ids cannot be deleted by id; nothing was deleted`,
    );
  }
  return id;
}

function idFromItem(item: unknown, where: string): string {
  if (typeof item === 'string' && item !== '') return item;
  if (typeof item === 'number' || item instanceof JsonNumber) return String(item);
  return requirePlantId(item, where);
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
      // JSON.parse's message quotes the input: printable, like any text that may come from the service.
      throw new UsageError(`standard input starts like a JSON array but is not valid JSON: ${printable((err as Error).message)}`);
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
  if (trimmed.includes('\t')) {
    // plants list's piped output: its fields hold names and tags, not only ids.
    throw new UsageError(
      'standard input holds tab-separated lines (plants list output?); pipe plants list --json or -o ndjson instead, or cut -f1 for the id column; nothing was deleted',
    );
  }
  const ids = trimmed.split(/\s+/);
  const quoted = ids.find((id) => /^".*"$/.test(id));
  if (quoted !== undefined) {
    throw new UsageError(
      `standard input holds the quoted id ${printable(quoted)} (jq output without -r?); pass ids unquoted; nothing was deleted`,
    );
  }
  return ids;
}
