import { Argument, Command } from 'commander';
import { completeWith } from '../../completion/hints.js';
import type { Context } from '../../context.js';
import { success } from '../../output/messages.js';
import { examples } from '../options.js';
import { existingProfile } from './shared.js';

interface UseOptions {
  /** As given: whether it exists is known only once the config file is read. */
  name: string;
}

type UseRunner = (options: UseOptions, ctx: Context) => Promise<void>;

export function useCommand(ctx: Context, run: UseRunner = runUse): Command {
  return new Command('use')
    .description('Make a profile the one used when none is selected')
    .addArgument(completeWith(new Argument('<name>', 'an existing profile'), 'profiles'))
    .addHelpText('after', examples('plants config use staging', 'plants config use default'))
    .action(async (name: string) => {
      await run({ name }, ctx);
    });
}

async function runUse(options: UseOptions, ctx: Context): Promise<void> {
  const store = await ctx.config();
  const name = existingProfile(store, options.name, { orDefault: true });
  store.use(name);
  success(ctx.io, `Using profile ${name}`);
}
