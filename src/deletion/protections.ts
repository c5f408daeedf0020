import type { Plant } from '../api/responses.js';
import { PROTECTION_KINDS, type Protections } from '../config/profile-settings.js';
import { globMatcher } from '../api/filters.js';
import { JsonNumber, numberText } from '../shared/json.js';
import { quoted } from '../shared/text.js';
import { idSpellings, wrappedReadings } from './id-spellings.js';
import { leadingNumbers } from './leading-number.js';
import { looseSteps, looseText, type LooseStep } from './loose-text.js';
import { DECIMAL, integerForm, withoutBlanks } from './integer-form.js';

/**
 * Protection rules, as `config protect` stores them and `delete`/`prune`
 * apply them: an id rule matches the id as text, a whole number under any
 * spelling (idKey), and every id a service may read as it (idReadings); a
 * tag rule the plant's tag, and a name rule is a glob on the whole name
 * (`*` any run of characters, `?` one), both read loosely (looseText: case,
 * spaces, invisible characters and Unicode forms set aside). Protection is
 * loose where selection (`--tag`, `--name`) is exact.
 */

/** Singular words for messages and flags: `--id`, `id "7"`. */
export const RULE_WORD: Record<keyof Protections, 'id' | 'tag' | 'name'> = { ids: 'id', tags: 'tag', names: 'name' };

/** One rule as messages name it: `tag "tree"`. */
export function describeRule(kind: keyof Protections, value: string): string {
  return `${RULE_WORD[kind]} ${quoted(value)}`;
}

/** Every rule, described, in the order id, tag, name. */
export function describeRules(rules: Protections): string[] {
  return PROTECTION_KINDS.flatMap((kind) => rules[kind].map((value) => describeRule(kind, value)));
}

export function hasRules(rules: Protections): boolean {
  return PROTECTION_KINDS.some((kind) => rules[kind].length > 0);
}

/** Whether a plant must be seen to be checked: tag and name rules look at the plant, id rules only at the id. */
export function needsPlant(rules: Protections): boolean {
  return rules.tags.length > 0 || rules.names.length > 0;
}

/**
 * What ids are compared by: the integer form of a whole number (blanks
 * around it aside, as JavaScript and Python drop them), else the text as it is.
 */
export function idKey(id: string): string {
  return integerForm(withoutBlanks(id)) ?? id;
}

/** A format suffix a server may take off the end of a plant's path: `.json`, `.xml`, `.v2`. */
const FORMAT_SUFFIX = /\.[A-Za-z][A-Za-z\d]*$/;

/** ASCII digits, as many as a double holds exactly: an id that is its own only reading (and its wraps). */
const PLAIN_DIGITS = /^\d{1,15}$/;

/** Suffixes taken off one id at most (`7.tar.gz` takes two). */
const MAX_SUFFIXES = 8;

/**
 * Every id (by idKey) a service may read a target as, the target's own
 * first. Each text the id may be taken for (idSpellings: its NFKC form,
 * without invisible characters, percent-decoded as a proxy and an app may
 * each decode it) is read: as the number it starts with, as parseInt, Ruby's
 * to_i (Rails) and PHP's (int) read `7-slug` or ` 7` as 7 (leadingNumbers);
 * without a format suffix, as Rails (and Spring before 5.3) read
 * `/plants/7.json` as plant 7 in JSON; up to a NUL, where a server in C
 * reads `7\0x` as 7; and each as a service that reads ids as doubles does
 * (doubleReading). A whole number is read too as a service holding ids in
 * 32 or 64 bits wraps it (wrappedReadings: 4294967303 is 7). Each is
 * protected as the id itself would be; idKey, the id's own identity, still
 * keeps the text after a number (`7abc` is not the id 7 to select or count by).
 */
export function idReadings(id: string): string[] {
  // Most ids: every reading of plain digits a double holds exactly is the number itself.
  if (PLAIN_DIGITS.test(id)) {
    const key = idKey(id);
    const wrapped = wrappedReadings(key);
    return wrapped.length === 0 ? [key] : [key, ...wrapped];
  }
  const keys = new Set([idKey(id)]);
  const add = (text: string) => {
    keys.add(idKey(text));
    const rounded = doubleReading(text);
    if (rounded !== undefined) keys.add(rounded);
  };
  for (const spelling of idSpellings(id)) {
    // The number at its start, as parseInt, Ruby's to_i and PHP's (int) read it (leading-number.ts).
    for (const number of leadingNumbers(spelling)) add(number);
    const nul = spelling.indexOf('\0');
    for (const text of nul > 0 ? [spelling, spelling.slice(0, nul)] : [spelling]) {
      let stem = text;
      add(stem);
      for (let cut = 0; cut < MAX_SUFFIXES; cut += 1) {
        const suffix = FORMAT_SUFFIX.exec(stem);
        if (!suffix || suffix.index === 0) break;
        stem = stem.slice(0, suffix.index);
        add(stem);
      }
    }
  }
  let wrapped: string[] | undefined;
  for (const key of keys) {
    const readings = wrappedReadings(key);
    if (readings.length > 0) (wrapped ??= []).push(...readings);
  }
  if (wrapped) for (const key of wrapped) keys.add(key);
  return [...keys];
}

/**
 * The whole number a service that reads ids as doubles (JavaScript's
 * `Number()`, Python's `float()`) makes of a decimal number it cannot hold
 * exactly: `7.0000000000000001` is 7 there, `9007199254740993` is
 * 9007199254740992. Undefined when the double is not whole (`7.5`), is
 * infinite, or the text is no plain decimal number.
 */
function doubleReading(text: string): string | undefined {
  const plain = withoutBlanks(text);
  if (!DECIMAL.test(plain) || !/\d/.test(plain)) return undefined;
  const value = Number(plain);
  return Number.isInteger(value) ? BigInt(value).toString() : undefined;
}

/**
 * The rule that protects a target, and the plant it matched (none for an
 * id rule); `readAs`, the id the rule holds for, when a service would read
 * the target as that id rather than as written (`7.json` as 7).
 */
export interface Protection {
  rule: string;
  plant?: Plant;
  readAs?: string;
  /** For a tag or name rule the plant's text matches only loosely: what had to be set aside. */
  looseSteps?: LooseStep[];
}

/**
 * A test of one target against the rules: the first rule that protects it,
 * or undefined. `plants` are every plant the service listed under the
 * target's id or any other id a service may read it as (idReadings): a
 * list that holds two plants with one id protects that id if either is
 * protected. Without them only id rules can be checked (the caller makes
 * sure it has them when needsPlant).
 */
export function protectionMatcher(
  rules: Protections,
): (id: string, plants: readonly Plant[]) => Protection | undefined {
  const ids = new Map(rules.ids.map((rule) => [idKey(rule), rule]));
  // Tag and name rules match loosely (loose-text.ts): the first rule of each loose text speaks for it.
  const tags = new Map<string, string>();
  for (const tag of rules.tags) if (!tags.has(looseText(tag))) tags.set(looseText(tag), tag);
  // A name matches as written or loosely: loosely alone, `Old ` (trimmed to `old`) would miss `Old *`.
  const names = rules.names.map((glob) => {
    const exact = globMatcher(glob);
    const loose = globMatcher(looseText(glob));
    return { glob, test: (name: string, loosened: string) => exact(name) || loose(loosened) };
  });
  return (id, plants) => {
    const [own, ...others] = idReadings(id);
    const idRule = ids.get(own!);
    if (idRule !== undefined) return { rule: describeRule('ids', idRule) };
    for (const key of others) {
      const rule = ids.get(key);
      if (rule !== undefined) return { rule: describeRule('ids', rule), readAs: key };
    }
    for (const plant of plants) {
      // The service's data is not trusted to be what the interface says: a tag or name may come as a number.
      const plantTag = textOf(plant.tag);
      const tag = plantTag === undefined ? undefined : tags.get(looseText(plantTag));
      if (tag !== undefined) {
        const why = becauseOf(plantTag!, tag, (text, rule) => text === rule);
        return { rule: describeRule('tags', tag), plant, ...why };
      }
      const name = textOf(plant.name);
      if (name === undefined || names.length === 0) continue;
      const loosened = looseText(name);
      const glob = names.find(({ test }) => test(name, loosened));
      if (glob) {
        const why = becauseOf(name, glob.glob, (text, rule) => globMatcher(rule)(text));
        return { rule: describeRule('names', glob.glob), plant, ...why };
      }
    }
    return undefined;
  };
}

/** A tag or name as text: a string, or a number as the service wrote it; nothing else (null, an object). */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return value instanceof JsonNumber ? numberText(value) : undefined;
}

/** Why a plant's `text` matched a rule it differs from as written (loose-text.ts): nothing when it matches as written. */
function becauseOf(
  text: string,
  rule: string,
  matches: (text: string, rule: string) => boolean,
): Pick<Protection, 'looseSteps'> {
  const steps = looseSteps(text, rule, matches);
  return steps ? { looseSteps: steps } : {};
}
