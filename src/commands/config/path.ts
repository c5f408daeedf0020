import { join } from 'node:path';
import { Command } from 'commander';
import { CONFIG_FILE, configDir } from '../../config/config-file.js';
import { formatJson } from '../../output/formats.js';
import { writeOut } from '../../output/iostreams.js';
import type { Context } from '../../context.js';
import { examples } from '../options.js';

interface PathOptions {
  json: boolean;
}

type PathRunner = (options: PathOptions, ctx: Context) => Promise<void>;

export function pathCommand(ctx: Context, run: PathRunner = runPath): Command {
  return new Command('path')
    .description('Print the path of the config file')
    .option('--json', 'print it as JSON: {"path"}')
    .addHelpText('after', examples('plants config path', 'ls -l "$(plants config path)"'))
    .action(async (flags: { json?: boolean }) => {
      await run({ json: flags.json === true }, ctx);
    });
}

async function runPath(options: PathOptions, ctx: Context): Promise<void> {
  const path = join(configDir(ctx.env), CONFIG_FILE);
  await writeOut(ctx.io.stdout, options.json ? formatJson({ path }, ctx.io.stdoutIsTTY) : `${path}\n`);
}
