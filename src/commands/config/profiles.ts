import { Command } from 'commander';
import type { Context } from '../../context.js';
import { alignColumns } from '../../output/columns.js';
import { formatJson } from '../../output/formats.js';
import { writeOut } from '../../output/iostreams.js';
import { maskedUrl } from '../../secrets/registry.js';
import { lookUpKnownTokens } from '../known-tokens.js';
import { examples } from '../options.js';
import { selectedProfile } from '../profile-store.js';
import { shownOr } from './shared.js';

interface ProfilesOptions {
  json: boolean;
}

type ProfilesRunner = (options: ProfilesOptions, ctx: Context) => Promise<void>;

export function profilesCommand(ctx: Context, run: ProfilesRunner = runProfiles): Command {
  return new Command('profiles')
    .description('List the profiles; * marks the one in use (tokens only as set or not set)')
    .option('--json', 'print them as JSON: [{"name", "in_use", "base_url", "token_set", "token_store"}]')
    .addHelpText('after', examples('plants config profiles', 'plants config profiles --json'))
    .action(async (flags: { json?: boolean }) => {
      await run({ json: flags.json === true }, ctx);
    });
}

async function runProfiles(options: ProfilesOptions, ctx: Context): Promise<void> {
  const [store, profile] = await selectedProfile(ctx);
  const names = [...new Set([...store.profileNames(), profile])].sort();
  await lookUpKnownTokens(ctx);
  if (options.json) {
    const profiles = names.map((name) => {
      const baseUrl = store.get(name, 'base-url');
      const kept = store.storedToken(name)?.store;
      return {
        name,
        in_use: name === profile,
        base_url: baseUrl === undefined ? null : maskedUrl(baseUrl),
        token_set: kept !== undefined,
        token_store: kept ?? null,
      };
    });
    await writeOut(ctx.io.stdout, formatJson(profiles, ctx.io.stdoutIsTTY));
    return;
  }
  const lines = await alignColumns(
    names.map((name) => [
      `${name === profile ? '*' : ' '} ${name}`,
      shownOr(store.get(name, 'base-url'), '(no base-url)'),
      store.storedToken(name) === undefined ? 'no token' : 'token set',
    ]),
  );
  ctx.io.stdout.write(`${lines.join('\n')}\n`);
}
