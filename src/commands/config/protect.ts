import { Command } from 'commander';
import { PROTECTION_KINDS, type Protections } from '../../config/profile-settings.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../shared/errors.js';
import { info, success } from '../../output/messages.js';
import { collect, examples } from '../options.js';
import { looseText } from '../../deletion/loose-text.js';
import { describeRule, describeRules, hasRules, idKey, RULE_WORD } from '../../deletion/protections.js';
import { profileToWrite, selectedProfile } from '../profile-store.js';

/** `config protect` and `config unprotect`: the rules named by --id, --tag and --name. */
export interface ProtectOptions {
  rules: Protections;
}

type ProtectRunner = (options: ProtectOptions, ctx: Context) => Promise<void>;

type RuleFlags = { id?: string[]; tag?: string[]; name?: string[] };

/** The rules the flags name, each once; at least one, none empty. */
function rulesOf(flags: RuleFlags, command: string): Protections {
  const rules: Protections = {
    ids: [...new Set(flags.id ?? [])],
    tags: [...new Set(flags.tag ?? [])],
    names: [...new Set(flags.name ?? [])],
  };
  for (const kind of PROTECTION_KINDS) {
    if (rules[kind].includes('')) throw new UsageError(`invalid --${RULE_WORD[kind]}: it must not be empty`);
  }
  if (!hasRules(rules)) {
    throw new UsageError(`${command} needs a rule: --id <id>, --tag <tag> or --name <glob>`);
  }
  return rules;
}

/** `config protect` and `config unprotect` take the same flags, each a rule. */
function ruleCommand(
  name: 'protect' | 'unprotect',
  about: { description: string; verb: string; examples: string[] },
  run: ProtectRunner,
  ctx: Context,
): Command {
  return new Command(name)
    .description(about.description)
    .option(
      '--id <id>',
      `${about.verb} the plant with this id; a whole number under any spelling (07, 7.0, 0x7) or at an id's start (7-slug) (repeatable)`,
      collect,
    )
    .option(
      '--tag <tag>',
      `${about.verb} every plant with this tag; case, spaces and invisible characters aside (repeatable)`,
      collect,
    )
    .option(
      '--name <glob>',
      `${about.verb} every plant whose whole name matches this glob (* and ?); case, spaces and invisible characters aside (repeatable)`,
      collect,
    )
    .addHelpText('after', examples(...about.examples))
    .action(async (flags: RuleFlags) => {
      await run({ rules: rulesOf(flags, `config ${name}`) }, ctx);
    });
}

export function protectCommand(ctx: Context, run: ProtectRunner = runProtect): Command {
  return ruleCommand(
    'protect',
    {
      description:
        'Protect plants from delete and prune in the selected profile: a run that would touch one is refused',
      verb: 'protect',
      examples: [
        'plants config protect --tag mother-plant',
        'plants config protect --id 42 --id 43',
        "plants --profile prod config protect --name 'Heritage *'",
        'plants config list',
      ],
    },
    run,
    ctx,
  );
}

export function unprotectCommand(ctx: Context, run: ProtectRunner = runUnprotect): Command {
  return ruleCommand(
    'unprotect',
    {
      description: 'Remove protection rules from the selected profile (as config list shows them)',
      verb: 'remove the rule that protects',
      examples: ['plants config unprotect --tag mother-plant', "plants config unprotect --name 'Heritage *'"],
    },
    run,
    ctx,
  );
}

/** What a rule named on the command line did: added, or the stored rules of the same value it met. */
interface RuleOutcome {
  kind: keyof Protections;
  value: string;
  /** For protect: the rule already there (this one, or another spelling of it); for unprotect: those removed. */
  same: string[];
}

/**
 * The stored rules a rule stands for, as delete and prune compare them: for
 * an id, the same id under another spelling (idKey: `07`, `7.0` and `0x7`
 * are the id 7); for a tag or name, the same text read loosely (looseText:
 * `Mother-Plant` is the tag `mother-plant`).
 */
function sameRules(kind: keyof Protections, stored: readonly string[], value: string): string[] {
  const key = kind === 'ids' ? idKey : looseText;
  const wanted = key(value);
  return stored.filter((rule) => key(rule) === wanted);
}

/** `id "07"`, or `id "07" (the same id as the rule id "7")` when it stands for rules spelt otherwise (`tag`, `name` too). */
function named({ kind, value, same }: RuleOutcome): string {
  const rule = describeRule(kind, value);
  if (same.length === 0 || (same.length === 1 && same[0] === value)) return rule;
  const rules = same.map((stored) => describeRule(kind, stored));
  const listed = rules.length === 1 ? rules[0] : `${rules.slice(0, -1).join(', ')} and ${rules.at(-1)}`;
  return `${rule} (the same ${RULE_WORD[kind]} as ${rules.length === 1 ? 'the rule' : 'the rules'} ${listed})`;
}

async function runProtect(options: ProtectOptions, ctx: Context): Promise<void> {
  const [store, profile] = await profileToWrite(ctx);
  let outcomes: RuleOutcome[] = [];
  // What is there when the file is changed (under its lock) says which rules are new.
  store.updateProtections(profile, (current) => {
    outcomes = [];
    const next = { ...current };
    for (const kind of PROTECTION_KINDS) {
      next[kind] = [...current[kind]];
      for (const value of options.rules[kind]) {
        const same = sameRules(kind, next[kind], value);
        if (same.length === 0) next[kind].push(value);
        outcomes.push({ kind, value, same });
      }
    }
    return next;
  });
  for (const outcome of outcomes) {
    if (outcome.same.length > 0) info(ctx.io, `${named(outcome)} was already protected in profile ${profile}`);
    else success(ctx.io, `Protected ${describeRule(outcome.kind, outcome.value)} in profile ${profile}`);
  }
}

async function runUnprotect(options: ProtectOptions, ctx: Context): Promise<void> {
  const [store, profile] = await selectedProfile(ctx);
  let outcomes: RuleOutcome[] = [];
  store.updateProtections(profile, (current) => {
    outcomes = PROTECTION_KINDS.flatMap((kind) =>
      options.rules[kind].map((value) => ({ kind, value, same: sameRules(kind, current[kind], value) })),
    );
    const missing = outcomes.filter(({ same }) => same.length === 0);
    if (missing.length > 0) {
      const there = describeRules(current);
      throw new UsageError(
        `${missing.map(({ kind, value }) => describeRule(kind, value)).join(', ')} ` +
          `${missing.length === 1 ? 'is' : 'are'} not protected in profile ${profile} ` +
          `(${there.length > 0 ? `its rules: ${there.join(', ')}` : 'it has no protection rules'}); nothing was changed`,
      );
    }
    // Every spelling of an id goes: one left behind would still protect the plant.
    const next = { ...current };
    for (const kind of PROTECTION_KINDS) {
      const removed = new Set(outcomes.filter((outcome) => outcome.kind === kind).flatMap(({ same }) => same));
      next[kind] = current[kind].filter((value) => !removed.has(value));
    }
    return next;
  });
  for (const outcome of outcomes) {
    const text = `Unprotected ${named(outcome)} in profile ${profile}`;
    // Rules other than the one typed are removed: said even off a terminal.
    if (named(outcome) === describeRule(outcome.kind, outcome.value)) success(ctx.io, text);
    else info(ctx.io, text);
  }
}
