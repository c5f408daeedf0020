import { Command } from 'commander';
import type { Context } from '../../context.js';
import { formatJson } from '../../output/formats.js';
import { writeOut } from '../../output/iostreams.js';
import { maskedUrl } from '../../secrets/registry.js';
import { printable, quoted } from '../../shared/text.js';
import { PROTECTION_KINDS } from '../../config/profile-settings.js';
import { lookUpKnownTokens } from '../known-tokens.js';
import { examples } from '../options.js';
import { RULE_WORD } from '../../deletion/protections.js';
import { selectedProfile } from '../profile-store.js';
import { shownOr } from './shared.js';

interface ConfigListOptions {
  json: boolean;
}

type ConfigListRunner = (options: ConfigListOptions, ctx: Context) => Promise<void>;

export function listCommand(ctx: Context, run: ConfigListRunner = runConfigList): Command {
  return new Command('list')
    .description(
      'Print the stored settings of the selected profile: base URL, token (only as set or not set), max-deletes, protections',
    )
    .option(
      '--json',
      'print them as one JSON object: {"profile", "base_url", "token_set", "token_store", "max_deletes", "protected": {"ids", "tags", "names"}}',
    )
    .addHelpText('after', examples('plants config list', 'plants --profile staging config list --json'))
    .action(async (flags: { json?: boolean }) => {
      await run({ json: flags.json === true }, ctx);
    });
}

async function runConfigList(options: ConfigListOptions, ctx: Context): Promise<void> {
  const [store, profile] = await selectedProfile(ctx);
  const baseUrl = store.get(profile, 'base-url');
  // Where it is kept (the file, the OS keyring, a command), never what it is.
  const tokenStore = store.storedToken(profile)?.store;
  const maxDeletes = store.get(profile, 'max-deletes');
  const rules = store.protections(profile);
  await lookUpKnownTokens(ctx);
  if (options.json) {
    const settings = {
      profile,
      base_url: baseUrl === undefined ? null : maskedUrl(baseUrl),
      token_set: tokenStore !== undefined,
      token_store: tokenStore ?? null,
      max_deletes: maxDeletes ?? null,
      protected: rules,
    };
    await writeOut(ctx.io.stdout, formatJson(settings, ctx.io.stdoutIsTTY));
    return;
  }
  const lines = [
    `profile=${profile}`,
    `base-url=${shownOr(baseUrl, '(not set)')}`,
    `token=${tokenStore === undefined ? '(not set)' : '(set)'}`,
    `max-deletes=${maxDeletes === undefined ? '(not set)' : printable(maxDeletes)}`,
    // One line per rule, quoted so that blanks at its ends show: protect.tag="mother-plant".
    ...PROTECTION_KINDS.flatMap((kind) => rules[kind].map((value) => `protect.${RULE_WORD[kind]}=${quoted(value)}`)),
  ];
  await writeOut(ctx.io.stdout, `${lines.join('\n')}\n`);
}
