import { Command } from 'commander';
import { formatBaseUrl, parseBaseUrl } from '../../shared/url.js';
import { lookupBaseUrl, lookupToken } from '../../config/settings.js';
import type { Context } from '../../context.js';
import { redactKnownTokens } from '../known-tokens.js';
import { examples } from '../options.js';

/** `auth status` takes no flags: what it checks comes from the global ones (--profile, --base-url). */
type StatusOptions = Record<string, never>;

type StatusRunner = (options: StatusOptions, ctx: Context) => Promise<void>;

export function statusCommand(ctx: Context, run: StatusRunner = runStatus): Command {
  return new Command('status')
    .description('Show the base URL and token in effect, and check them against the service')
    .addHelpText('after', examples('plants auth status', 'plants --base-url https://staging.example.com auth status'))
    .action(async () => {
      await run({}, ctx);
    });
}

/**
 * Say what is in effect, then check it. The values are shown as found;
 * checking them (and any error for a missing or invalid one) is left to the
 * same code every command uses.
 */
async function runStatus(_options: StatusOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const profile = await ctx.profile();
  // A named profile must exist, as for every command; else it is checked once a value is read from it.
  await ctx.namedProfile();
  const base = await lookupBaseUrl(ctx.flags.baseUrl, ctx.env, ctx.config, ctx.usedProfile);
  const token = await lookupToken(ctx.env, ctx.config, ctx.usedProfile);
  // The token may be a segment of the base URL's path.
  const redact = await redactKnownTokens(ctx);
  const lines = [
    `Profile:  ${profile.value}${profile.source ? ` (from ${profile.source})` : ''}`,
    `Base URL: ${base ? `${redact(shownUrl(base.value))} (from ${base.source})` : 'not set'}`,
    token ? `Token:    set (from ${token.source})` : 'Token:    not set',
  ];
  io.stdout.write(`${lines.join('\n')}\n`);

  const client = await ctx.client();
  await client.listPlants({ limit: 1 });
  io.stdout.write('Check:    the service accepted the token (GET /plants?limit=1)\n');
}

/** Only a valid URL is echoed: an invalid one might carry credentials. */
function shownUrl(raw: string): string {
  try {
    return formatBaseUrl(parseBaseUrl(raw));
  } catch {
    return 'invalid';
  }
}
