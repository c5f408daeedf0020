import { stringifyJson } from './json.js';
import { holdsLarge, LARGE_TEXT, slicesOf } from './large-values.js';

/**
 * The text JSON.stringify(value, null, indent) gives, in pieces, made as
 * they are read: a large string is escaped slice by slice (each slice
 * whole code points, so its escapes are those of the whole), inside the
 * objects and arrays marked as holding one (holdsLarge), so that it is
 * never copied whole into one text. Everything else is JSON.stringify's
 * own text. `level` is how deep the value sits in the text it is part of
 * (with `indent`, its lines after the first are indented so much more).
 */
export function* jsonPieces(value: unknown, indent?: number, level = 0): Generator<string> {
  const gap = indent === undefined ? '' : ' '.repeat(Math.min(10, indent));
  yield* valuePieces(value, gap, gap.repeat(level));
}

/** A string as JSON (JSON.stringify(text)), in slices when it is large. */
export function* jsonStringPieces(text: string): Generator<string> {
  if (text.length < LARGE_TEXT) {
    yield JSON.stringify(text);
    return;
  }
  yield '"';
  // A slice with nothing to escape is its own JSON: no copy of it is made.
  for (const slice of slicesOf(text)) yield ESCAPED.test(slice) ? JSON.stringify(slice).slice(1, -1) : slice;
  yield '"';
}

/** What JSON.stringify writes other than as it is: quotes, backslashes, controls, and surrogates (a lone one is escaped). */
// eslint-disable-next-line no-control-regex
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify(value, null, gap) with its lines indented by `at`; undefined where it gives none. */
function stringified(value: unknown, gap: string, at: string): string | undefined {
  const text = stringifyJson(value, gap === '' ? undefined : gap.length) as string | undefined;
  // JSON text holds line breaks only between its tokens: a string's are escaped.
  return text === undefined || at === '' || gap === '' ? text : text.replaceAll('\n', `\n${at}`);
}

function* valuePieces(value: unknown, gap: string, at: string): Generator<string> {
  if (!holdsLarge(value)) {
    yield stringified(value, gap, at) ?? 'null';
    return;
  }
  if (typeof value === 'string') {
    yield* jsonStringPieces(value);
    return;
  }
  // A marked object or array: its members as JSON.stringify lays them out.
  const inner = at + gap;
  const open = gap === '' ? '' : `\n${inner}`;
  const between = gap === '' ? ',' : `,\n${inner}`;
  const close = gap === '' ? '' : `\n${at}`;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    yield `[${open}`;
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) yield between;
      // In an array, what JSON has no text for (undefined) is null.
      yield* valuePieces(value[i], gap, inner);
    }
    yield `${close}]`;
    return;
  }
  const record = value as Record<string, unknown>;
  let first = true;
  yield '{';
  for (const key of Object.keys(record)) {
    const member = record[key];
    // In an object, a member JSON has no text for (undefined) is left out.
    const text = holdsLarge(member) ? undefined : stringified(member, gap, inner);
    if (text === undefined && !holdsLarge(member)) continue;
    yield first ? open : between;
    first = false;
    yield* jsonStringPieces(key);
    yield gap === '' ? ':' : ': ';
    if (text === undefined) yield* valuePieces(member, gap, inner);
    else yield text;
  }
  yield first ? '}' : `${close}}`;
}
