import { randomBytes } from './random.js';

/** What Node 22.19+ has and the ES2023 lib does not declare: raw JSON values, and the reviver's source text. */
const RawJson = JSON as unknown as { rawJSON(text: string): object; isRawJSON(value: unknown): boolean };
type Reviver = (key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * A JSON number whose text would not survive a trip through a JavaScript
 * number: an integer id above 2^53, `1.50`, `1e2`, `-0`. It is kept as the
 * service wrote it, so ids stay exact and `--json` output matches the input.
 * It is a raw JSON value (JSON.rawJSON: a frozen object whose `rawJSON` is
 * the text), which JSON.stringify writes as that text on its fast path;
 * `instanceof JsonNumber` tells one, `numberText` reads it (String() cannot:
 * it has no prototype).
 */
export interface JsonNumber {
  readonly rawJSON: string;
}

export const JsonNumber = class {
  constructor(text: string) {
    // A constructor may return another object: `new JsonNumber(text)` is the raw value.
    return RawJson.rawJSON(text);
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return RawJson.isRawJSON(value);
  }
} as unknown as { new (text: string): JsonNumber; [Symbol.hasInstance](value: unknown): value is JsonNumber };

/** A JsonNumber's text, as the service wrote it. */
export function numberText(value: JsonNumber): string {
  return value.rawJSON;
}

/**
 * The numbers (after a delimiter) that JSON.parse might change: 16 digits
 * or more, a fraction or exponent, or -0. An integer of up to 15 digits
 * always comes back as written (it is below 2^53, and valid JSON has no
 * leading zeros), so the common case, ids and counts, matches nothing.
 */
const RISKY_NUMBER_AFTER_DELIMITER = /[:,[]\s*(-?\d{16,}[\d.eE+-]*|-?\d+[.eE][\d.eE+-]*|-0(?![\d.eE]))/g;

/** Text that starts (after JSON's white space) as a number does. */
const LEADING_NUMBER = /^[ \t\n\r]*[-\d]/;

/** Whether `token`, a JSON number's text, comes back as written from a JavaScript number. */
function roundTrips(token: string): boolean {
  // Most risky numbers are long integer ids, judged without converting them
  // (a conversion back to text takes about 0.3 µs: 30 ms of a list of
  // 100,000): past 17 digits only one ending in zeros can come back as
  // written; one of 16 (below 10^16, so below 2^54, where doubles are the
  // even integers past 2^53) comes back if it is at most 2^53 - 1 or even.
  const digits = token.length - (token.startsWith('-') ? 1 : 0);
  if (digits >= 16 && INTEGER.test(token)) {
    if (digits > 17 && !token.endsWith('0')) return false;
    if (digits === 16 && token.charCodeAt(token.length - 16) !== 0x30) {
      return token.slice(-16) <= MAX_SAFE_DIGITS || token.charCodeAt(token.length - 1) % 2 === 0;
    }
  }
  return String(Number(token)) === token;
}

const INTEGER = /^-?\d+$/;
/** Number.MAX_SAFE_INTEGER (2^53 - 1) as written: 16 digits. */
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER);

/** A number JSON.parse would change, as a JsonNumber of its source text (V8's JSON.parse source text access). */
const keepNumbers: Reviver = (_key, value, context) =>
  typeof value === 'number' && context?.source !== undefined && !roundTrips(context.source)
    ? new JsonNumber(context.source)
    : value;

// `~` and a per-process nonce of 64 random bits: no text in real data is one
// by accident. Printable, so that a marked number is a string without an
// escape, which V8's JSON.parse reads on its fast path (a `\u0001` escape
// took 16 ms more of 100,000 ids). Made on first use: nothing runs at import time.
let marker: string | undefined;
const MARKER = () => (marker ??= `~${Buffer.from(randomBytes(8)).toString('hex')}:`);

/**
 * JSON.parse, except that numbers which JSON.parse would change come back as
 * JsonNumber. Throws SyntaxError for invalid JSON, like JSON.parse.
 */
export function parseJson(text: string): unknown {
  // A number alone has no delimiter before it for the patterns to find: read as an array's one item.
  if (LEADING_NUMBER.test(text)) {
    let items: unknown;
    try {
      items = parseJson(`[${text}]`);
    } catch {
      items = undefined;
    }
    // Not one value (`1,2`, `1]`): JSON.parse of the text itself throws, with its own message.
    return Array.isArray(items) && items.length === 1 ? items[0] : JSON.parse(text);
  }
  // Cheap pre-check: a regex pass finds every number that might change (and
  // some look-alikes inside strings); only then is there more to do.
  for (const match of text.matchAll(RISKY_NUMBER_AFTER_DELIMITER)) {
    if (!roundTrips(match[1]!)) return parseKeepingNumbers(text);
  }
  return JSON.parse(text);
}

/**
 * The fast way: each number that would change is written as a marked string
 * (a regex replace), the text parsed as it is, and the marks turned into
 * JsonNumber in one walk: several times quicker than a reviver, which V8
 * calls for every value. A look-alike inside a string is rewritten too, and
 * that always breaks the JSON (the inserted quote ends the string, and the
 * mark cannot stand outside one): then the reviver, with V8's source text,
 * does it exactly.
 */
function parseKeepingNumbers(text: string): unknown {
  const mark = MARKER();
  let parsed: unknown;
  try {
    // A replacement pattern, not a function: no call per number.
    parsed = JSON.parse(text.replace(RISKY_VALID_NUMBER, `$1"${mark}$2"`));
  } catch {
    return JSON.parse(text, keepNumbers as Parameters<typeof JSON.parse>[1]);
  }
  return unmark(parsed, mark);
}

/**
 * Like RISKY_NUMBER_AFTER_DELIMITER, but only a whole, valid JSON number
 * (RFC 8259's grammar, a delimiter after it): an invalid one (`1.2.3`, `01`)
 * is left alone, and the parse fails on it as it should. Nor an even
 * integer of 16 digits: below 10^16, so below 2^54, where a double holds
 * every even integer, JSON.parse gives it exactly (of 100,000 such ids,
 * half need no mark, and no trip back: 8 to 12 ms less on Node 22 and 24).
 */
const RISKY_VALID_NUMBER =
  /([:,[]\s*)(?!-?[1-9]\d{14}[02468]\s*[,\]}])(-?[1-9]\d{15,}(?:\.\d+)?(?:[eE][+-]?\d+)?|-?(?:0|[1-9]\d*)(?:\.\d+(?:[eE][+-]?\d+)?|[eE][+-]?\d+)|-0)(?=\s*[,\]}])/g;

/**
 * Marked strings back into numbers, all through the value (iterative:
 * nesting costs no stack): a JsonNumber, or a plain number where the text
 * comes back as written (`1.5`, marked only because the pattern cannot tell).
 */
function unmark(value: unknown, mark: string): unknown {
  // As the other ways judge a number (parseJson's check, keepNumbers): kept where JSON.parse would change it.
  const restore = (item: string): unknown => {
    const number = item.slice(mark.length);
    return roundTrips(number) ? Number(number) : new JsonNumber(number);
  };
  const marked = (item: unknown): item is string =>
    typeof item === 'string' && item.charCodeAt(0) === 0x7e && item.startsWith(mark);
  if (marked(value)) return restore(value);
  const pending: object[] = [];
  if (value !== null && typeof value === 'object') pending.push(value);
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (Array.isArray(next)) {
      for (let index = 0; index < next.length; index += 1) {
        const item: unknown = next[index];
        if (marked(item)) next[index] = restore(item);
        else if (item !== null && typeof item === 'object') pending.push(item);
      }
      continue;
    }
    const record = next as Record<string, unknown>;
    for (const key in record) {
      const item = record[key];
      if (marked(item)) record[key] = restore(item);
      else if (item !== null && typeof item === 'object' && !(item instanceof JsonNumber)) pending.push(item);
    }
  }
  return value;
}

/** JSON.stringify, JsonNumber values written as the numbers they were (raw JSON). */
export function stringifyJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent);
}
