import { Command } from 'commander';
import { PROTECTION_KINDS, type Protections } from '../../config/store.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { info, success } from '../../output/messages.js';
import { collect, examples } from '../options.js';
import { describeRule, describeRules, hasRules, RULE_WORD } from '../delete/protections.js';
import { profileToWrite, selectedProfile } from './shared.js';

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
    .option('--id <id>', `${about.verb} the plant with this id, exactly (repeatable)`, collect)
    .option('--tag <tag>', `${about.verb} every plant with this tag, exactly; case counts (repeatable)`, collect)
    .option(
      '--name <glob>',
      `${about.verb} every plant whose whole name matches this glob, as --name of list (repeatable)`,
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

async function runProtect(options: ProtectOptions, ctx: Context): Promise<void> {
  const [store, profile] = await profileToWrite(ctx);
  const { before } = store.updateProtections(profile, (current) => {
    const next = { ...current };
    for (const kind of PROTECTION_KINDS) next[kind] = [...new Set([...current[kind], ...options.rules[kind]])];
    return next;
  });
  // What was there when the file was changed (under its lock) says which rules are new.
  for (const kind of PROTECTION_KINDS) {
    for (const value of options.rules[kind]) {
      const rule = describeRule(kind, value);
      if (before[kind].includes(value)) info(ctx.io, `${rule} was already protected in profile ${profile}`);
      else success(ctx.io, `Protected ${rule} in profile ${profile}`);
    }
  }
}

async function runUnprotect(options: ProtectOptions, ctx: Context): Promise<void> {
  const [store, profile] = await selectedProfile(ctx);
  store.updateProtections(profile, (current) => {
    const missing = PROTECTION_KINDS.flatMap((kind) =>
      options.rules[kind].filter((value) => !current[kind].includes(value)).map((value) => describeRule(kind, value)),
    );
    if (missing.length > 0) {
      const there = describeRules(current);
      throw new UsageError(
        `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not protected in profile ${profile} ` +
          `(${there.length > 0 ? `its rules: ${there.join(', ')}` : 'it has no protection rules'}); nothing was changed`,
      );
    }
    const next = { ...current };
    for (const kind of PROTECTION_KINDS)
      next[kind] = current[kind].filter((value) => !options.rules[kind].includes(value));
    return next;
  });
  for (const kind of PROTECTION_KINDS) {
    for (const value of options.rules[kind])
      success(ctx.io, `Unprotected ${describeRule(kind, value)} in profile ${profile}`);
  }
}
