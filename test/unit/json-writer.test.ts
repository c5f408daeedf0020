import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonNumber } from '../../src/shared/json.js';
import { jsonPieces, jsonStringPieces } from '../../src/shared/json-writer.js';
import { LARGE_TEXT, markHoldsLarge, slicesOf } from '../../src/shared/large-values.js';

/** JSON.stringify(value, null, indent) as it reads `level` levels deep in a larger text. */
function stringifiedAt(value: unknown, indent: number | undefined, level: number): string {
  const text = JSON.stringify(value, null, indent);
  return indent === undefined ? text : text.replaceAll('\n', `\n${' '.repeat(indent * level)}`);
}

/** Marks the objects and arrays of `value` that `marks` says (in the order a walk finds them), as the builder would. */
function marked(value: unknown, marks: readonly boolean[]): unknown {
  let next = 0;
  const walk = (item: unknown) => {
    if (item === null || typeof item !== 'object' || item instanceof JsonNumber) return;
    if (marks[next++ % Math.max(1, marks.length)]) markHoldsLarge(item);
    for (const member of Object.values(item)) walk(member);
  };
  walk(value);
  return value;
}

/** Special characters that could be cut in two, or whose escape could be, where a slice ends. */
const AT_BOUNDARY = ['😀', '\ud800', '\udc00', '"', '\\', '\n', '\u2028', '\u0000', '\u007f', 'é', '植'];

/** A string longer than LARGE_TEXT with `special` across each slice boundary (starting `shift` before it). */
function largeWith(special: string, shift: number): string {
  const filler = 'a'.repeat(LARGE_TEXT - shift);
  return `${filler}${special}${'b'.repeat(LARGE_TEXT - special.length)}${special}${'c'.repeat(shift + 5)}`;
}

describe('jsonPieces', () => {
  it('makes what JSON.stringify makes, at any level, of any value, its objects and arrays marked or not', () => {
    const value = fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }).map((json) => (json === undefined ? null : json));
    fc.assert(
      fc.property(
        value,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(undefined, 1, 2, 4),
        fc.nat(3),
        (json, marks, indent, level) => {
          const text = [...jsonPieces(marked(structuredClone(json), marks), indent, level)].join('');
          expect(text).toBe(stringifiedAt(json, indent, level));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('writes numbers kept as written (JsonNumber), keys JSON treats specially and members JSON leaves out', () => {
    const plant: Record<string, unknown> = { id: new JsonNumber('12345678901234567890'), h: new JsonNumber('1.50') };
    Object.defineProperty(plant, '__proto__', {
      value: [1, 'x'],
      enumerable: true,
      writable: true,
      configurable: true,
    });
    plant.gone = undefined;
    plant.list = [undefined, 2, { deep: undefined }];
    for (const holder of [plant, plant.list as object]) markHoldsLarge(holder);
    for (const indent of [undefined, 2]) {
      expect([...jsonPieces(plant, indent)].join('')).toBe(JSON.stringify(plant, null, indent));
    }
  });

  it('writes a large string in slices, each escaped as the whole is, whatever a slice ends next to', () => {
    for (const special of AT_BOUNDARY) {
      for (const shift of [0, 1, 2, 3]) {
        const name = largeWith(special, shift);
        const pieces = [...jsonStringPieces(name)];
        expect(pieces.join('')).toBe(JSON.stringify(name));
        // Never one piece of the whole: each at most a slice, escaped (six characters a code unit at most).
        expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(6 * LARGE_TEXT);
        expect(pieces.length).toBeGreaterThan(2);
      }
    }
  });

  it('writes a plant with large values, at the top and deeper, exactly, compact and pretty', () => {
    const extra = { note: largeWith('😀', 1), list: ['x', largeWith('"', 0)], small: { a: 1 } };
    const plant = { id: 1, name: largeWith('\\', 2), tag: 'big', extra };
    for (const holder of [plant, extra, extra.list]) markHoldsLarge(holder);
    for (const indent of [undefined, 2]) {
      for (const level of [0, 1]) {
        const pieces = [...jsonPieces(plant, indent, level)];
        expect(pieces.join('')).toBe(stringifiedAt(plant, indent, level));
        expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(6 * LARGE_TEXT);
      }
    }
  });
});

describe('slicesOf', () => {
  it('cuts into slices of at most the size asked, never between the halves of a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.integer({ min: 2, max: 9 }), (text, size) => {
        const slices = [...slicesOf(text, size)];
        expect(slices.join('')).toBe(text);
        for (const [i, slice] of slices.entries()) {
          expect(slice.length).toBeLessThanOrEqual(size);
          expect(slice.length).toBeGreaterThan(0);
          const last = slice.charCodeAt(slice.length - 1);
          const next = slices[i + 1]?.charCodeAt(0) ?? 0;
          expect(last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
