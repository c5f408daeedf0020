/**
 * A JSON number whose text would not survive a trip through a JavaScript
 * number: an integer id above 2^53, `1.50`, `1e2`, `-0`. It is kept as the
 * service wrote it, so ids stay exact and `--json` output matches the input.
 */
export class JsonNumber {
  /** How many exist; serialisation needs its slower path only when some do. */
  static created = 0;
  readonly text: string;

  constructor(text: string) {
    this.text = text;
    JsonNumber.created += 1;
  }

  toString(): string {
    return this.text;
  }
}

// Private-use character plus a per-process nonce: cannot collide with real data by accident.
// Made on first use: nothing runs at import time.
let marker: string | undefined;
// Web Crypto's global rather than node:crypto, which a short run would otherwise have to load.
const MARKER = () =>
  (marker ??= `\ue000${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(8))).toString('hex')}:`);
/**
 * The numbers (after a delimiter) that JSON.parse might change: 16 digits
 * or more, a fraction or exponent, or -0. An integer of up to 15 digits
 * always comes back as written (it is below 2^53, and valid JSON has no
 * leading zeros), so the common case, ids and counts, matches nothing.
 */
const RISKY_NUMBER_AFTER_DELIMITER = /[:,[]\s*(-?\d{16,}[\d.eE+-]*|-?\d+[.eE][\d.eE+-]*|-0(?![\d.eE]))/g;
const NUMBER_CHAR = /[\d.eE+-]/;

function roundTrips(token: string): boolean {
  return String(Number(token)) === token;
}

/**
 * JSON.parse, except that numbers which JSON.parse would change come back as
 * JsonNumber. Throws SyntaxError for invalid JSON, like JSON.parse.
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  // Cheap pre-check: a regex pass finds every number that might change (and
  // some look-alikes inside strings); only if one would is the text tokenised.
  for (const match of text.matchAll(RISKY_NUMBER_AFTER_DELIMITER)) {
    if (!roundTrips(match[1]!)) return parseLossless(text);
  }
  return value;
}

/** Rewrite each changing number as a marked string, parse, then turn marks into JsonNumber. */
function parseLossless(text: string): unknown {
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      i += 1;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i += 1;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      let end = i + 1;
      while (end < text.length && NUMBER_CHAR.test(text[end]!)) end += 1;
      const token = text.slice(i, end);
      if (!roundTrips(token)) {
        out += text.slice(copied, i) + JSON.stringify(MARKER() + token);
        copied = end;
      }
      i = end;
    } else {
      i += 1;
    }
  }
  out += text.slice(copied);
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(MARKER()) ? new JsonNumber(value.slice(MARKER().length)) : value,
  );
}

/** JSON.stringify that writes JsonNumber values as the numbers they were. */
export function stringifyJson(value: unknown, indent?: number): string {
  if (JsonNumber.created === 0) return JSON.stringify(value, null, indent);
  const text = JSON.stringify(
    value,
    (_key, item: unknown) => (item instanceof JsonNumber ? MARKER() + item.text : item),
    indent,
  );
  return text.replaceAll(new RegExp(`"${MARKER()}([^"]*)"`, 'g'), '$1');
}
