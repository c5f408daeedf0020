import { Command } from 'commander';
import type { Context } from '../../context.js';
import { alignColumns } from '../../output/columns.js';
import { redactKnownTokens } from '../known-tokens.js';
import { examples } from '../options.js';
import { selectedProfile, shownOr } from './shared.js';

/** `config profiles` takes no flags. */
type ProfilesOptions = Record<string, never>;

type ProfilesRunner = (options: ProfilesOptions, ctx: Context) => Promise<void>;

export function profilesCommand(ctx: Context, run: ProfilesRunner = runProfiles): Command {
  return new Command('profiles')
    .description('List the profiles; * marks the one in use (tokens only as set or not set)')
    .addHelpText('after', examples('plants config profiles'))
    .action(async () => {
      await run({}, ctx);
    });
}

async function runProfiles(_options: ProfilesOptions, ctx: Context): Promise<void> {
  const [store, profile] = await selectedProfile(ctx);
  const names = [...new Set([...store.profileNames(), profile])].sort();
  const redact = await redactKnownTokens(ctx);
  const lines = await alignColumns(
    names.map((name) => [
      `${name === profile ? '*' : ' '} ${name}`,
      shownOr(store.get(name, 'base-url'), '(no base-url)', redact),
      store.storedToken(name) === undefined ? 'no token' : 'token set',
    ]),
  );
  ctx.io.stdout.write(`${lines.join('\n')}\n`);
}
