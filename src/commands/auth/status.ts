import { Command } from 'commander';
import { formatBaseUrl } from '../../api/url.js';
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { examples } from '../options.js';

export function statusCommand(ctx: Context): Command {
  return new Command('status')
    .description('Show the base URL and token in effect, and check them against the service')
    .addHelpText('after', examples('plants auth status', 'PLANTS_TOKEN=… plants auth status'))
    .action(async () => {
      await runStatus(ctx);
    });
}

/** Settle a promise into either its value or the CLI error it failed with. */
async function settle<T>(promise: Promise<T>): Promise<{ value: T } | { error: CliError }> {
  try {
    return { value: await promise };
  } catch (err) {
    if (err instanceof CliError) return { error: err };
    throw err;
  }
}

export async function runStatus(ctx: Context): Promise<void> {
  const { io } = ctx;
  const base = await settle(ctx.baseUrl());
  const token = await settle(ctx.token());
  const lines = [
    'value' in base
      ? `Base URL: ${formatBaseUrl(base.value.value)} (from ${base.value.source})`
      : 'Base URL: not set',
    'value' in token ? `Token:    set (from ${token.value.source})` : 'Token:    not set',
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  if ('error' in base) throw base.error;
  if ('error' in token) throw token.error;

  const client = await ctx.client();
  await client.listPlants({ limit: 1 });
  io.stdout.write('Check:    the service accepted the token (GET /plants?limit=1)\n');
}
