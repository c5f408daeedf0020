/**
 * The members of a JSON object's text, as written: JSON.parse keeps only
 * the last of two members with one key (`{"id":"2","id":"3"}` is plant 3),
 * so what the others said is read here, from the text.
 */

/**
 * A reader of the members of `keys` in a JSON object's text: for a text,
 * the text of each value of a key at its top level, in order, when one of
 * them is written more than once (a key spelled with escapes, `"\u0069d"`,
 * is that key too); undefined when none is, or the text is no object. The
 * text is valid JSON (it was parsed): only strings and brackets are
 * followed. A cheap look comes first: when each key is written at most
 * once and none with an escape, a few searches are all it costs.
 */
export function repeatedMembers(keys: readonly string[]): (text: string) => Map<string, string[]> | undefined {
  const wanted = new Set(keys);
  const written = keys.map((key) => `"${key}"`);
  return (text) => {
    if (!mayHaveEscapedKey(text) && !written.some((key) => appearsTwice(text, key))) return undefined;
    return membersOf(text, wanted);
  };
}

function membersOf(text: string, wanted: ReadonlySet<string>): Map<string, string[]> | undefined {
  const found = new Map<string, string[]>();
  let i = skipBlank(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipBlank(text, i + 1);
  // The next backslash, looked up again once passed: a key without one is read without a slice.
  let backslash = text.indexOf('\\', i);
  while (i < text.length && text.charCodeAt(i) === QUOTE) {
    const keyEnd = stringEnd(text, i);
    // A key is compared only when it could be one of them: most are not, and need no slice.
    if (backslash !== -1 && backslash < i) backslash = text.indexOf('\\', i);
    const key = keyEnd - i - 2 > MAX_KEY && (backslash === -1 || backslash > keyEnd) ? '' : keyText(text, i, keyEnd);
    // The colon, then the value up to the comma or brace that ends it.
    const start = skipBlank(text, skipBlank(text, keyEnd) + 1);
    const end = valueEnd(text, start);
    if (wanted.has(key)) {
      const values = found.get(key);
      const value = text.slice(start, end).trimEnd();
      if (values) values.push(value);
      else found.set(key, [value]);
    }
    i = skipBlank(text, end);
    if (text.charCodeAt(i) !== COMMA) break;
    i = skipBlank(text, i + 1);
  }
  for (const [key, values] of found) if (values.length < 2) found.delete(key);
  return found.size > 0 ? found : undefined;
}

/** Keys longer than this are not read unless escaped (the keys looked for are short). */
const MAX_KEY = 16;

function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start, end);
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** A `\u` escape in a string that a colon follows: a key may be spelled with escapes (`"\u0069d"`). */
const ESCAPED_KEY = /\\u[\da-fA-F]{4}(?:[^"\\]|\\.)*"\s*:/;

/** Whether the text may hold a key written with a `\u` escape (rarely: such an escape in a value that ends before a colon too). */
export function mayHaveEscapedKey(text: string): boolean {
  return text.includes('\\u') && ESCAPED_KEY.test(text);
}

function appearsTwice(text: string, search: string): boolean {
  const first = text.indexOf(search);
  return first !== -1 && text.indexOf(search, first + search.length) !== -1;
}

function skipBlank(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) break;
    i += 1;
  }
  return i;
}

/** Just after the string that starts at `from` (its opening quote): the next quote after an even run of backslashes. */
function stringEnd(text: string, from: number): number {
  for (let i = from + 1; ;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return text.length;
    let before = quote - 1;
    while (text.charCodeAt(before) === BACKSLASH) before -= 1;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/** Just after the value that starts at `from`: a string, an object or array, or a scalar up to a delimiter. */
function valueEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = stringEnd(text, i) - 1;
      if (depth === 0) return i + 1;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth += 1;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      if (depth === 0) return i;
      depth -= 1;
      if (depth === 0) return i + 1;
    } else if (code === COMMA && depth === 0) return i;
  }
  return text.length;
}
