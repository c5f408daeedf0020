/**
 * JSON.parse keeps the last of a key written twice in one object
 * (`{"id":"7","id":"8"}` is `{"id":"8"}`): input that does so is ambiguous,
 * and what it meant cannot be told. This finds such a key in valid JSON.
 */

/** A key one object holds twice, as JSON.parse reads keys (escapes decoded: `"\u0069d"` is `id`). */
export interface RepeatedKey {
  key: string;
  /** When the text is an array: the index of its item that holds the object (at any depth). */
  item?: number;
}

/** The first key one object of `json` (valid JSON) holds twice, or undefined. */
export function repeatedKey(json: string): RepeatedKey | undefined {
  // Per open object: its keys so far; per array, null. The next string is a key right after `{` or a `,` in an object.
  const open: (Set<string> | null)[] = [];
  let keyNext = false;
  let item: number | undefined;
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (code === 0x22) {
      const end = stringEnd(json, i);
      const keys = open.at(-1);
      if (keyNext && keys) {
        const raw = json.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (keys.has(key)) return item === undefined ? { key } : { key, item };
        keys.add(key);
      }
      keyNext = false;
      i = end;
    } else if (code === 0x7b) {
      open.push(new Set());
      keyNext = true;
    } else if (code === 0x5b) {
      if (open.length === 0) item = 0;
      open.push(null);
      keyNext = false;
    } else if (code === 0x5d || code === 0x7d) {
      open.pop();
    } else if (code === 0x2c) {
      const top = open.at(-1);
      keyNext = top instanceof Set;
      if (open.length === 1 && top === null) item! += 1;
    }
  }
  return undefined;
}

/** Where the string that opens at `start` closes: the next quote not escaped. */
export function stringEnd(json: string, start: number): number {
  let end = json.indexOf('"', start + 1);
  for (;;) {
    // Not valid JSON after all: the string runs to the end.
    if (end === -1) return json.length;
    let backslashes = 0;
    while (json.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return end;
    end = json.indexOf('"', end + 1);
  }
}
