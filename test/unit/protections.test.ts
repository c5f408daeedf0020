import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamPlantList } from '../../src/api/plant-stream.js';
import type { Plant } from '../../src/api/responses.js';
import { lookUp, plantFor } from '../../src/deletion/guard.js';
import { integerForm } from '../../src/deletion/integer-form.js';
import { idKey, protectionMatcher } from '../../src/deletion/protections.js';
import { inProcess } from '../helpers/in-process.js';

// Protections and the profile's max-deletes: `config protect/unprotect`,
// `config set max-deletes`, and how delete and prune apply them (docs/commands.md).

const TOKEN = 'protections-test-token';
const { plants, service, configDir } = inProcess(TOKEN);

const json = { headers: { 'content-type': 'application/json' } };
const configFile = () => join(configDir(), 'config.json');
const saved = (config: object) => writeFileSync(configFile(), JSON.stringify(config), { mode: 0o600 });
const stored = (): unknown => JSON.parse(readFileSync(configFile(), 'utf8'));
const withRules = (rules: object, more: object = {}) => saved({ profiles: { default: { protected: rules, ...more } } });

const GARDEN = [
  { id: 1, name: 'Fern', tag: 'fern' },
  { id: 2, name: 'Old Oak', tag: 'tree' },
  { id: 3, name: 'Old oak', tag: 'Tree' },
  { id: 4, name: 'Ficus', tag: null },
  { id: 5, name: 'Aloe' },
];

/** The service lists GARDEN (or `plants`), once. */
function lists(plants: object[] = GARDEN) {
  service().intercept({ path: '/plants', method: 'GET' }).reply(200, JSON.stringify(plants), json);
}

function deletes(id: string) {
  service()
    .intercept({ path: `/plants/${id}`, method: 'DELETE' })
    .reply(204, '');
}

function errorLine(stderr: string): { code: string; message: string } {
  return (JSON.parse(stderr.trimEnd().split('\n').at(-1)!) as { error: { code: string; message: string } }).error;
}

describe('the rules, exactly', () => {
  const rules = { ids: ['7', '00'], tags: ['tree'], names: ['Old *', 'A?oe'] };
  const matches = protectionMatcher(rules);
  it.each([
    // id rules: the id as text, or as the whole number it spells (below)
    ['7', undefined, 'id "7"'],
    ['07', undefined, 'id "7"'],
    ['0', undefined, 'id "00"'],
    ['00', undefined, 'id "00"'],
    ['7 ', undefined, 'id "7"'],
    ['7a', undefined, 'id "7"'],
    ['8a', undefined, undefined],
    // tag rules: the same text read loosely (case, spaces, invisible characters aside); no tag never matches
    ['1', { name: 'x', tag: 'tree' }, 'tag "tree"'],
    ['1', { name: 'x', tag: 'Tree' }, 'tag "tree"'],
    ['1', { name: 'x', tag: 'trees' }, undefined],
    ['1', { name: 'x', tag: null }, undefined],
    ['1', { name: 'x' }, undefined],
    // name rules: a glob on the whole name, as written or read loosely; * any run (none too), ? exactly one
    ['1', { name: 'Old Oak' }, 'name "Old *"'],
    ['1', { name: 'Old ' }, 'name "Old *"'],
    ['1', { name: 'old Oak' }, 'name "Old *"'],
    ['1', { name: 'Old' }, undefined],
    ['1', { name: 'An Old Oak' }, undefined],
    ['1', { name: 'Aloe' }, 'name "A?oe"'],
    ['1', { name: 'Aoe' }, undefined],
    ['1', { name: 'Alloe' }, undefined],
    ['1', { name: 'Aloe vera' }, undefined],
    // without the plant, only id rules can be checked
    ['1', undefined, undefined],
  ])('id %j, plant %j: %s', (id, plant, rule) => {
    expect(matches(id, plant ? [plant] : [])?.rule).toBe(rule);
  });

  it.each([
    // an id rule protects every spelling of a whole number a service may read as that number
    ['7', '07', true],
    ['7', '+7', true],
    ['7', '7.0', true],
    ['7', '7.000', true],
    ['7', '7e0', true],
    ['7', '0.7e1', true],
    ['7', '700e-2', true],
    ['7', ' 7 ', true],
    ['07', '7', true],
    ['0', '-0', true],
    ['0', '0e5', true],
    ['9007199254740993', '9007199254740993.0', true],
    ['9007199254740993', '9007199254740992', false],
    ['-7', '-07', true],
    ['7', '-7', false],
    ['7', '7.5', true],
    ['7', '8.5', false],
    ['7', '70e-2', false],
    ['7', '7x', true],
    ['7', 'x7', false],
    ['7', '0x7', true],
    ['7', '\uFF17', true],
    ['7', '7e00000', true],
    ['1000', '1_000', true],
    ['0x7', '7', true],
    ['7', '010', false],
    ['abc', 'ABC', false],
    ['a b', 'a b', true],
    // a format suffix taken off (Rails, Spring's suffix matching), or text cut at a NUL (C): read as the id before it
    ['7', '7.json', true],
    ['7', '7.JSON', true],
    ['7', '07.xml', true],
    ['7', '7.tar.gz', true],
    ['7', '7.v2', true],
    ['7', '7.5.json', true],
    ['7', '7.json.5', true],
    ['7', '7-json', true],
    ['7', '8.5.json', false],
    ['7', 'x7.json', false],
    ['7', '.json', false],
    ['rose', 'rose.json', true],
    ['rose.json', 'rose', false],
    ['7', '7\0', true],
    ['7', '7\0abc', true],
    ['7', '7.json\0x', true],
    ['7', '\x007', true],
    ['7', '7\x01', true],
    ['7', '\x017', true],
    // read as a double (JavaScript's Number(), Python's float()): what rounds to the id is the id
    ['7', '7.0000000000000001', true],
    ['8', '7.9999999999999999', true],
    ['7', '0.7000000000000000001e1', true],
    ['9007199254740992', '9007199254740993', true],
    ['9007199254740992', '9007199254740993.json', true],
    ['7', '7.000001', true],
    ['7', '6.9999999', false],
    ['1', '1e400', true],
    ['2', '1e400', false],
  ])('an id rule %j and the id %j: protected %s', (rule, id, protectedToo) => {
    const check = protectionMatcher({ ids: [rule], tags: [], names: [] });
    expect(check(id, []) !== undefined).toBe(protectedToo);
  });

  it('names the double an id is read as, where it is not the id as written', () => {
    const check = protectionMatcher({ ids: ['9007199254740992'], tags: [], names: [] });
    expect(check('9007199254740993', [])).toMatchObject({
      rule: 'id "9007199254740992"',
      readAs: '9007199254740992',
    });
  });

  it('any of the plants listed under one id protects it', () => {
    const check = protectionMatcher({ ids: [], tags: ['keep'], names: [] });
    expect(
      check('7', [
        { name: 'a', tag: 'x' },
        { name: 'b', tag: 'keep' },
      ]),
    ).toEqual({
      rule: 'tag "keep"',
      plant: { name: 'b', tag: 'keep' },
    });
  });

  it('glob characters other than * and ? are literal', () => {
    const check = protectionMatcher({ ids: [], tags: [], names: ['a.c', '[x]', 'a+'] });
    const literal = (name: string) => check('1', [{ name }])?.rule;
    expect(literal('abc')).toBeUndefined();
    expect(literal('a.c')).toBe('name "a.c"');
    expect(literal('x')).toBeUndefined();
    expect(literal('[x]')).toBe('name "[x]"');
    expect(literal('aa')).toBeUndefined();
  });
});

describe('the integer an id spells (integerForm)', () => {
  it.each([
    // what was already read: leading zeros, a sign, a fraction, an exponent
    ['7', '7'],
    ['07', '7'],
    ['+7', '7'],
    ['7.0', '7'],
    ['7e0', '7'],
    ['-0', '0'],
    // a fraction without a digit before or after its point (JavaScript's Number)
    ['.7e1', '7'],
    ['7.', '7'],
    ['-.7E+1', '-7'],
    // an exponent of any length: leading zeros are common
    ['7e00000', '7'],
    ['7E+0000000001', '70'],
    ['700e-0000000000002', '7'],
    ['0e999999999999', '0'],
    // a base prefix, either case, a sign too (Python's int(x, 0); JavaScript's Number without a sign)
    ['0x7', '7'],
    ['0X7', '7'],
    ['0o7', '7'],
    ['0O7', '7'],
    ['0b111', '7'],
    ['0B111', '7'],
    ['-0x7', '-7'],
    ['+0b111', '7'],
    ['0xFf', '255'],
    ['0x7e1', '2017'],
    ['0x000', '0'],
    ['-0x0', '0'],
    ['0x20000000000001', '9007199254740993'],
    // underscores as Python reads them: one, between digits, or right after a base prefix
    ['0_7', '7'],
    ['1_000', '1000'],
    ['1_0.0_0e0_1', '100'],
    ['0x_7', '7'],
    ['0b_1_1_1', '7'],
    ['-0o_0_7', '-7'],
    // Unicode decimal digits, as Python's int() reads them, mixed with ASCII ones too
    ['\uFF17', '7'],
    ['\uFF10\uFF17', '7'],
    ['\u0667', '7'],
    ['\u06F7', '7'],
    ['\u0967\u0966', '10'],
    ['\u09ED', '7'],
    ['\u{1D7D5}', '7'],
    ['\u{1D7E1}', '9'],
    ['\u{1D7FF}', '9'],
    ['\u{104A7}', '7'],
    ['1\uFF17', '17'],
    ['\uFF17.\uFF10', '7'],
    ['\uFF17e\uFF10', '7'],
    ['\uFF17_\uFF10', '70'],
    ['0x\uFF17', '7'],
  ])('%j is %j', (text, integer) => {
    expect(integerForm(text)).toBe(integer);
  });

  it.each([
    '',
    '.',
    '+',
    'e5',
    '.e5',
    '--7',
    '+-7',
    '7e',
    '7e+',
    '0x',
    '0x_',
    '0xg',
    '0x7.5',
    '0x7p1',
    '0x7_',
    '0x__7',
    '0_x7',
    '0o8',
    '0b2',
    '0b1e5',
    '_7',
    '7_',
    '7__0',
    '7_.0',
    '7._0',
    '7e_1',
    '+_7',
    '7.5',
    '70e-2',
    '7e-999999999999',
    '\uFF17.\uFF15',
    '\uFF58',
    '0\uFF587',
    '\uFF0B7',
    '\u22127',
    '\u00B2',
    'Infinity',
    'NaN',
    // trailing text (C's atoi, Ruby's to_i) is not read: `7-slug` is not the id 7
    '7abc',
    '7-slug',
    '7 7',
  ])('%j is not a whole number it can spell', (text) => {
    expect(integerForm(text)).toBeUndefined();
  });

  it('reads a leading zero as decimal, not as C reads it (010 is 10, not 8)', () => {
    expect(integerForm('010')).toBe('10');
    expect(integerForm('0o10')).toBe('8');
  });

  it('forms no integer past its bounds, so a huge exponent or prefixed number costs nothing: it is compared as text', () => {
    expect(integerForm('1e1000')).toBe(`1${'0'.repeat(1000)}`);
    expect(integerForm('1e1001')).toBeUndefined();
    expect(integerForm('1e999999999')).toBeUndefined();
    expect(integerForm(`0x${'f'.repeat(1001)}`)).toBeUndefined();
    expect(integerForm(`0x${'0'.repeat(5000)}${'f'.repeat(1000)}`)).toMatch(/^\d{1205}$/);
    expect(idKey('1e2000')).toBe('1e2000');
  });

  it('idKey drops the white space JavaScript and Python drop around a number, U+0085 too', () => {
    for (const blank of [' ', '\t', '\n', '\u00A0', '\u2003', '\u2028', '\u3000', '\uFEFF', '\u0085']) {
      expect(idKey(`${blank}0x7${blank}`)).toBe('7');
      expect(idKey(`${blank}\u0085 7 \u0085${blank}`)).toBe('7');
    }
    // U+0085 at one end only, which trim() leaves.
    expect(idKey('\u00857')).toBe('7');
    expect(idKey('7\u0085')).toBe('7');
    expect(idKey(' 7\u0085')).toBe('7');
    expect(idKey('\u001C7')).toBe('\u001C7');
    expect(idKey(' abc ')).toBe(' abc ');
  });

  it('Unicode keeps its decimal digits in runs of ten, as the digit values rely on', () => {
    let all = '';
    for (let code = 0; code <= 0x10ffff; code += 1)
      if (code < 0xd800 || code > 0xdfff) all += String.fromCodePoint(code);
    const blocks = [...all.matchAll(/\p{Nd}+/gu)].map(([block]) => [...block]);
    expect(blocks.length).toBeGreaterThan(20);
    for (const block of blocks) {
      expect(block.length % 10).toBe(0);
      block.forEach((digit, i) => expect(integerForm(digit)).toBe(String(i % 10)));
    }
  });

  it('any spelling of an integer n built the ways a service may read it gives String(n), exactly', () => {
    const NINES = [0x30, 0xff10, 0x0660, 0x06f0, 0x0966, 0x09e6, 0x0e50, 0x1d7ce, 0x1d7f6];
    const spelling = fc.record({
      n: fc.oneof(
        fc.integer({ min: -1000, max: 1000 }).map(BigInt),
        fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
      ),
      base: fc.constantFrom('dec', 'x', 'o', 'b'),
      upper: fc.boolean(),
      plus: fc.boolean(),
      leadingZeros: fc.nat(3),
      zerosAppended: fc.nat(3),
      pointFromRight: fc.nat(45),
      point: fc.boolean(),
      exponent: fc.constantFrom('none', 'e', 'E'),
      exponentPlus: fc.boolean(),
      exponentZeros: fc.nat(8),
      underscores: fc.array(fc.boolean(), { maxLength: 80 }),
      afterPrefix: fc.boolean(),
      digits: fc.array(fc.constantFrom(...NINES), { maxLength: 80 }),
    });
    fc.assert(
      fc.property(spelling, (s) => {
        const sign = s.n < 0n ? '-' : s.plus ? '+' : '';
        const magnitude = s.n < 0n ? -s.n : s.n;
        const zeros = '0'.repeat(s.leadingZeros);
        /** Single underscores between two digits, where the mask says. */
        const separated = (digits: string, isDigit: RegExp) =>
          [...digits]
            .map((c, i) => (s.underscores[i] && isDigit.test(c) && isDigit.test(digits[i + 1] ?? '') ? `${c}_` : c))
            .join('');
        let text: string;
        if (s.base === 'dec') {
          const all = `${magnitude}${'0'.repeat(s.zerosAppended)}`;
          const j = Math.min(s.pointFromRight, all.length);
          const whole = `${zeros}${all.slice(0, all.length - j)}`;
          const fraction = all.slice(all.length - j);
          const shift = j - s.zerosAppended;
          let mantissa = fraction === '' ? (s.point ? `${whole}.` : whole) : `${whole}.${fraction}`;
          if (mantissa.startsWith('.')) mantissa = s.point ? mantissa : `0${mantissa}`;
          const mark = s.exponent === 'none' ? (shift === 0 ? '' : 'e') : s.exponent;
          const exponentSign = shift < 0 ? '-' : s.exponentPlus ? '+' : '';
          const exponent = mark === '' ? '' : `${mark}${exponentSign}${'0'.repeat(s.exponentZeros)}${Math.abs(shift)}`;
          text = `${sign}${separated(mantissa, /\d/)}${separated(exponent, /\d/)}`;
        } else {
          const radix = { x: 16, o: 8, b: 2 }[s.base];
          let body = separated(`${zeros}${magnitude.toString(radix)}`, /[\da-f]/);
          if (s.upper) body = body.toUpperCase();
          text = `${sign}0${s.upper ? s.base.toUpperCase() : s.base}${s.afterPrefix ? '_' : ''}${body}`;
        }
        // Some ASCII digits written as another script's (a prefix's 0 too, as Python reads it).
        text = [...text]
          .map((c, i) =>
            /\d/.test(c) && s.digits[i] !== undefined ? String.fromCodePoint(s.digits[i] + Number(c)) : c,
          )
          .join('');
        expect(integerForm(text)).toBe(String(magnitude === 0n ? 0n : s.n));
        expect(idKey(` ${text}\t`)).toBe(String(magnitude === 0n ? 0n : s.n));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('config protect and unprotect', () => {
  it('adds rules of each kind, each once, and says so on a terminal', async () => {
    const r = await plants(['config', 'protect', '--tag', 'tree', '--id', '7', '--name', 'Old *', '--tag', 'tree'], {
      tty: true,
    });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      '✓ Protected id "7" in profile default\n✓ Protected tag "tree" in profile default\n✓ Protected name "Old *" in profile default\n',
    );
    expect(stored()).toEqual({
      profiles: { default: { protected: { ids: ['7'], tags: ['tree'], names: ['Old *'] } } },
    });
    const again = await plants(['config', 'protect', '--tag', 'tree', '--tag', 'fern'], { tty: true });
    expect(again.code).toBe(0);
    expect(again.stderr()).toBe(
      'tag "tree" was already protected in profile default\n✓ Protected tag "fern" in profile default\n',
    );
    expect(stored()).toEqual({
      profiles: { default: { protected: { ids: ['7'], tags: ['tree', 'fern'], names: ['Old *'] } } },
    });
  });

  it('keeps the rules per profile, creating it as config set does', async () => {
    saved({ profiles: { default: { 'base-url': 'https://a.test' } } });
    const r = await plants(['--profile', 'prod', 'config', 'protect', '--id', '1']);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('plants: creating profile prod\n');
    expect(stored()).toEqual({
      profiles: { default: { 'base-url': 'https://a.test' }, prod: { protected: { ids: ['1'] } } },
    });
  });

  it.each([
    [[], 'plants: config protect needs a rule: --id <id>, --tag <tag> or --name <glob>\n'],
    [['--tag', ''], 'plants: invalid --tag: it must not be empty\n'],
    [['--id', ''], 'plants: invalid --id: it must not be empty\n'],
    [['--name', ''], 'plants: invalid --name: it must not be empty\n'],
  ])('refuses %j with exit 2, writing nothing', async (args, message) => {
    const r = await plants(['config', 'protect', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(message);
  });

  it('unprotect removes exactly the rules named; empty lists leave the file', async () => {
    withRules({ ids: ['7'], tags: ['tree', 'fern'] }, { 'base-url': 'https://a.test' });
    const r = await plants(['config', 'unprotect', '--tag', 'tree', '--id', '7'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('✓ Unprotected id "7" in profile default\n✓ Unprotected tag "tree" in profile default\n');
    expect(stored()).toEqual({
      profiles: { default: { 'base-url': 'https://a.test', protected: { tags: ['fern'] } } },
    });
    expect((await plants(['config', 'unprotect', '--tag', 'fern'])).code).toBe(0);
    expect(stored()).toEqual({ profiles: { default: { 'base-url': 'https://a.test' } } });
  });

  it('protect: another spelling of a protected id is the same rule, and is said to be', async () => {
    expect((await plants(['config', 'protect', '--id', '7'])).code).toBe(0);
    const r = await plants([
      'config',
      'protect',
      '--id',
      '07',
      '--id',
      '7.0',
      '--id',
      '0x7',
      '--id',
      '\uFF17',
      '--id',
      '8',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      ['07', '7.0', '0x7', '\uFF17']
        .map((id) => `id "${id}" (the same id as the rule id "7") was already protected in profile default\n`)
        .join(''),
    );
    expect(stored()).toEqual({ profiles: { default: { protected: { ids: ['7', '8'] } } } });
  });

  it('a tag or name rule that reads as one there (case, spaces, invisible characters) is the same rule', async () => {
    withRules({ tags: ['mother-plant'], names: ['Heritage *'] });
    const r = await plants([
      'config',
      'protect',
      '--tag',
      'Mother-Plant ',
      '--name',
      'heritage\u00a0*',
      '--tag',
      'fern',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      'tag "Mother-Plant " (the same tag as the rule tag "mother-plant") was already protected in profile default\n' +
        'name "heritage\u00a0*" (the same name as the rule name "Heritage *") was already protected in profile default\n',
    );
    expect(stored()).toEqual({
      profiles: { default: { protected: { tags: ['mother-plant', 'fern'], names: ['Heritage *'] } } },
    });
    // unprotect removes every rule that reads as the one named: one left would still protect the plants.
    withRules({ tags: ['tree', 'Tree', ' TREE', 'trees'] });
    const u = await plants(['config', 'unprotect', '--tag', 'tree']);
    expect(u.code).toBe(0);
    expect(u.stderr()).toBe(
      'Unprotected tag "tree" (the same tag as the rules tag "tree", tag "Tree" and tag " TREE") in profile default\n',
    );
    expect(stored()).toEqual({ profiles: { default: { protected: { tags: ['trees'] } } } });
  });

  it('unprotect removes every spelling of the id, naming them even off a terminal: none is left to protect it', async () => {
    withRules({ ids: ['7', '7.0', '8', '0x7'] });
    const r = await plants(['config', 'unprotect', '--id', '07']);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe(
      'Unprotected id "07" (the same id as the rules id "7", id "7.0" and id "0x7") in profile default\n',
    );
    expect(stored()).toEqual({ profiles: { default: { protected: { ids: ['8'] } } } });
    const again = await plants(['config', 'unprotect', '--id', '7e0']);
    expect(again.code).toBe(2);
    expect(again.stderr()).toBe(
      'plants: id "7e0" is not protected in profile default (its rules: id "8"); nothing was changed\n',
    );
  });

  it('unprotect of a rule that is not there changes nothing: exit 2, naming the rules there are', async () => {
    withRules({ tags: ['tree'] });
    const r = await plants(['config', 'unprotect', '--tag', 'tree', '--tag', 'Trees', '--name', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: tag "Trees", name "x" are not protected in profile default (its rules: tag "tree"); nothing was changed\n',
    );
    expect(stored()).toEqual({ profiles: { default: { protected: { tags: ['tree'] } } } });
  });

  it('only id rules are compared as numbers: a tag or name 07 is not the tag or name 7', async () => {
    withRules({ tags: ['7'], names: ['7'] });
    const r = await plants(['config', 'protect', '--tag', '07', '--name', '7.0']);
    expect(r.code).toBe(0);
    expect(stored()).toEqual({ profiles: { default: { protected: { tags: ['7', '07'], names: ['7', '7.0'] } } } });
  });

  it('unprotect of an id leaves a tag or name rule of the same text', async () => {
    withRules({ ids: ['7', '07'], tags: ['7'], names: ['07'] });
    const r = await plants(['config', 'unprotect', '--id', '7']);
    expect(r.code).toBe(0);
    expect(r.stderr()).toBe('Unprotected id "7" (the same id as the rules id "7" and id "07") in profile default\n');
    expect(stored()).toEqual({ profiles: { default: { protected: { tags: ['7'], names: ['07'] } } } });
  });

  it('unprotect in a profile without rules says it has none', async () => {
    const r = await plants(['config', 'unprotect', '--tag', 'tree']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: tag "tree" is not protected in profile default (it has no protection rules); nothing was changed\n',
    );
  });

  it('a rule is not a config key', async () => {
    const r = await plants(['config', 'set', 'protected', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(/^plants: protections are not a config key: add them with 'plants config protect'/);
  });
});

describe('config list shows them', () => {
  it('one line per rule, escaped for the terminal; --json as lists', async () => {
    withRules({ ids: ['7'], tags: ['tr\u001bee'], names: ['Old *'] }, { 'max-deletes': '10%' });
    const r = await plants(['config', 'list']);
    expect(r.stdout()).toBe(
      'profile=default\nbase-url=(not set)\ntoken=(not set)\nmax-deletes=10%\nprotect.id="7"\nprotect.tag="tr\\u001bee"\nprotect.name="Old *"\n',
    );
    const j = await plants(['config', 'list', '--json']);
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout())).toEqual({
      profile: 'default',
      base_url: null,
      token_set: false,
      token_store: null,
      max_deletes: '10%',
      protected: { ids: ['7'], tags: ['tr\u001bee'], names: ['Old *'] },
    });
  });

  it('--json masks a base URL credential and never shows the token', async () => {
    saved({ profiles: { default: { 'base-url': 'https://u:secret-pass@a.test/api', token: TOKEN } } });
    const j = await plants(['config', 'list', '--json']);
    expect(j.stdout()).not.toContain('secret-pass');
    expect(JSON.parse(j.stdout())).toMatchObject({ token_set: true, protected: { ids: [], tags: [], names: [] } });
  });

  it.each([
    [{ protected: { tags: 'tree' } }, /"protected\.tags" of profile "default" must be a list of non-empty strings/],
    [{ protected: { ids: [42] } }, /"protected\.ids" .* \(an id as "42", not 42\)/],
    [{ protected: { tags: [''] } }, /"protected\.tags" .* must be a list of non-empty strings/],
    [
      { protected: { tag: ['tree'] } },
      /"protected" of profile "default" has "tag", which plants does not read; its lists are "ids", "tags", "names"/,
    ],
    [
      { protect: { tags: ['tree'] } },
      /profile "default" has "protect", which plants does not read; did you mean "protected"\?/,
    ],
    [{ max_deletes: '5' }, /has "max_deletes", which plants does not read; did you mean "max-deletes"\?/],
    [{ maxDeletes: '5' }, /did you mean "max-deletes"\?/],
    [{ 'max-deletes': '' }, /"max-deletes" of profile "default" is empty/],
  ])('a hand edit that would lose a guard (%j) is refused by every command, naming it', async (settings, message) => {
    saved({ profiles: { default: settings } });
    for (const args of [
      ['config', 'list'],
      ['delete', '1', '--yes'],
    ]) {
      const r = await plants(args);
      expect(r.code).toBe(2);
      expect(r.stderr()).toMatch(message);
    }
  });
});

describe('a near miss of a top-level key would leave every profile unread', () => {
  const prod = { 'base-url': 'https://prod.test', protected: { ids: ['5'] } };
  it.each([
    [{ Profile: 'prod', profiles: { prod } }, '"Profile"', '"profile"'],
    [{ 'profile ': 'prod', profiles: { prod } }, '"profile "', '"profile"'],
    [{ profile: 'prod', profles: { prod } }, '"profles"', '"profiles"'],
    [{ profile: 'prod', Profiles: { prod } }, '"Profiles"', '"profiles"'],
    [{ base_url: 'https://a.test' }, '"base_url"', '"base-url"'],
  ])('%j is refused by every command, naming the key and what was meant', async (data, key, meant) => {
    saved(data);
    for (const args of [
      ['config', 'list'],
      ['delete', '5', '--yes', '--dry-run'],
    ]) {
      const r = await plants(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr()).toMatch(`is invalid: it has ${key}, which plants does not read; did you mean ${meant}?`);
    }
  });

  it('a key unlike any plants reads ($schema, a note) is left alone', async () => {
    saved({ $schema: 'https://example.test/plants.json', note: 'prod first', profile: 'prod', profiles: { prod } });
    const r = await plants(['config', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout()).toContain('https://prod.test');
  });
});

describe('delete and prune refuse a run that touches a protected plant', () => {
  it('an id rule: refused without looking anything up (exit 2, code refused, nothing sent)', async () => {
    withRules({ ids: ['2'] });
    const r = await plants(['delete', '1', '2', '--yes', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout()).toBe('');
    expect(errorLine(r.stderr())).toEqual({
      code: 'refused',
      status: null,
      request_id: null,
      message:
        '1 plant is protected in profile default: plant 2 (id "2"); nothing was deleted; leave it out, ' +
        "or pass --include-protected to delete without checking any rule (rules: 'plants config list')",
    });
  });

  it('tag and name rules: delete looks the plants up and names each protected one', async () => {
    withRules({ tags: ['tree'], names: ['Fi*'] });
    lists();
    const r = await plants(['delete', '1', '2', '3', '4', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: 3 plants are protected in profile default: plant 2 "Old Oak" (tag "tree"), ' +
        'plant 3 "Old oak" (tag "tree", matched by its tag "Tree" with letter case set aside), plant 4 "Ficus" (name "Fi*"); ' +
        "nothing was deleted; leave them out, or pass --include-protected to delete without checking any rule (rules: 'plants config list')\n",
    );
  });

  it('a plant not in the list cannot be checked: nothing is deleted, and the message says how to go on', async () => {
    withRules({ tags: ['tree'] });
    lists();
    const r = await plants(['delete', '1', '99', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      `plants: plant 99 is not in the service's list, so cannot be checked against the protections of profile default (tag "tree"); ` +
        "nothing was deleted; leave it out, or pass --include-protected to delete without checking any rule (rules: 'plants config list')\n",
    );
  });

  it('the list holds one id twice: either plant protects it, whichever prune matched or the list put first', async () => {
    withRules({ tags: ['mother-plant'], names: ['Heritage *'] });
    const twice = [
      { id: 7, name: 'A', tag: 'seedling' },
      { id: '7', name: 'Keep', tag: 'mother-plant' },
      { id: 8, name: 'B', tag: 'seedling' },
      { id: 8, name: 'Heritage X', tag: 'seedling' },
    ];
    lists(twice);
    const pruned = await plants(['prune', '--tag', 'seedling', '--yes']);
    expect(pruned.code).toBe(2);
    expect(pruned.stderr()).toMatch(
      /^plants: warning: the service listed 2 duplicate ids \(2 distinct plants in 4 items\); a percentage cap counts the distinct plants\nplants: 2 plants are protected in profile default: plant 7 "Keep" \(tag "mother-plant"\), plant 8 "Heritage X" \(name "Heritage \*"\); nothing was deleted/,
    );
    lists(twice);
    expect((await plants(['delete', '07', '8', '--yes'])).code).toBe(2);
  });

  it('the list holds one plant under two spellings of its number: the protected spelling protects the other', async () => {
    withRules({ tags: ['mother-plant'] });
    const spelled = [
      { id: 7, name: 'A', tag: 'seedling' },
      { id: '07', name: 'Keep', tag: 'mother-plant' },
    ];
    lists(spelled);
    const deleted = await plants(['delete', '7', '--yes']);
    expect(deleted.code).toBe(2);
    expect(deleted.stderr()).toMatch(
      /^plants: warning: the service listed 1 duplicate id[^\n]*\nplants: 1 plant is protected in profile default: plant 7 "Keep" \(tag "mother-plant"\); nothing was deleted/,
    );
    lists(spelled);
    const pruned = await plants(['prune', '--tag', 'seedling', '--yes']);
    expect(pruned.code).toBe(2);
    expect(pruned.stderr()).toMatch(
      /^plants: warning: the service listed 1 duplicate id \(1 distinct plant in 2 items\)[^\n]*\nplants: 1 plant is protected in profile default: plant 7 "Keep"/,
    );
  });

  it('prune records the plant it matched, not another one the list holds under the same id', async () => {
    withRules({ tags: ['mother-plant'] });
    lists([
      { id: 7, name: 'A', tag: 'tree' },
      { id: 7, name: 'B', tag: 'seedling' },
    ]);
    deletes('7');
    const r = await plants(['prune', '--tag', 'seedling', '--yes']);
    expect(r.code).toBe(0);
    const journal = readFileSync(join(configDir(), 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toContain('"id":"7","name":"B","tag":"seedling"');
    expect(journal).not.toContain('"name":"A"');
  });

  it('an id rule protects the plant under any spelling of its number', async () => {
    withRules({ ids: ['2'] });
    for (const args of [
      ['delete', '02'],
      ['delete', '+2'],
      ['delete', '2.0'],
    ]) {
      const r = await plants([...args, '--yes']);
      expect(r.code).toBe(2);
      expect(r.stderr()).toMatch(/^plants: 1 plant is protected in profile default: plant .* \(id "2"\)/);
    }
    const fromJson = await plants(['delete', '--stdin', '--yes'], { stdin: '[2.0, 2e0]' });
    expect(fromJson.code).toBe(2);
  });

  it('a target a service may read as another id is checked as that id too, and the refusal says so', async () => {
    withRules({ ids: ['2'] });
    const byId = await plants(['delete', '2.json', '--yes']);
    expect(byId.code).toBe(2);
    expect(byId.stderr()).toMatch(
      /^plants: 1 plant is protected in profile default: plant 2\.json \(id "2", which a service may read as 2\); nothing was deleted/,
    );
    withRules({ tags: ['tree'] });
    lists();
    const byTag = await plants(['delete', '2.json', '--yes']);
    expect(byTag.code).toBe(2);
    expect(byTag.stderr()).toMatch(
      /^plants: 1 plant is protected in profile default: plant 2\.json "Old Oak" \(tag "tree", which a service may read as 2\)/,
    );
    lists([...GARDEN, { id: '1.json', name: 'Fern as JSON', tag: 'fern' }]);
    deletes('1.json');
    expect((await plants(['delete', '1.json', '--yes'])).code).toBe(0);
  });

  it("names are cut short in a refusal: the service's text is not bounded", async () => {
    withRules({ tags: ['t'] });
    lists([{ id: 1, name: 'x'.repeat(5000), tag: 't' }]);
    const r = await plants(['prune', '--all', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr().length).toBeLessThan(400);
    expect(r.stderr()).toContain(`plant 1 "${'x'.repeat(60)}…" (tag "t")`);
  });

  it('name rules alone: delete looks the plants up too', async () => {
    withRules({ names: ['Old *'] });
    lists();
    const r = await plants(['delete', '1', '2', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(/^plants: 1 plant is protected in profile default: plant 2 "Old Oak" \(name "Old \*"\)/);
  });

  it('plants not in the list: named together', async () => {
    withRules({ ids: ['5'], tags: ['tree'], names: ['Old *'] });
    lists();
    const r = await plants(['delete', '98', '1', '99', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(
      /^plants: plants 98, 99 are not in the service's list, so cannot be checked against the protections of profile default \(tag "tree", name "Old \*"\); nothing was deleted; leave them out/,
    );
  });

  it('protected and unchecked plants in one refusal', async () => {
    withRules({ tags: ['tree'] });
    lists();
    const r = await plants(['delete', '2', '99', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(
      /^plants: 1 plant is protected in profile default: plant 2 "Old Oak" \(tag "tree"\); plant 99 is not in the service's list, .*; nothing was deleted; leave them out/,
    );
  });

  it('with only id rules, a plant not in the list needs no check', async () => {
    withRules({ ids: ['2'] });
    deletes('99');
    expect((await plants(['delete', '99', '--yes'])).code).toBe(0);
  });

  it('unprotected plants go through, looked up once; their names reach the journal', async () => {
    withRules({ tags: ['tree'] });
    lists();
    deletes('1');
    deletes('4');
    const r = await plants(['delete', '1', '4', '--yes', '--json', '--concurrency', '1']);
    expect(r.code).toBe(0);
    const journal = readFileSync(join(configDir(), 'state', 'deletions.jsonl'), 'utf8');
    expect(journal).toContain('"id":"4","name":"Ficus"');
  });

  it('prune: refused when a match is protected, with the names it listed', async () => {
    withRules({ names: ['Old *'] });
    lists();
    const r = await plants(['prune', '--tag', 'tree', '--tag', 'Tree', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(
      /^plants: 2 plants are protected in profile default: plant 2 "Old Oak" \(name "Old \*"\), plant 3 "Old oak" \(name "Old \*"\); nothing was deleted/,
    );
  });

  it('a dry run is refused the same way, so it predicts the real run', async () => {
    withRules({ tags: ['fern'] });
    lists();
    const r = await plants(['prune', '--all', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toMatch(/^plants: 1 plant is protected in profile default: plant 1 "Fern" \(tag "fern"\)/);
  });

  it('--include-protected deletes them, and the run start says so in the journal', async () => {
    withRules({ tags: ['tree'], ids: ['1'] });
    lists();
    deletes('1');
    deletes('2');
    const r = await plants(['prune', '--tag', 'tree', '--tag', 'fern', '--yes', '--include-protected']);
    expect(r.code).toBe(0);
    const start = readFileSync(join(configDir(), 'state', 'deletions.jsonl'), 'utf8').split('\n')[0]!;
    expect(JSON.parse(start)).toMatchObject({ event: 'start', command: 'prune', plants: 2, include_protected: true });
  });

  it('the rules of the selected profile apply, not another profile', async () => {
    saved({ profiles: { default: { protected: { ids: ['1'] } }, staging: { protected: { ids: ['2'] } } } });
    deletes('1');
    expect((await plants(['--profile', 'staging', 'delete', '1', '--yes'])).code).toBe(0);
    expect((await plants(['--profile', 'staging', 'delete', '2', '--yes'])).code).toBe(2);
  });

  it('names exactly 20 plants with no "more"', async () => {
    withRules({ tags: ['t'] });
    lists(Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `p${i + 1}`, tag: 't' })));
    const r = await plants(['prune', '--all', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toContain('20 plants are protected');
    expect(r.stderr()).toContain('plant 20 "p20" (tag "t"); nothing was deleted');
  });

  it('names 20 plants, then how many more', async () => {
    withRules({ tags: ['t'] });
    lists(Array.from({ length: 25 }, (_, i) => ({ id: i + 1, name: `p${i + 1}`, tag: 't' })));
    const r = await plants(['prune', '--all', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toContain('plant 20 "p20" (tag "t") and 5 more; nothing was deleted');
    expect(r.stderr()).not.toContain('plant 21 ');
  });
});

describe("lookUp: the service's list read once, batch by batch as it arrives", () => {
  /** A list that arrives in these batches; `read` counts the batches taken. */
  function listing(batches: object[][]) {
    let read = 0;
    async function* list() {
      for (const batch of batches) {
        read += 1;
        yield await Promise.resolve(batch as Plant[]);
      }
    }
    return { list, read: () => read };
  }
  const batches = [
    [{ name: 'no id' }, { id: 7, name: 'A' }, { id: 8, name: 'B' }],
    [
      { id: '07', name: 'Keep', tag: 'mother-plant' },
      { id: 9, name: 'C' },
    ],
  ];

  it('keeps every plant under a wanted id (idKey), to the end of the list, and counts them all', async () => {
    const { list, read } = listing(batches);
    const { counted, byId } = await lookUp(list, new Set(['7']));
    // 7 and 07 are one plant to a cap; one without an id is not counted.
    expect(counted).toEqual({ items: 5, distinct: 3, withoutId: 1 });
    expect(read()).toBe(2);
    expect([...byId.keys()]).toEqual(['7']);
    expect(byId.get('7')!.map((plant) => plant.name)).toEqual(['A', 'Keep']);
  });

  it('countOnly keeps no plant', async () => {
    const { counted, byId } = await lookUp(listing(batches).list, new Set(['7']), { countOnly: true });
    expect(counted).toEqual({ items: 5, distinct: 3, withoutId: 1 });
    expect(byId.size).toBe(0);
  });

  it('firstOnly stops once every wanted id has a plant', async () => {
    const first = listing(batches);
    const found = await lookUp(first.list, new Set(['7', '8']), { firstOnly: true });
    expect(first.read()).toBe(1);
    expect(found.counted.items).toBe(3);
    const all = listing(batches);
    await lookUp(all.list, new Set(['7', '9']), { firstOnly: true });
    expect(all.read()).toBe(2);
  });

  it('firstOnly with exact reads on until each exact id is listed: 07 is not the 7 of the first batch', async () => {
    const exact = listing(batches);
    const found = await lookUp(exact.list, new Set(['7']), { firstOnly: true, exact: new Set(['07']) });
    expect(exact.read()).toBe(2);
    expect(plantFor(found.byId, '07')?.name).toBe('Keep');
    expect(plantFor(found.byId, '7')?.name).toBe('A');
    // No plant is listed as 7.0: the first under the same number stands in.
    expect(plantFor(found.byId, '7.0')?.name).toBe('A');
    const canonical = listing(batches);
    await lookUp(canonical.list, new Set(['7']), { firstOnly: true, exact: new Set(['7']) });
    expect(canonical.read()).toBe(1);
  });
});

describe('lookUp: a plant the service lists with its id written twice', () => {
  /** The plants streamPlantList makes of this text, as the client hands them over. */
  async function batchOf(text: string): Promise<Plant[]> {
    const plants: Plant[] = [];
    // eslint-disable-next-line @typescript-eslint/require-await -- the code under test reads an async iterable.
    const body = async function* () {
      yield Buffer.from(text);
    };
    for await (const batch of streamPlantList(body(), 'application/json', 1e9)) plants.push(...batch);
    return plants;
  }

  it('is found under each id wanted, and firstOnly still reads on until every wanted id has a plant', async () => {
    const batches = [await batchOf('[{"id":"2","id":"3","name":"Twin"}]'), await batchOf('[{"id":"4","name":"D"}]')];
    let read = 0;
    async function* list() {
      for (const batch of batches) {
        read += 1;
        yield await Promise.resolve(batch);
      }
    }
    const { byId } = await lookUp(list, new Set(['3', '4']), { firstOnly: true });
    expect(read).toBe(2);
    expect([...byId.keys()]).toEqual(['3', '4']);
    const byFirst = await lookUp(list, new Set(['2']));
    expect(byFirst.byId.get('2')!.map((plant) => plant.name)).toEqual(['Twin']);
  });
});

describe("the profile's max-deletes", () => {
  it('config set stores it in its normal form; config get prints it', async () => {
    expect((await plants(['config', 'set', 'max-deletes', ' 050 '])).code).toBe(0);
    expect((await plants(['config', 'get', 'max-deletes'])).stdout()).toBe('50\n');
    expect((await plants(['config', 'set', 'max-deletes', '2.50%'])).code).toBe(0);
    expect(stored()).toEqual({ profiles: { default: { 'max-deletes': '2.5%' } } });
    const bad = await plants(['config', 'set', 'max-deletes', '101%']);
    expect(bad.code).toBe(2);
    expect(bad.stderr()).toBe(
      'plants: invalid max-deletes "101%": expected a whole number of plants, 0 or more, or a percentage such as 10%\n',
    );
  });

  it('caps a run, naming the profile and how to override it', async () => {
    saved({ profiles: { default: { 'max-deletes': '1' } } });
    const r = await plants(['delete', '1', '2', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe(
      'plants: 2 plants would be deleted, more than the max-deletes 1 of profile default; nothing was deleted; ' +
        'pass --max-deletes <n> to allow more for this run\n',
    );
  });

  it('--max-deletes overrides it for one run, up or down', async () => {
    saved({ profiles: { default: { 'max-deletes': '1' } } });
    deletes('1');
    deletes('2');
    expect((await plants(['delete', '1', '2', '--yes', '--max-deletes', '2'])).code).toBe(0);
    saved({ profiles: { default: { 'max-deletes': '5' } } });
    const lower = await plants(['delete', '1', '2', '--yes', '--max-deletes', '1']);
    expect(lower.code).toBe(2);
    expect(lower.stderr()).toMatch(/more than --max-deletes 1; nothing was deleted/);
  });

  it('a percentage: delete lists to count; prune counts what it listed', async () => {
    saved({ profiles: { default: { 'max-deletes': '20%' } } });
    lists();
    deletes('1');
    expect((await plants(['delete', '1', '--yes'])).code).toBe(0);
    lists();
    const r = await plants(['prune', '--all', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(
      /^plants: 5 plants would be deleted, more than the max-deletes 20% \(1 of the 5 plants listed\) of profile default/,
    );
  });

  it('a percentage below 0.000001% is stored and named as written, not as 1e-7%', async () => {
    expect((await plants(['config', 'set', 'max-deletes', '0.0000001%'])).code).toBe(0);
    expect(stored()).toEqual({ profiles: { default: { 'max-deletes': '0.0000001%' } } });
    lists();
    const r = await plants(['prune', '--all', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(
      /^plants: 5 plants would be deleted, more than the max-deletes 0\.0000001% \(0 of the 5 plants listed\) of profile default/,
    );
  });

  it('a hand-edited bad value stops the run before anything is listed or sent', async () => {
    saved({ profiles: { default: { 'max-deletes': 'lots' } } });
    const r = await plants(['prune', '--all', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toMatch(
      /^plants: invalid max-deletes of profile default "lots": .* \(config file .*config\.json\); fix it with 'plants config set max-deletes <n>'\n$/,
    );
  });
});
