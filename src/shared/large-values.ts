/**
 * Values too large to copy whole. A plant's 400 MB name is built once
 * from the pieces of the body it came in (src/shared/json-builder.ts) and
 * written in slices (src/shared/json-writer.ts, the TSV and CSV fields, the
 * table): each copy of it would cost as much memory again (the bench's
 * "huge" rows, docs/performance.md).
 */

/** A string this long (in UTF-16 code units) or longer is large. */
export const LARGE_TEXT = 1024 * 1024;

/**
 * `text` in slices of `size` code units or one fewer: views of a flat
 * string, not copies. A slice never ends between the halves of a surrogate
 * pair (each half alone would be written as U+FFFD, or escaped by
 * JSON.stringify as a lone surrogate).
 */
export function* slicesOf(text: string, size = LARGE_TEXT): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && end - 1 > at && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield text.slice(at, end);
    at = end;
  }
}

/** Objects and arrays that hold a large string, as a value or deeper. */
const HOLDERS = new WeakSet<object>();

/** Marks `holder` (an object or array) as holding a large string, itself or deeper. */
export function markHoldsLarge(holder: object): void {
  HOLDERS.add(holder);
}

/**
 * A large string, or an object or array marked as holding one: what is
 * written in pieces. Only what json-builder.ts builds is marked; any other
 * value is written whole, as before, which is the same text.
 */
export function holdsLarge(value: unknown): boolean {
  if (typeof value === 'string') return value.length >= LARGE_TEXT;
  return typeof value === 'object' && value !== null && HOLDERS.has(value);
}
