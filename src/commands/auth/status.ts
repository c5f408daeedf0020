import { Command } from 'commander';
import { formatBaseUrl, maskUrl, parseBaseUrl } from '../../shared/url.js';
import { lookupBaseUrl } from '../../config/settings.js';
import type { StoredToken } from '../../config/profile-settings.js';
import { boundOrigin, originOf } from '../../config/token-origin.js';
import type { Context } from '../../context.js';
import { formatJson } from '../../output/formats.js';
import { writeOut } from '../../output/iostreams.js';
import { maskSecrets } from '../../secrets/registry.js';
import { lookUpKnownTokens } from '../known-tokens.js';
import { examples } from '../options.js';

interface StatusOptions {
  json: boolean;
}

type StatusRunner = (options: StatusOptions, ctx: Context) => Promise<void>;

export function statusCommand(ctx: Context, run: StatusRunner = runStatus): Command {
  return new Command('status')
    .description(
      'Show the base URL and token in effect (and where the token is kept), and check them against the service',
    )
    .option(
      '--json',
      'print them as one JSON object: {"profile", "profile_source", "base_url", "base_url_source", "token_source", "token_store", "token_origin", "accepted"}',
    )
    .addHelpText(
      'after',
      examples(
        'plants auth status',
        'plants --base-url https://staging.example.com auth status',
        'plants auth status --json',
      ),
    )
    .action(async (flags: { json?: boolean }) => {
      await run({ json: flags.json === true }, ctx);
    });
}

/**
 * Say what is in effect, then check it. The values are shown as found;
 * checking them (and any error for a missing or invalid one) is left to the
 * same code every command uses.
 */
async function runStatus(options: StatusOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const profile = await ctx.profile();
  // A named profile must exist, as for every command; else it is checked once a value is read from it.
  await ctx.namedProfile();
  const base = await lookupBaseUrl(ctx.flags.baseUrl, ctx.env, ctx.config, ctx.usedProfile);
  // Looked up once (a token command runs once); a missing or unusable token fails the check below.
  const token = await ctx.token().catch(() => undefined);
  // The profile's token, unread: where it is kept, and the origin it is bound to (PLANTS_TOKEN is bound to none).
  const stored = await storedToken(ctx);
  // A token kept somewhere that could not be read (a locked keyring, a failing command, another origin) is still named; the check says why.
  const kept = token ? undefined : stored?.store;
  const bound = stored && boundOrigin(stored);
  const inEffect = originOf(base?.value);
  const otherOrigin = bound !== undefined && inEffect !== undefined && bound !== inEffect;
  // Set, but refused before any request (white space, a control character): set, not "not set".
  const unusable = !token && ctx.env.PLANTS_TOKEN?.trim() ? 'PLANTS_TOKEN' : undefined;
  // The token may be a segment of the base URL's path, this profile's or another's.
  await lookUpKnownTokens(ctx);
  const shown = base && maskSecrets(shownUrl(base.value));
  const check = async () => {
    await (await ctx.client()).listPlants({ limit: 1 });
  };
  if (options.json) {
    const status = {
      profile: profile.value,
      profile_source: profile.source || null,
      base_url: shown ?? null,
      base_url_source: base?.source ?? null,
      token_source: token ? maskSecrets(token.source) : (unusable ?? null),
      token_store: token?.store ?? kept ?? null,
      token_origin: bound ?? null,
      accepted: false,
    };
    try {
      await check();
      status.accepted = true;
    } finally {
      // Printed either way: a script reads what is in effect even when the check fails (the error line follows).
      await writeOut(io.stdout, formatJson(status, io.stdoutIsTTY));
    }
    return;
  }
  const lines = [
    `Profile:  ${profile.value}${profile.source ? ` (from ${profile.source})` : ''}`,
    `Base URL: ${base ? `${shown} (from ${base.source})` : 'not set'}`,
    `Token:    ${token ? `set (from ${maskSecrets(token.source)})` : kept ? 'stored, but could not be read (see below)' : unusable ? `set (from ${unusable}), but not usable (see below)` : 'not set'}`,
    ...(token ? [`Store:    ${token.storeLabel}`] : kept ? [`Store:    ${kept}`] : []),
    ...(stored
      ? [
          `Bound to: ${bound ?? 'no origin: the token is never sent'}${otherOrigin ? `, not ${inEffect}, the origin of the base URL: the token is not sent there (see below)` : ''}`,
        ]
      : []),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  await check();
  io.stdout.write('Check:    the service accepted the token (GET /plants?limit=1)\n');
}

/** Where the selected profile keeps its token, when PLANTS_TOKEN does not override it; undefined on any doubt. */
async function storedToken(ctx: Context): Promise<StoredToken | undefined> {
  if (ctx.env.PLANTS_TOKEN?.trim()) return undefined;
  try {
    return (await ctx.config()).storedToken((await ctx.profile()).value);
  } catch {
    return undefined;
  }
}

/** Only a valid URL is echoed, its secrets masked: an invalid one might carry credentials. */
function shownUrl(raw: string): string {
  try {
    return maskUrl(formatBaseUrl(parseBaseUrl(raw)));
  } catch {
    return 'invalid';
  }
}
