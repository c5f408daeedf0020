import { join } from 'node:path';
import { Command } from 'commander';
import { configDir } from '../../config/store.js';
import type { Context } from '../../context.js';
import { examples } from '../options.js';

/** `config path` takes no flags. */
type PathOptions = Record<string, never>;

type PathRunner = (options: PathOptions, ctx: Context) => Promise<void> | void;

export function pathCommand(ctx: Context, run: PathRunner = runPath): Command {
  return new Command('path')
    .description('Print the path of the config file')
    .addHelpText('after', examples('plants config path', 'ls -l "$(plants config path)"'))
    .action(async () => {
      await run({}, ctx);
    });
}

function runPath(_options: PathOptions, ctx: Context): void {
  ctx.io.stdout.write(`${join(configDir(ctx.env), 'config.json')}\n`);
}
