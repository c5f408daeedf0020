import { UsageError } from '../shared/errors.js';
import { JsonNumber, numberText, parseJson } from '../shared/json.js';
import { repeatedKey } from '../shared/json-keys.js';
import { printable, quoted, wordList } from '../shared/text.js';
import { idsFromText, leadingLineBreaks, READ_BACK_FORMATS, trimAsciiSpace, trimBlankLines } from './id-text.js';

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
    READ_BACK_FORMATS.map(({ format }) => format.toUpperCase()),
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
 * an id column) is refused: its names and tags are not ids. So is text
 * that names no plant (blank lines only), unlike no text at all, `[]` or a
 * CSV header alone (an empty selection), and JSON with a key written twice.
 */
export function parseIdInput(text: string): string[] {
  // A byte order mark (Notepad, PowerShell 5, Excel's CSV UTF-8) is no part of the first id.
  const unmarked = text.replace(/^\uFEFF/, '');
  const trimmed = trimAsciiSpace(unmarked);
  // Nothing at all is an empty selection; blank lines are what cut -f1 prints of plants without ids.
  if (trimmed === '') {
    if (unmarked === '') return [];
    throw blankOnly(unmarked);
  }
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
    refuseRepeatedKey(trimmed, (item) => `item ${item! + 1} of the JSON on standard input`);
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
        refuseRepeatedKey(line, () => `line ${number} of standard input`);
        return idFromItem(item, `line ${number} of standard input`);
      });
  }
  // Only whole blank lines come off: a space at the end of the last id is as much part of it as anywhere else.
  return idsFromText(trimBlankLines(unmarked), startLine, unmarked);
}

/**
 * A key one object holds twice (`{"id":"7","id":"8"}`, or `"\u0069d"` for
 * the second) is refused wherever it is: JSON.parse keeps the last, and
 * which was meant cannot be told.
 */
function refuseRepeatedKey(json: string, where: (item: number | undefined) => string): void {
  const repeated = repeatedKey(json);
  if (repeated === undefined) return;
  throw new UsageError(
    `${where(repeated.item)} has the key ${quoted(repeated.key)} twice in one object, so which value is meant cannot be told; nothing was deleted`,
  );
}

/** Input of blank lines only: it names no plant, and is no empty selection (that is `[]`, or nothing at all). */
function blankOnly(text: string): UsageError {
  const lines = text.split(/\r\n|\r|\n/);
  const count = lines.length - (lines.at(-1) === '' ? 1 : 0);
  return new UsageError(
    `standard input has ${count === 1 ? '1 line' : `${count} lines`}, all blank: it names no plant ` +
      '(cut -f1 prints such lines for plants without ids; an empty selection is no input at all, or [] from plants list --json); nothing was deleted',
  );
}
