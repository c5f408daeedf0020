import { isDeepStrictEqual as nodeIsDeepStrictEqual } from 'node:util';

/**
 * node:util's isDeepStrictEqual as conf calls it (build/start-up.ts gives
 * conf this module for node:util): each time conf opens the file it
 * compares the store it read with its copy of it, and node's first
 * comparison loads node's comparison module (about half a millisecond of
 * every run). JSON data, which is what conf compares, is compared here, as
 * node would; anything else is node's own to compare.
 */
export function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  return jsonEqual(a, b, 0) ?? nodeIsDeepStrictEqual(a, b);
}

/** Deeper than this, node's own compares (JSON data from a config file is 4 deep). */
const MAX_DEPTH = 64;

/**
 * Whether `a` and `b` are deeply and strictly equal, where both are JSON
 * data: strings, booleans, null and numbers (compared with Object.is, as
 * node does: -0 is not 0), arrays without holes or other keys, and objects
 * whose prototype is Object.prototype or null, with no symbol keys.
 * Undefined where that is not so, for node's own to decide.
 */
function jsonEqual(a: unknown, b: unknown, depth: number): boolean | undefined {
  const objectA = typeof a === 'object' && a !== null;
  const objectB = typeof b === 'object' && b !== null;
  if (!objectA && !objectB) return isPrimitive(a) && isPrimitive(b) ? Object.is(a, b) : undefined;
  if (!objectA || !objectB || depth > MAX_DEPTH || !isPlain(a) || !isPlain(b)) return undefined;
  // Different prototypes are different values (an array and an object, {} and a null-prototype object).
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  return Array.isArray(a) ? arraysEqual(a, b as unknown[], depth) : objectsEqual(a, b, depth);
}

function arraysEqual(a: unknown[], b: unknown[], depth: number): boolean | undefined {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const same = jsonEqual(a[i], b[i], depth + 1);
    if (same !== true) return same;
  }
  return true;
}

function objectsEqual(a: object, b: object, depth: number): boolean | undefined {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.propertyIsEnumerable.call(b, key)) return false;
    const same = jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1);
    if (same !== true) return same;
  }
  return true;
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * An array with nothing but its elements (no holes, no other keys), or an
 * ordinary object whose prototype is Object.prototype or null; neither
 * with symbol keys.
 */
function isPlain(value: object): boolean {
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype || Object.keys(value).length !== value.length) return false;
    for (let i = 0; i < value.length; i += 1) if (!Object.hasOwn(value, i)) return false;
    return true;
  }
  return (
    (prototype === Object.prototype || prototype === null) &&
    Object.prototype.toString.call(value) === '[object Object]'
  );
}
