import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonArraySplitter, type LargeItem } from '../../src/api/json-array.js';
import { parsePlantList } from '../../src/api/responses.js';
import { encodePathSegment, endpoint, parseBaseUrl } from '../../src/shared/url.js';
import { INT32_MAX, parseLimit } from '../../src/shared/values.js';
import { BadResponseError, UsageError } from '../../src/shared/errors.js';
import { JsonNumber, parseJson, stringifyJson } from '../../src/shared/json.js';

/** Strings that are well-formed UTF-16 (lone surrogates cannot be sent in a URL at all). */
const wellFormed = fc.string({ unit: 'grapheme', maxLength: 40 });

describe('--limit parsing', () => {
  it('accepts every integer from 0 to 2^31-1 written in decimal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: INT32_MAX }), (n) => {
        expect(parseLimit(String(n))).toBe(n);
      }),
    );
  });

  it('rejects everything else with a usage error, never anything worse', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const valid = /^\s*\d+\s*$/.test(raw) && Number(raw.trim()) <= INT32_MAX;
        if (valid) expect(parseLimit(raw)).toBe(Number(raw.trim()));
        else expect(() => parseLimit(raw)).toThrow(UsageError);
      }),
      { numRuns: 500 },
    );
  });
});

/** An id that is not `.` or `..` and holds no `/` or `\\`: the others are refused (see 'id encoding'). */
const sendable = (id: string) => id !== '.' && id !== '..' && !/[/\\]/.test(id);

describe('id encoding', () => {
  it('any id becomes exactly one path segment that decodes back to it', () => {
    fc.assert(
      fc.property(
        fc.oneof(wellFormed, fc.constantFrom('...', '?', '#', '%', '%2e', '%2f', '.x')).filter(sendable),
        (id) => {
          const segment = encodePathSegment(id);
          expect(segment).not.toMatch(/[/?#]/);
          expect(segment).not.toMatch(/^\.{1,2}$/);
          expect(decodeURIComponent(segment)).toBe(id);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses every id that is a dot-segment or holds a / or \\, wherever it is', () => {
    const around = fc.stringMatching(/^[a-z0-9.%]{0,4}$/);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom('.', '..'),
          fc.tuple(around, fc.constantFrom('/', '\\'), around).map((parts) => parts.join('')),
        ),
        (id) => {
          expect(sendable(id)).toBe(false);
          expect(() => encodePathSegment(id)).toThrow(UsageError);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('rejects ids with lone surrogates with a usage error', () => {
    fc.assert(
      fc.property(fc.constantFrom('\ud800', 'a\udfff', '\ud83d'), (id) => {
        expect(() => encodePathSegment(id)).toThrow(UsageError);
      }),
    );
  });
});

describe('base URL joining', () => {
  const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);

  it('keeps the origin and the path prefix, and adds exactly /plants/<id>', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https'),
        fc.array(segment, { maxLength: 3 }),
        fc.boolean(),
        wellFormed.filter((id) => id !== '' && sendable(id)),
        (scheme, prefix, trailingSlash, id) => {
          const raw = `${scheme}://plants.example.com${prefix.map((p) => `/${p}`).join('')}${trailingSlash ? '/' : ''}`;
          const target = endpoint(parseBaseUrl(raw), ['plants', id]);
          expect(target.origin).toBe(`${scheme}://plants.example.com`);
          const expectedPrefix = prefix.map((p) => `/${p}`).join('');
          expect(target.path).toBe(`${expectedPrefix}/plants/${encodePathSegment(id)}`);
          expect(target.href).toBe(target.origin + target.path);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('puts the limit in the query and nowhere else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: INT32_MAX }), (limit) => {
        expect(endpoint(parseBaseUrl('https://h.example/api'), ['plants'], { limit }).path).toBe(
          `/api/plants?limit=${limit}`,
        );
      }),
    );
  });
});

describe('response validation', () => {
  it('either returns plants with string names, or throws BadResponseError; nothing else', () => {
    const plantish = fc.record(
      {
        id: fc.oneof(fc.integer(), fc.string()),
        name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        tag: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.json(),
      fc.array(plantish).map((items) => JSON.stringify(items)),
      fc.string(),
    );
    fc.assert(
      fc.property(body, (text) => {
        try {
          const plants = parsePlantList(text, 'application/json');
          for (const plant of plants) {
            expect(typeof plant.name).toBe('string');
            expect(plant.tag === undefined || plant.tag === null || typeof plant.tag === 'string').toBe(true);
          }
        } catch (err) {
          expect(err).toBeInstanceOf(BadResponseError);
          // eslint-disable-next-line no-control-regex
          expect((err as Error).message).not.toMatch(/[\u0000-\u001f]/);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps every JSON number exactly as written through parse and stringify', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.bigInt(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer())),
        (numbers) => {
          const text = `[${numbers.map((n) => (typeof n === 'bigint' ? n.toString() : JSON.stringify(n))).join(',')}]`;
          expect(stringifyJson(parseJson(text))).toBe(text);
        },
      ),
    );
    expect(parseJson('[12345678901234567890]')).toEqual([new JsonNumber('12345678901234567890')]);
  });

  it('keeps every JSON number token exactly as written, in any spelling', () => {
    // Signs, leading zero, fractions with trailing zeros, exponents in either case, -0, long digit runs.
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 22 });
    const token = fc
      .tuple(
        fc.boolean(),
        fc.oneof(
          fc.constant('0'),
          digits.map((d) => `1${d}`),
          fc.constantFrom('1', '9'),
        ),
        fc.oneof(fc.constant(null), digits),
        fc.oneof(fc.constant(null), fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits)),
      )
      .map(
        ([negative, whole, fraction, exponent]) =>
          `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : exponent.join('')}`,
      );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), (tokens) => {
        const text = `[${tokens.map((t, i) => (i % 2 ? `{"n":${t}}` : t)).join(',')}]`;
        expect(stringifyJson(parseJson(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseJson with look-alike numbers inside strings', () => {
  it('reads strings as they are, whatever number-like text they hold, beside numbers that need keeping', () => {
    const lookAlike = fc.string({ unit: fc.constantFrom(...':,[]{}"\\ 0123456789.eE+-x') });
    fc.assert(
      fc.property(fc.array(lookAlike, { maxLength: 6 }), fc.bigInt({ min: 2n ** 60n }), (strings, near) => {
        const big = near * 10n + 7n; // 20 digits or more, not ending in 0: never a JavaScript number
        const text = `[${[...strings.map((value) => JSON.stringify(value)), big.toString()].join(',')}]`;
        const parsed = parseJson(text) as unknown[];
        expect(parsed.slice(0, -1)).toEqual(strings);
        expect(parsed.at(-1)).toEqual(new JsonNumber(big.toString()));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('JsonArraySplitter', () => {
  it('gives back each item of any JSON array, however its text is cut into pieces', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 3 })),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.constantFrom(Infinity, 0, 1, 8, 40),
        (items, spaced, cuts, large) => {
          const text = spaced ? JSON.stringify(items, null, 1) : JSON.stringify(items);
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          // With a small threshold, items longer than it are built as they come (LargeItem).
          const splitter = new JsonArraySplitter(large);
          const found: (string | LargeItem)[] = [];
          let from = 0;
          for (const point of [...points, text.length]) {
            found.push(...splitter.push(text.slice(from, point)));
            from = point;
          }
          splitter.end();
          expect(
            found.map((item) => (typeof item === 'string' ? (JSON.parse(item) as unknown) : item.value())),
          ).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
