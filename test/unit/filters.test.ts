import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { globMatcher, hasFilter, plantMatcher } from '../../src/api/filters.js';
import { parseIdInput, plantId } from '../../src/deletion/id-input.js';
import { JsonNumber } from '../../src/shared/json.js';
import { columnValue } from '../../src/output/plants.js';

describe('globMatcher', () => {
  it.each([
    ['Ficus*', 'Ficus lyrata', true],
    ['Ficus*', 'ficus lyrata', false],
    ['*lyrata', 'Ficus lyrata', true],
    ['F?cus', 'Ficus', true],
    ['F?cus', 'Fcus', false],
    ['a.b', 'axb', false],
    ['(x)+[y]', '(x)+[y]', true],
    ['foo-*', 'foo-bar', true],
    ['a/b{1}|c^$\\', 'a/b{1}|c^$\\', true],
    ['*', 'multi\nline', true],
    ['🌱?', '🌱x', true],
    // the whole name: no match of a part
    ['Ficus', 'Ficus lyrata', false],
    ['lyrata', 'Ficus lyrata', false],
    ['Ficus', 'Ficus', true],
    // case counts
    ['ficus', 'Ficus', false],
    ['FICUS*', 'Ficus', false],
    // * is any run of characters, none too; ? exactly one, an astral character too
    ['Ficus*', 'Ficus', true],
    ['*', '', true],
    ['F*s', 'Fs', true],
    ['F?cus', 'Fiicus', false],
    ['?', '', false],
    ['?', '🌱', true],
    ['??', '🌱', false],
    ['*?*', '', false],
    // the last piece never overlaps the text the pieces before it matched
    ['a*a', 'a', false],
    ['ab*b', 'ab', false],
    ['a*ab', 'ab', false],
    ['a*a', 'aa', true],
    // ? is one character at the edges of the surrogate ranges too
    ['?', '\u{10000}', true],
    ['?', '\u{10FFFF}', true],
    ['??', '\ud800\ue000', true],
    ['?', '\ud800\ue000', false],
    // half of a surrogate pair matches only that half alone, never the pair's (as /u patterns match)
    ['*\udf31*', '🌱', false],
    ['*\ud83c*', '🌱', false],
    ['\ud83c*', '🌱', false],
    ['*\udf31', '🌱', false],
    ['*\udf31*', '\udf31', true],
    ['a*\ud83c', 'a\ud83c', true],
  ])('%j against %j is %s', (glob, name, expected) => {
    expect(globMatcher(glob)(name)).toBe(expected);
  });

  /** The glob as an anchored regular expression: the same meaning, for short texts (it backtracks). */
  const reference = (glob: string) =>
    new RegExp(
      `^${[...glob].map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('')}$`,
      'su',
    );

  it('matches as the anchored pattern would: stars, question marks, surrogate pairs and halves, new lines', () => {
    const pieces = ['a', 'b', 'ab', '.', '\n', '🌱', '\ud83c', '\udf31', '*'];
    const glob = fc.array(fc.constantFrom(...pieces, '*', '?'), { maxLength: 8 }).map((parts) => parts.join(''));
    const text = fc.array(fc.constantFrom(...pieces, '?'), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(glob, text, (glob, text) => {
        expect(globMatcher(glob)(text)).toBe(reference(glob).test(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('answers at once where an anchored pattern would backtrack for hours', () => {
    // ^.*a.*a.*a.*a.*a.*b$ against 20,000 a's: a power of 20,000 steps before it gives up.
    expect(globMatcher('*a*a*a*a*a*b')('a'.repeat(20_000))).toBe(false);
    expect(globMatcher('*a*a*a*a*a*b')(`${'a'.repeat(20_000)}b`)).toBe(true);
  });
});

describe('plantMatcher', () => {
  const plants = [{ name: 'A', tag: 'x' }, { name: 'B', tag: 'y' }, { name: 'AB' }];

  const keep = (filter: Parameters<typeof plantMatcher>[0]) => plants.filter(plantMatcher(filter));

  it('keeps everything without a filter', () => {
    expect(hasFilter({ tags: [] })).toBe(false);
    expect(keep({ tags: [] })).toEqual(plants);
  });

  it('a tag matches exactly: case counts, no prefix, no tag or a null tag never', () => {
    const tagged = [
      { name: 'a', tag: 'tree' },
      { name: 'b', tag: 'Tree' },
      { name: 'c', tag: 'trees' },
      { name: 'd', tag: null },
      { name: 'e' },
      { name: 'f', tag: '' },
    ];
    expect(tagged.filter(plantMatcher({ tags: ['tree'] })).map((p) => p.name)).toEqual(['a']);
    expect(tagged.filter(plantMatcher({ tags: [''] })).map((p) => p.name)).toEqual(['f']);
  });

  it('matches any of the tags, and the name glob as well', () => {
    expect(keep({ tags: ['x', 'y'] })).toEqual(plants.slice(0, 2));
    expect(keep({ tags: ['x', 'y'], name: 'A*' })).toEqual([plants[0]]);
    expect(keep({ tags: [], name: 'A*' })).toEqual([plants[0], plants[2]]);
  });
});

describe('columnValue', () => {
  const plant = { name: 'A', extra: { height: 3, 'a.b': 1 }, list: [10, 20] };
  it('follows dotted paths, and gives undefined where they lead nowhere', () => {
    expect(columnValue(plant, 'name')).toBe('A');
    expect(columnValue(plant, 'extra.height')).toBe(3);
    expect(columnValue(plant, 'list.1')).toBe(20);
    expect(columnValue(plant, 'extra.missing')).toBeUndefined();
    expect(columnValue(plant, 'name.length')).toBeUndefined();
    expect(columnValue(plant, 'constructor')).toBeUndefined();
  });
});

describe('parseIdInput', () => {
  it('reads plain text one id a line', () => {
    expect(parseIdInput(' \n1\n2\r\na/b\r\n \r\n')).toEqual(['1', '2', 'a/b']);
    // A space on the first or last line is no more trimmed away than on any other.
    expect(() => parseIdInput(' 1\n2\r\n')).toThrow(/^line 1 of standard input holds a space/);
    expect(() => parseIdInput('1\n2\r\na/b \r\n')).toThrow(/^line 3 of standard input holds a space/);
    expect(parseIdInput('')).toEqual([]);
  });

  it('keeps ids above 2^53 exact in a JSON array, plain or in objects, and in NDJSON', () => {
    expect(parseIdInput('[12345678901234567890, 9007199254740993]')).toEqual([
      '12345678901234567890',
      '9007199254740993',
    ]);
    expect(parseIdInput('{"id":12345678901234567890}\n{"id":-9007199254740993}\n')).toEqual([
      '12345678901234567890',
      '-9007199254740993',
    ]);
  });

  it('reads a JSON array after blank lines', () => {
    expect(parseIdInput('\n\r\n[{"id":"a","name":"b"}]\n')).toEqual(['a']);
  });

  it('shows invalid JSON printable', () => {
    expect(() => parseIdInput('[\u001b]')).toThrow(/is not valid JSON: /);
    expect(() => parseIdInput('[\u001b]')).not.toThrow('\u001b');
  });

  it('takes ids from a JSON array of plants, strings or numbers', () => {
    expect(parseIdInput('[{"id":1,"name":"a"},{"id":"x","name":"b"}]')).toEqual(['1', 'x']);
    expect(parseIdInput('["a", 7]')).toEqual(['a', '7']);
    expect(parseIdInput('[{"id":12345678901234567890}]')).toEqual(['12345678901234567890']);
  });

  it('takes ids from NDJSON', () => {
    expect(parseIdInput('{"id":1}\n\n{"id":2}\n')).toEqual(['1', '2']);
  });

  it.each([
    ['[{"name":"a"}]', /item 1 of the JSON on standard input has no usable "id"/],
    ['[{"id":null}]', /item 1 .*no usable "id"/],
    ['[{"id":""}]', /item 1 .*no usable "id"/],
    ['[{"id":true}]', /item 1 .*no usable "id"/],
    ['[1,', /starts like a JSON array but is not valid JSON/],
    ['{"id":1}\nnot json', /line 2 of standard input is not a JSON object/],
    ['1\tFern\tgreen', /tab-separated lines/],
    ['"a"\n"b"', /quoted id "a"/],
  ])('refuses %j', (text, message) => {
    expect(() => parseIdInput(text)).toThrow(message);
  });
});

describe('plantId', () => {
  it('gives text for string and number ids only', () => {
    expect(plantId({ id: 5 })).toBe('5');
    expect(plantId({ id: new JsonNumber('1.50') })).toBe('1.50');
    expect(plantId({ id: 'x' })).toBe('x');
    expect(plantId({ id: {} })).toBeUndefined();
    expect(plantId({})).toBeUndefined();
    expect(plantId(null)).toBeUndefined();
  });
});
