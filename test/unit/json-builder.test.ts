import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonNumber, numberText, parseJson } from '../../src/shared/json.js';
import { JsonValueBuilder } from '../../src/shared/json-builder.js';
import { holdsLarge } from '../../src/shared/large-values.js';

/** A string's JSON text, every `every`-th code unit written as a `\u` escape (upper or lower case hex), `/` as `\/`. */
function quoted(text: string, every: number): string {
  let out = '"';
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    const hex = unit.toString(16).padStart(4, '0');
    if (every > 0 && i % every === 0) out += `\\u${i % 2 ? hex.toUpperCase() : hex}`;
    else if (text[i] === '/') out += '\\/';
    else out += JSON.stringify(text[i]).slice(1, -1);
  }
  return `${out}"`;
}

const blank = fc.constantFrom('', ' ', '\n', ' \t\r\n ');
const key = fc.oneof(
  fc.tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.nat(5)).map(([text, every]) => quoted(text, every)),
  // Keys JSON.parse treats specially, or that repeat (`a` twice, once escaped): own keys, the last value in the first place.
  fc.constantFrom('"__proto__"', '"a"', '"\\u0061"', '"1"', '"10"', '"constructor"'),
);

/** JSON text of every kind: escapes anywhere, numbers JSON.parse would change, blanks between tokens. */
const { json } = fc.letrec<{ json: string }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.constantFrom(
        'true',
        'false',
        'null',
        '0',
        '-0',
        '1.50',
        '1e2',
        '-2.5E-3',
        '12345678901234567890',
        '9007199254740993',
      ),
      fc.integer().map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
    ),
    fc.tuple(fc.string({ unit: 'binary', maxLength: 40 }), fc.nat(7)).map(([text, every]) => quoted(text, every)),
    fc
      .tuple(fc.array(tie('json'), { maxLength: 5 }), blank)
      .map(([items, space]) => `[${space}${items.join(`${space},${space}`)}${space}]`),
    fc
      .tuple(fc.array(fc.tuple(key, tie('json')), { maxLength: 5 }), blank)
      .map(
        ([members, space]) =>
          `{${space}${members.map(([k, v]) => `${k}${space}:${space}${v}`).join(`${space},${space}`)}${space}}`,
      ),
  ),
}));

/** The text fed in pieces cut at `cuts`; the value, or the error finish() throws. */
function build(text: string, cuts: readonly number[], large: number): { value: unknown } | { error: unknown } {
  const builder = new JsonValueBuilder(large);
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const point of [...points, text.length]) {
    builder.feed(text.slice(from, point));
    from = point;
  }
  try {
    return { value: builder.finish() };
  } catch (error) {
    return { error };
  }
}

function parsed(text: string): { value: unknown } | { error: unknown } {
  try {
    return { value: parseJson(text) };
  } catch (error) {
    return { error };
  }
}

/**
 * A value as a comparable tree: members in their order, each number as its
 * text. parseJson itself gives 2^53 as a JsonNumber or a number depending on
 * what else its text holds (it writes the same either way): the text is
 * what must be the same.
 */
function normal(value: unknown): unknown {
  if (value instanceof JsonNumber) return `number ${numberText(value)}`;
  if (typeof value === 'number') return `number ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return value.map(normal);
  if (value !== null && typeof value === 'object') {
    return Object.keys(value).map((key) => [key, normal((value as Record<string, unknown>)[key])]);
  }
  return value;
}

/** The same value: the same JSON text, and the same members in the same order, each number as written. */
function expectSame(got: { value: unknown } | { error: unknown }, want: { value: unknown } | { error: unknown }): void {
  if ('error' in want) {
    expect(got).toHaveProperty('error');
    expect((got as { error: unknown }).error).toBeInstanceOf(SyntaxError);
    return;
  }
  expect(got).toHaveProperty('value');
  const value = (got as { value: unknown }).value;
  expect(JSON.stringify(value)).toBe(JSON.stringify(want.value));
  expect(normal(value)).toEqual(normal(want.value));
}

// Thresholds: 0 and 1 build every value member by member and every string in pieces; larger ones mix both ways.
const large = fc.constantFrom(0, 1, 3, 16, 64, 1e9);
const cuts = fc.array(fc.nat(), { maxLength: 20 });

describe('JsonValueBuilder', () => {
  it('builds what parseJson makes of the whole text, however it is cut and whatever is built in pieces', () => {
    fc.assert(
      fc.property(json, cuts, large, (text, at, threshold) => {
        expectSame(build(text, at, threshold), parsed(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what parseJson refuses (a character dropped, added or changed), and builds the rest alike', () => {
    const broken = fc
      .tuple(
        json,
        fc.nat(),
        fc.constantFrom('drop', 'add', 'change'),
        fc.constantFrom('"', '\\', ',', ':', '{', '}', '[', ']', 'x', 'u', '0', '\u0001', ' ', '\u00e9', 'e', '-'),
      )
      .map(([text, at, how, character]) => {
        const i = at % (text.length + 1);
        if (how === 'add') return text.slice(0, i) + character + text.slice(i);
        return text.slice(0, i) + (how === 'change' ? character : '') + text.slice(i + 1);
      });
    fc.assert(
      fc.property(broken, cuts, large, (text, at, threshold) => {
        expectSame(build(text, at, threshold), parsed(text));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['an escape cut anywhere', '{"name":"a\\u00e9\\n\\\\\\"\\/b\\ud83d\\ude00c"}'],
    ['a broken escape at the end of a string', '{"name":"abc\\u12"}'],
    ['an unknown escape', '{"name":"abc\\x41"}'],
    ['a raw control character', '{"name":"abc\u0001"}'],
    ['a lone surrogate, raw and escaped', '{"name":"a\ud800b\\udc00"}'],
    ['numbers JSON.parse would change', '{"id":12345678901234567890,"h":1.50,"z":-0,"list":[1e2,2]}'],
    ['mismatched brackets', '{"a":[1}]'],
    ['a trailing comma', '{"a":1,}'],
  ])('%s: as parseJson, cut at every point', (_, text) => {
    for (const threshold of [0, 2, 8]) {
      for (let cut = 0; cut <= text.length; cut += 1) {
        expectSame(build(text, [cut, cut + 1, cut + 3], threshold), parsed(text));
      }
    }
  });

  it('keeps a number JSON.parse would change as its text', () => {
    const result = build('{"id":12345678901234567890,"name":"abcdef"}', [3, 9], 0);
    expect((result as { value: { id: unknown } }).value.id).toEqual(new JsonNumber('12345678901234567890'));
  });

  it('marks the objects and arrays around a string built in pieces, and only those', () => {
    const text = '{"name":"long enough","tag":"x","extra":{"a":[1,"long enough too"],"b":{"c":1}}}';
    // Cut every 3 characters: a value is found large at the end of a piece.
    const result = build(
      text,
      Array.from({ length: text.length }, (_, i) => i * 3),
      4,
    );
    const plant = (result as { value: Record<string, Record<string, unknown>> }).value;
    expect(holdsLarge(plant)).toBe(true);
    expect(holdsLarge(plant.extra)).toBe(true);
    expect(holdsLarge(plant.extra!.a)).toBe(true);
    expect(holdsLarge(plant.extra!.b)).toBe(false);
    const small = build('{"name":"a","extra":{"b":[1]}}', [3, 6, 9], 1e9);
    expect(holdsLarge((small as { value: unknown }).value)).toBe(false);
  });

  it('holds a large string as one string once it ends, whatever its escapes', () => {
    const name = `${'ab'.repeat(50_000)}😀\n"${'植'.repeat(10_000)}`;
    const text = JSON.stringify({ name, tag: 't' });
    const result = build(
      text,
      Array.from({ length: 200 }, (_, i) => i * 997),
      1000,
    );
    expect((result as { value: { name: string } }).value.name).toBe(name);
  });
});
