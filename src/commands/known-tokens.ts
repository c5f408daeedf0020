import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, configDir } from '../config/config-file.js';
import type { Context } from '../context.js';
import { registerKnownTokens } from '../secrets/known-tokens.js';

/**
 * Register every token plants knows of without asking anyone (see
 * registerKnownTokens): PLANTS_TOKEN, looked up as the run would (so a
 * token looked up is registered as such), and every token stored in the
 * config file. For what shows base URLs and records that no request needed
 * a token for (config, auth status, history, completion). A missing or
 * invalid token, or an unreadable config file, is no error here: there is
 * then less to hide, and the command itself says what is wrong when it
 * needs them.
 */
export async function lookUpKnownTokens(ctx: Context): Promise<void> {
  if (ctx.env.PLANTS_TOKEN?.trim()) {
    try {
      await ctx.token();
    } catch {
      // An unusable token: the command that needs it says so.
    }
  }
  registerKnownTokens(ctx.env.PLANTS_TOKEN, await storedTokens(ctx));
}

/**
 * Register the tokens at hand before an error is reported: settings are
 * checked before the token is looked up (an invalid base URL is refused
 * first, and quoted), and a value refused then may hold a token all the
 * same. PLANTS_TOKEN and the config file's tokens: no token command is
 * run, no keyring opened, and the config file is read only if it is there
 * (an error leaves no directory behind).
 */
export async function lookUpTokensAtHand(ctx: Context): Promise<void> {
  // An unreadable file hides nothing: the error being reported may be that very one.
  const stored = existsSync(join(configDir(ctx.env), CONFIG_FILE)) ? await storedTokens(ctx) : undefined;
  registerKnownTokens(ctx.env.PLANTS_TOKEN, stored);
}

/** The config file, for its tokens; none when it cannot be read (the command that reads it reports why). */
async function storedTokens(ctx: Context): Promise<Awaited<ReturnType<Context['config']>> | undefined> {
  try {
    return await ctx.config();
  } catch {
    return undefined;
  }
}
