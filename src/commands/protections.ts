import type { Plant } from '../api/responses.js';
import { PROTECTION_KINDS, type Protections } from '../config/store.js';
import { globToRegExp } from '../filters.js';
import { quoted } from '../shared/text.js';

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

/**
 * A test of one target against the rules: the first rule that protects it,
 * described, or undefined. `plant` is the plant as the service listed it;
 * without it only id rules can be checked (the caller makes sure it has
 * the plant when needsPlant).
 */
export function protectionMatcher(rules: Protections): (id: string, plant?: Plant) => string | undefined {
  const ids = new Set(rules.ids);
  const tags = new Set(rules.tags);
  const names = rules.names.map((glob) => ({ glob, test: globToRegExp(glob) }));
  return (id, plant) => {
    if (ids.has(id)) return describeRule('ids', id);
    if (plant === undefined) return undefined;
    if (typeof plant.tag === 'string' && tags.has(plant.tag)) return describeRule('tags', plant.tag);
    const glob = names.find(({ test }) => test.test(plant.name));
    return glob && describeRule('names', glob.glob);
  };
}
