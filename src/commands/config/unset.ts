import { Command } from 'commander';
import type { Context } from '../../context.js';
import { success } from '../../output/messages.js';
import { examples } from '../options.js';
import { selectedProfile } from '../profile-store.js';
import { keyArgument, type ConfigKey } from './shared.js';

interface UnsetOptions {
  key: ConfigKey;
}

type UnsetRunner = (options: UnsetOptions, ctx: Context) => Promise<void>;

export function unsetCommand(ctx: Context, run: UnsetRunner = runUnset): Command {
  return new Command('unset')
    .description('Remove a value from the selected profile')
    .addArgument(keyArgument('the key to remove'))
    .addHelpText('after', examples('plants config unset base-url'))
    .action(async (key: ConfigKey) => {
      await run({ key }, ctx);
    });
}

async function runUnset(options: UnsetOptions, ctx: Context): Promise<void> {
  const [store, profile] = await selectedProfile(ctx);
  store.delete(profile, options.key);
  success(ctx.io, `Unset ${options.key} of profile ${profile}`);
}
