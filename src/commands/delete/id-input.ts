import { UsageError } from '../../errors.js';
import { JsonNumber, numberText, parseJson } from '../../json.js';
import { formatsWhere } from '../../output/format-writers.js';
import { printable, wordList } from '../../shared/text.js';
import { idsFromText, leadingLineBreaks, trimAsciiSpace, trimBlankLines } from './id-text.js';

/**
 * The id of a plant object as text, or undefined when it has none usable.
 * Ids are opaque: strings as they are, numbers as the service wrote them.
 */
export function plantId(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const id = (item as { id?: unknown }).id;
  if (typeof id === 'string') return id === '' ? undefined : id;
  if (id instanceof JsonNumber) return numberText(id);
  if (typeof id === 'number') return String(id);
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
  if (item instanceof JsonNumber) return numberText(item);
  if (typeof item === 'number') return String(item);
  return requirePlantId(item, where);
}

/** The formats of plants list that parseIdInput reads back, as help names them (`JSON, NDJSON or CSV`). */
export function readBackFormats(): string {
  return wordList(
    formatsWhere((writer) => writer.readBack).map((format) => format.toUpperCase()),
    'or',
  );
}

/**
 * Ids from standard input, in one of the shapes scripts produce:
 * - the JSON array `plants list --json` prints (objects with `id`; plain strings or numbers work too);
 * - NDJSON, one object per line, as `plants list -o ndjson` prints;
 * - CSV with a header row that names an `id` column, as `plants list -o csv` prints: that column only;
 * - otherwise one id a line, taken whole (a line holding a space is refused).
 * Text that holds more than ids (a table, tab-separated rows, CSV without
 * an id column) is refused: its names and tags are not ids.
 */
export function parseIdInput(text: string): string[] {
  // A byte order mark (Notepad, PowerShell 5, Excel's CSV UTF-8) is no part of the first id.
  const unmarked = text.replace(/^\uFEFF/, '');
  const trimmed = trimAsciiSpace(unmarked);
  if (trimmed === '') return [];
  // Messages number lines as an editor does: blank lines trimmed off the start count too.
  const startLine = 1 + leadingLineBreaks(unmarked);
  if (trimmed.startsWith('[')) {
    let items: unknown;
    try {
      items = parseJson(trimmed);
    } catch (err) {
      // JSON.parse's message quotes the input: printable, like any text that may come from the service.
      throw new UsageError(
        `standard input starts like a JSON array but is not valid JSON: ${printable((err as Error).message)}`,
      );
    }
    if (!Array.isArray(items)) throw new UsageError('standard input is JSON but not an array');
    return items.map((item: unknown, index) => idFromItem(item, `item ${index + 1} of the JSON on standard input`));
  }
  if (trimmed.startsWith('{')) {
    return trimmed
      .split('\n')
      .map((line, index) => ({ line: line.trim(), number: startLine + index }))
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
  // Only whole blank lines come off: a space at the end of the last id is as much part of it as anywhere else.
  return idsFromText(trimBlankLines(unmarked), startLine, unmarked);
}
