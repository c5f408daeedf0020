import { Command } from 'commander';
import { formatBaseUrl, parseBaseUrl } from '../../shared/url.js';
import type { Context } from '../../context.js';
import { success } from '../../output/messages.js';
import { examples } from '../options.js';
import { keyArgument, profileToWrite, type ConfigKey } from './shared.js';

export interface SetOptions {
  key: ConfigKey;
  /** Already checked and normalised: base-url is an absolute http(s) URL. */
  value: string;
}

type SetRunner = (options: SetOptions, ctx: Context) => Promise<void>;

export function setCommand(ctx: Context, run: SetRunner = runSet): Command {
  return new Command('set')
    .description('Store a value in the selected profile (keys: base-url)')
    .addArgument(keyArgument('the key to set'))
    .argument('<value>', 'the value; base-url must be an absolute http(s) URL')
    .addHelpText('after', examples('plants config set base-url https://plants.example.com/api'))
    .action(async (key: ConfigKey, value: string) => {
      await run({ key, value: formatBaseUrl(parseBaseUrl(value)) }, ctx);
    });
}

async function runSet(options: SetOptions, ctx: Context): Promise<void> {
  const [store, profile] = await profileToWrite(ctx);
  store.set(profile, options.key, options.value);
  success(ctx.io, `Set ${options.key} of profile ${profile} to ${options.value}`);
}
