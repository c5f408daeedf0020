import type { Plant } from '../../api/responses.js';
import { PROTECTION_KINDS, type Protections } from '../../config/store.js';
import { globMatcher } from '../../filters.js';
import { quoted } from '../../shared/text.js';

/**
 * Protection rules, as `config protect` stores them and `delete`/`prune`
 * apply them: an id rule matches the id as text, exactly; a tag rule the
 * plant's tag, exactly (case counts); a name rule is a glob on the whole
 * name, as `--name` is (`*` any run of characters, `?` one, case counts).
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

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;

/**
 * The integer a decimal text stands for, in its plain form (`07`, `+7`,
 * `7.0` and `7e0` are all `7`), or undefined when it is not a whole number.
 * A service that reads ids as numbers deletes plant 7 for any of them, so
 * an id rule must protect it under every spelling.
 */
export function integerForm(text: string): string | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = `${whole}${fraction}`;
  const shift = Number(exponent) - fraction.length;
  if (shift < 0) {
    if (!/^0*$/.test(digits.slice(shift))) return undefined;
    digits = digits.slice(0, shift);
  } else if (!/^0*$/.test(digits)) {
    if (shift > 1000) return undefined;
    digits += '0'.repeat(shift);
  }
  digits = digits.replace(/^0+/, '');
  if (digits === '') return '0';
  return sign === '-' ? `-${digits}` : digits;
}

/** What ids are compared by: the integer form of a whole number (blanks around it aside), else the text as it is. */
export function idKey(id: string): string {
  return integerForm(id.trim()) ?? id;
}

/** The rule that protects a target, and the plant it matched (none for an id rule). */
export interface Protection {
  rule: string;
  plant?: Plant;
}

/**
 * A test of one target against the rules: the first rule that protects it,
 * or undefined. `plants` are every plant the service listed under the
 * target's id (idKey): a list that holds two plants with one id protects
 * that id if either is protected. Without them only id rules can be
 * checked (the caller makes sure it has them when needsPlant).
 */
export function protectionMatcher(
  rules: Protections,
): (id: string, plants: readonly Plant[]) => Protection | undefined {
  const ids = new Map(rules.ids.map((rule) => [idKey(rule), rule]));
  const tags = new Set(rules.tags);
  const names = rules.names.map((glob) => ({ glob, test: globMatcher(glob) }));
  return (id, plants) => {
    const idRule = ids.get(idKey(id));
    if (idRule !== undefined) return { rule: describeRule('ids', idRule) };
    for (const plant of plants) {
      if (typeof plant.tag === 'string' && tags.has(plant.tag)) return { rule: describeRule('tags', plant.tag), plant };
      // The service's data is not trusted to be what the interface says.
      const glob = typeof plant.name === 'string' ? names.find(({ test }) => test(plant.name)) : undefined;
      if (glob) return { rule: describeRule('names', glob.glob), plant };
    }
    return undefined;
  };
}
