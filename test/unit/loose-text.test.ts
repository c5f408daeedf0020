import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOOSE_STEPS, looseText, unseenShown } from '../../src/deletion/loose-text.js';
import { protectionMatcher } from '../../src/deletion/protections.js';
import type { Plant } from '../../src/api/responses.js';
import { plantMatcher } from '../../src/api/filters.js';
import { JsonNumber } from '../../src/shared/json.js';

// Tag and name rules protect loosely (docs/commands.md, plants config); selection stays exact.

const byName = (glob: string) => {
  const check = protectionMatcher({ ids: [], tags: [], names: [glob] });
  return (name: string) => check('1', [{ name }]);
};
const byTag = (tag: string) => {
  const check = protectionMatcher({ ids: [], tags: [tag], names: [] });
  return (plantTag: string) => check('1', [{ name: 'x', tag: plantTag }]);
};

/** Every invisible character class looseText drops. */
const INVISIBLE = [
  ['zero-width space', '\u200B'],
  ['zero-width non-joiner', '\u200C'],
  ['zero-width joiner', '\u200D'],
  ['word joiner', '\u2060'],
  ['soft hyphen', '\u00AD'],
  ['byte order mark', '\uFEFF'],
  ['left-to-right mark', '\u200E'],
  ['right-to-left override', '\u202E'],
  ['first strong isolate', '\u2068'],
  ['Mongolian vowel separator', '\u180E'],
  ['variation selector 16', '\uFE0F'],
  ['combining grapheme joiner', '\u034F'],
  ['Hangul filler', '\u3164'],
  ['tag character', '\u{E0041}'],
  ['a control character', '\u0007'],
] as const;

/** Every space looseText reads as a space. */
const SPACES = [
  '\u00A0',
  '\u1680',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
  '\u2028',
  '\u2029',
  '\u202F',
  '\u205F',
  '\u3000',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u0085',
];

describe('name rules match loosely', () => {
  const motherFern = byName('Mother Fern');

  it.each([
    ['a trailing space', 'Mother Fern '],
    ['a leading space', ' Mother Fern'],
    ['a non-breaking space', 'Mother\u00A0Fern'],
    ['NFD', 'Mother Fern'.normalize('NFD')],
    ['an accented letter in NFD', 'Mothér Fern'.normalize('NFD'), 'Mothér Fern'],
    ['lower case', 'mother fern'],
    ['upper case', 'MOTHER FERN'],
    ['two spaces', 'Mother  Fern'],
    ['a tab', 'Mother\tFern'],
    ['full-width letters (NFKC)', '\uFF2D\uFF4F\uFF54\uFF48\uFF45\uFF52 Fern'],
  ])('%s: protected by the name rule it differs from so', (_, name, rule = 'Mother Fern') => {
    expect(byName(rule)(name)?.rule).toBe(`name "${rule}"`);
  });

  it.each(INVISIBLE)('%s inside or around the name is no part of it', (_, ch) => {
    expect(motherFern(`Mo${ch}ther Fern`)?.rule).toBe('name "Mother Fern"');
    expect(motherFern(`${ch}Mother Fern${ch}`)?.rule).toBe('name "Mother Fern"');
    expect(motherFern(`Mother${ch} ${ch}Fern`)?.rule).toBe('name "Mother Fern"');
    // In the rule too.
    expect(byName(`Mother${ch} Fern`)('Mother Fern')).toBeDefined();
  });

  it.each(SPACES.map((space) => [`U+${space.charCodeAt(0).toString(16).padStart(4, '0')}`, space]))(
    '%s is a space',
    (_, space) => {
      expect(motherFern(`Mother${space}Fern`)).toBeDefined();
      expect(motherFern(`${space}Mother Fern${space}${space}`)).toBeDefined();
      expect(byName(`Mother${space}Fern`)('Mother Fern')).toBeDefined();
    },
  );

  it("a glob's literal parts are read the same way: Mother* protects mother fern, ＭＯＴＨＥＲ fern, Mo\\u200bther Fern", () => {
    const glob = byName('Mother*');
    for (const name of [
      'mother fern',
      '\uFF2D\uFF2F\uFF34\uFF28\uFF25\uFF32 fern',
      'Mo\u200Bther Fern',
      ' MOTHER',
      'Mothers',
    ])
      expect(glob(name)?.rule).toBe('name "Mother*"');
    expect(glob('Other')).toBeUndefined();
    expect(byName('*  Fern')('old\u00A0fern')).toBeDefined();
    expect(byName('M?ther Fern')('m\u00F6ther fern')).toBeDefined();
    expect(byName('M?ther Fern')('mother fe rn')).toBeUndefined();
  });

  it('what matched as written still does: the rule is never narrower than the exact glob', () => {
    expect(byName('Old *')('Old ')?.rule).toBe('name "Old *"');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (head, tail) => {
        const name = `${head}${tail}`;
        expect(byName(`${head}*`)(name)).toBeDefined();
        expect(byName(`*${tail}`)(name)).toBeDefined();
        expect(byName(name.replace(/[*?]/g, '?'))(name)).toBeDefined();
      }),
    );
  });

  it('invisible characters anywhere, spaces around words and any case leave a protected name protected', () => {
    const invisible = fc.constantFrom(...INVISIBLE.map(([, ch]) => ch));
    const spaces = fc.array(fc.constantFrom(...SPACES, ' '), { maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(11), invisible), { maxLength: 6 }),
        fc.tuple(spaces, spaces, spaces),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        (insertions, [before, between, after], upper) => {
          const cased = [...'MotherFern'].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch.toLowerCase())).join('');
          // By code point: U+E0041 is two UTF-16 units, not to be split.
          const chars = [...`${cased.slice(0, 6)} ${cased.slice(6)}`];
          for (const [at, ch] of insertions) chars.splice(at, 0, ch);
          const name = chars.join('').replace(' ', ` ${between.join('')}`);
          expect(motherFern(`${before.join('')}${name}${after.join('')}`)).toBeDefined();
        },
      ),
    );
  });

  it('other names stay unprotected: letters, digits and accents still count', () => {
    for (const name of ['Mother Ferns', 'Mother Fem', 'MotherFern', 'Mother Fërn', 'Mother Fern 2', 'Other Fern'])
      expect(motherFern(name)).toBeUndefined();
  });
});

describe('looseText', () => {
  it('its quick way for plain ASCII gives what every step gives, and a second reading changes nothing', () => {
    const all = new Set(LOOSE_STEPS);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' })), (text) => {
        expect(looseText(text)).toBe(looseText(text, all));
        expect(looseText(looseText(text))).toBe(looseText(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('case folding: upper case, then lower', () => {
  it.each([
    ['Straße', 'STRASSE'],
    ['straße', 'strasse'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'ΟΔΟΣ'],
    ['ΟΔΟΣΞ', 'οδοςξ'],
    ['Istanbul', 'ıstanbul'],
    ['İstanbul', 'istanbul'],
    ['İSTANBUL', 'Istanbul'],
    ['ﬁcus', 'FICUS'],
    ['ǅ', 'ǆ'],
  ])('%j and %j are one name', (a, b) => {
    expect(looseText(a)).toBe(looseText(b));
    expect(byName(a)(b)).toBeDefined();
    expect(byName(b)(a)).toBeDefined();
  });

  it('a final sigma at the end of a glob piece matches a sigma inside a name', () => {
    expect(byName('ΟΔΟΣ*')('οδοσξυλο')).toBeDefined();
    expect(byName('*ς')('ΟΔΟΣ')).toBeDefined();
  });

  it('dashes are one', () => {
    expect(byTag('mother-plant')('mother\u2011plant')).toBeDefined();
    expect(byTag('mother-plant')('mother\u2013plant')).toBeDefined();
    expect(byTag('mother-plant')('mother\u2212plant')).toBeDefined();
    expect(byTag('mother-plant')('motherplant')).toBeUndefined();
  });
});

describe('tag rules: the same text, read loosely', () => {
  const tag = byTag('mother-plant');
  it.each([
    'mother-plant',
    'Mother-Plant',
    'MOTHER-PLANT',
    ' mother-plant ',
    'mother-plant\u00A0',
    '\u200Bmother-plant',
    'mother\u00AD-plant',
    '\uFF4Dother-plant',
    '\uFEFFmother-plant',
  ])('%j is protected', (plantTag) => {
    expect(tag(plantTag)?.rule).toBe('tag "mother-plant"');
  });

  it.each(['mother-plants', 'mother plant', 'mother', '', 'mother-*'])('%j is not', (plantTag) => {
    expect(tag(plantTag)).toBeUndefined();
  });

  it('a tag or name the service sends as a number is read as its text', () => {
    const check = protectionMatcher({ ids: [], tags: [' 7 '], names: ['1?'] });
    expect(check('1', [{ name: 'x', tag: 7 } as unknown as Plant])?.rule).toBe('tag " 7 "');
    expect(check('1', [{ name: new JsonNumber('12345678901234567890') } as unknown as Plant])).toBeUndefined();
    expect(check('1', [{ name: new JsonNumber('1e5') } as unknown as Plant])).toBeUndefined();
    expect(check('1', [{ name: new JsonNumber('1.50') } as unknown as Plant])).toBeUndefined();
    expect(check('1', [{ name: new JsonNumber('-0') } as unknown as Plant])).toBeUndefined();
    expect(check('1', [{ name: 12 } as unknown as Plant])?.rule).toBe('name "1?"');
    expect(check('1', [{ name: new JsonNumber('10') } as unknown as Plant])?.rule).toBe('name "1?"');
    expect(check('1', [{ name: null, tag: { t: 7 } } as unknown as Plant])).toBeUndefined();
  });

  it('a tag rule is no glob', () => {
    expect(byTag('mother-*')('mother-plant')).toBeUndefined();
  });
});

describe('why a plant matched', () => {
  it('names what had to be set aside, and nothing for a match as written', () => {
    expect(byName('Mother Fern')('Mother Fern')?.looseSteps).toBeUndefined();
    expect(byName('Mother Fern')('Mother\u00A0Fern')?.looseSteps).toEqual(['white space']);
    expect(byName('Mother Fern')('mother fern')?.looseSteps).toEqual(['letter case']);
    expect(byName('Mother Fern')('Mo\u200Bther Fern')?.looseSteps).toEqual(['invisible characters']);
    expect(byName('Mother Fern')('Mother Fern'.normalize('NFD'))?.looseSteps).toBeUndefined();
    expect(byName('Mother Férn')('Mother Férn'.normalize('NFD'))?.looseSteps).toEqual(['Unicode forms']);
    expect(byName('Mother Fern')('mother\u00A0fern ')?.looseSteps).toEqual(['white space', 'letter case']);
    expect(byTag('tree')('Tree')?.looseSteps).toEqual(['letter case']);
  });

  it('shows what does not show', () => {
    expect(unseenShown('Mother\u00A0Fern\u200B ')).toBe('Mother\\u00a0Fern\\u200b ');
    expect(unseenShown('a\u001b[31mb')).toBe('a\\u001b[31mb');
    // Past the BMP in braces: `\ue0020` would read as U+E002 followed by a 0.
    expect(unseenShown('Rose\u{E0020}0 \u{1BCA0}')).toBe('Rose\\u{e0020}0 \\u{1bca0}');
  });
});

describe('selection stays exact', () => {
  it('list and prune --name and --tag match as written: case, spaces and invisible characters count', () => {
    const named = plantMatcher({ tags: [], name: 'Mother Fern' });
    expect(named({ id: 1, name: 'Mother Fern' })).toBe(true);
    for (const name of ['mother fern', 'Mother Fern ', 'Mother\u00A0Fern', 'Mo\u200Bther Fern', '\uFF2Dother Fern'])
      expect(named({ id: 1, name })).toBe(false);
    expect(plantMatcher({ tags: [], name: 'Mother*' })({ id: 1, name: 'mother fern' })).toBe(false);
    const tagged = plantMatcher({ tags: ['mother-plant'] });
    expect(tagged({ id: 1, name: 'x', tag: 'mother-plant' })).toBe(true);
    for (const tag of ['Mother-Plant', ' mother-plant', 'mother\u00ADplant', 'mother-plant\u200B'])
      expect(tagged({ id: 1, name: 'x', tag })).toBe(false);
  });
});
