import { JsonNumber, stringifyJson } from '../json.js';

/**
 * Text from the service is untrusted: a plant name could carry terminal
 * escape sequences. These helpers make it safe to show.
 */

// C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Replace control characters with visible escapes (`\n`, `\u001b`). */
export function printable(text: string): string {
  // Most text has none: a test is cheaper than a replace that finds nothing.
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(CONTROL, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** Masks the secrets (the token) in text about to be shown. */
export type Redact = (text: string) => string;

/** For text that no secret can be in (tests, text the CLI made itself). */
export const NO_SECRETS: Redact = (text) => text;

/**
 * A short, single-line, printable excerpt of a body for error messages.
 * `redact` runs on the whole text, before the cut: a token cut in two is no
 * longer found, and its first part would show.
 */
export function excerpt(text: string, max: number, redact: Redact): string {
  const flat = printable(redact(text).replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** How a field value is shown in a table or TSV cell. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof JsonNumber) {
    return String(value);
  }
  return stringifyJson(value);
}
