import fc from 'fast-check';
import { isDeepStrictEqual as nodeIsDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isDeepStrictEqual } from '../../src/config/json-equal.js';

/** A null-prototype copy of an object (as conf makes some of its stores), arrays and values kept. */
const nullPrototype = (value: Record<string, unknown>) => Object.assign(Object.create(null) as object, value);

/** JSON data, -0 among the numbers; some objects with a null prototype. */
const { data } = fc.letrec<{ data: unknown }>((tie) => ({
  data: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -0, 1, '', 'a', '1'),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 4 }),
    fc.array(tie('data'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', '__proto__', '1'), tie('data'), { maxKeys: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('data'), { maxKeys: 3 }).map((value) => nullPrototype(value)),
  ),
}));

/** An arguments object, which node tells apart from an object with the same keys. */
function argumentsOf(): IArguments {
  // eslint-disable-next-line prefer-rest-params
  return arguments;
}

/** A copy made the way conf reads a store: JSON text and back, so equal values are not the same objects. */
const copy = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value) ?? 'null', (_key, v: unknown) => v);

describe("isDeepStrictEqual for conf (src/config/json-equal.ts): node's answer, without node's comparison module", () => {
  it('answers as node does for any two JSON values, equal or not', () => {
    fc.assert(
      fc.property(data, data, (a, b) => {
        expect(isDeepStrictEqual(a, b)).toBe(nodeIsDeepStrictEqual(a, b));
        expect(isDeepStrictEqual(a, a)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a value equal to its copy, and a copy changed anywhere different', () => {
    const store = { profiles: { default: { 'base-url': 'https://plants.example.com', token: 't' } }, current: 'x' };
    expect(isDeepStrictEqual(store, copy(store))).toBe(true);
    const changed = copy(store) as typeof store;
    changed.profiles.default.token = 'u';
    expect(isDeepStrictEqual(store, changed)).toBe(false);
    expect(isDeepStrictEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(isDeepStrictEqual({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
  });

  it('tells apart what node tells apart: -0 and 0, {} and a null-prototype object, an array and an object', () => {
    for (const [a, b] of [
      [0, -0],
      [{}, Object.create(null)],
      [[], {}],
      [{ 0: 'a', length: 1 }, ['a']],
      [{ a: 1 }, { b: 1 }],
    ] as [unknown, unknown][]) {
      expect(isDeepStrictEqual(a, b)).toBe(false);
      expect(nodeIsDeepStrictEqual(a, b)).toBe(false);
    }
    expect(isDeepStrictEqual(Object.create(null), Object.create(null))).toBe(true);
    expect(isDeepStrictEqual(-0, -0)).toBe(true);
  });

  it("leaves to node what is not JSON data: holes, keys beside an array's elements, symbols, NaN, dates, undefined", () => {
    const sparse: unknown[] = [];
    sparse[1] = 1;
    const withKey = Object.assign([1], { extra: true });
    const symbol = Symbol('s');
    const cases: [unknown, unknown][] = [
      [sparse, [undefined, 1]],
      [withKey, [1]],
      [{ [symbol]: 1 }, {}],
      [{ [symbol]: 1 }, { [symbol]: 1 }],
      [{ a: Number.NaN }, { a: Number.NaN }],
      [new Date(0), new Date(0)],
      [new Date(0), new Date(1)],
      [{ a: undefined }, { a: undefined }],
      [{ a: undefined }, {}],
      [[1n], [1n]],

      [new String('a'), new String('a')],
      [argumentsOf(), {}],
    ];
    for (const [a, b] of cases)
      expect(isDeepStrictEqual(a, b), `${String(a)} and ${String(b)}`).toBe(nodeIsDeepStrictEqual(a, b));
  });

  it('compares deeper than its own limit through node', () => {
    let a: unknown = 1;
    let b: unknown = 1;
    for (let i = 0; i < 200; i += 1) {
      a = [a];
      b = [b];
    }
    expect(isDeepStrictEqual(a, b)).toBe(true);
    expect(isDeepStrictEqual(a, [b])).toBe(false);
  });
});
