import { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../options.js';
import { selectedProfile, shownOr } from './shared.js';

/** `config list` takes no flags: its settings come from the global ones (--profile). */
type ConfigListOptions = Record<string, never>;

type ConfigListRunner = (options: ConfigListOptions, ctx: Context) => Promise<void>;

export function listCommand(ctx: Context, run: ConfigListRunner = runConfigList): Command {
  return new Command('list')
    .description('Print the stored settings of the selected profile (the token only as set or not set)')
    .addHelpText('after', examples('plants config list', 'plants --profile staging config list'))
    .action(async () => {
      await run({}, ctx);
    });
}

async function runConfigList(_options: ConfigListOptions, ctx: Context): Promise<void> {
  const [store, profile] = await selectedProfile(ctx);
  const lines = [
    `profile=${profile}`,
    `base-url=${shownOr(store.get(profile, 'base-url'), '(not set)')}`,
    `token=${store.get(profile, 'token') === undefined ? '(not set)' : '(set)'}`,
  ];
  ctx.io.stdout.write(`${lines.join('\n')}\n`);
}
