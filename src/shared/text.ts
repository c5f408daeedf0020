import { JsonNumber, numberText, stringifyJson } from './json.js';

/**
 * Text from the service is untrusted: a plant name could carry terminal
 * escape sequences. These helpers make it safe to show.
 */

/*
 * Never shown raw on a terminal: C0 controls, DEL and C1 controls (they
 * start escape sequences); U+2028 and U+2029 (line breaks to JavaScript and
 * Python's splitlines); and the invisible characters that reorder or hide
 * text, which can make `Delete plant 42?` name another id: bidi controls
 * (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069), zero-width
 * characters (U+180E, U+200B-U+200D, U+2060-U+2064, U+FEFF), the deprecated
 * format controls U+206A-U+206F and the annotation marks U+FFF9-U+FFFB.
 * Piped records escape only the first two groups (see singleLine).
 * Each pattern is tested before it replaces: most text has none, and a test
 * is cheaper than a replace that finds nothing (100,000-row output).
 */
const TERMINAL_UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
const HAS_TERMINAL_UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;
// eslint-disable-next-line no-control-regex
const RECORD_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// eslint-disable-next-line no-control-regex
const HAS_RECORD_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** `\n`, `\r`, `\t`, or a `\u001b`-style escape (every such character is in the BMP). */
export function escapeCharacter(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text for a terminal: control, separator, bidi and zero-width characters shown as escapes (`\n`, `\u202e`). */
export function printable(text: string): string {
  if (!HAS_TERMINAL_UNSAFE.test(text)) return text;
  return text.replace(TERMINAL_UNSAFE, escapeCharacter);
}

/**
 * Text for one record of piped output: only what could break the line
 * (controls, U+2028, U+2029) escaped; bidi and zero-width characters are
 * data and stay exact, so an id read back from `cut -f1` is the same id.
 */
export function singleLine(text: string): string {
  if (!HAS_RECORD_BREAKING.test(text)) return text;
  return text.replace(RECORD_BREAKING, escapeCharacter);
}

/** Text quoted for a message: a JSON string, with whatever a terminal would act on escaped too. */
export function quoted(text: string): string {
  return printable(JSON.stringify(text));
}

/** `a, b and c` (or `a, b or c`): words listed in a sentence. */
export function wordList(words: readonly string[], last: 'and' | 'or'): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)!}`;
}

/**
 * Rows known to hold no backslash and no C0 control character (below
 * U+0020) in any string, keys included: rows read from JSON text without a
 * backslash, since JSON writes each of those as an escape. Their TSV fields
 * need no escape of those (see lineEncoder).
 */
export interface PlainRows {
  plain?: true;
}

/**
 * A short, single-line, printable excerpt of a body for error messages.
 * Text that may hold a secret is masked by the caller first, whole
 * (`excerpt(maskSecrets(text), max)`): a token cut in two is no longer
 * found, and its first part would show.
 */
export function excerpt(text: string, max: number): string {
  const flat = printable(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** How a field value is shown in a table or TSV cell. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof JsonNumber) return numberText(value);
  return stringifyJson(value);
}
