import { Command } from 'commander';
import type { Context } from '../../context.js';
import { NotSetError } from '../../errors.js';
import { redactKnownTokens } from '../known-tokens.js';
import { examples } from '../options.js';
import { keyArgument, selectedProfile, shownValue, type ConfigKey } from './shared.js';

export interface GetOptions {
  key: ConfigKey;
}

type GetRunner = (options: GetOptions, ctx: Context) => Promise<void>;

export function getCommand(ctx: Context, run: GetRunner = runGet): Command {
  return new Command('get')
    .description('Print a value of the selected profile (exit 1 when it is not set)')
    .addArgument(keyArgument('the key to print'))
    .addHelpText(
      'after',
      examples(
        'plants config get base-url',
        'plants --profile staging config get base-url',
        'plants config get max-deletes',
      ),
    )
    .action(async (key: ConfigKey) => {
      await run({ key }, ctx);
    });
}

async function runGet(options: GetOptions, ctx: Context): Promise<void> {
  const [store, profile] = await selectedProfile(ctx);
  const value = store.get(profile, options.key);
  if (value === undefined) throw new NotSetError(`${options.key} is not set for profile ${profile}`);
  // Masking leaves any base URL plants can use as it is, but for a token in it: scripts still read back what they stored.
  ctx.io.stdout.write(`${shownValue(options.key, value, await redactKnownTokens(ctx))}\n`);
}
