import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, configDir } from '../config/config-file.js';
import type { Context } from '../context.js';
import { redactToken } from './redact.js';
import type { Redact } from '../shared/text.js';

/**
 * A redaction for text that may hold any token plants knows of without
 * asking anyone: PLANTS_TOKEN, a token already looked up (ctx.redact), and
 * every token stored in the config file, whichever profile it belongs to.
 * Never at the price of running a token command (it may prompt) or opening
 * the OS keyring (completion and config must not load it); their tokens
 * are masked once a run has looked them up. For what shows base
 * URLs and records that no request needed a token for (config, history,
 * completion): a URL may hold a token as a path segment, and a journal
 * record may come from any profile. A missing or invalid token, or an
 * unreadable config file, is no error here: there is then less to hide, and
 * the command itself says what is wrong when it needs them.
 */
export async function redactKnownTokens(ctx: Context): Promise<Redact> {
  if (ctx.env.PLANTS_TOKEN?.trim()) {
    try {
      await ctx.token();
    } catch {
      // An unusable token: the command that needs it says so.
    }
  }
  // The command that reads the file reports what is wrong with it.
  return masking(ctx, await storedTokens(ctx));
}

/** Every token stored in the config file, whichever profile holds it; none when it cannot be read. */
async function storedTokens(ctx: Context): Promise<string[]> {
  try {
    const store = await ctx.config();
    return store.profileNames().flatMap((name) => store.get(name, 'token') ?? []);
  } catch {
    return [];
  }
}

/** ctx.redact, then each of `tokens` masked too. */
function masking(ctx: Context, tokens: readonly string[]): Redact {
  return (text) => tokens.reduce((masked, token) => redactToken(masked, token), ctx.redact(text));
}

/**
 * A redaction for an error message: the token the run looked up
 * (ctx.redact), and the tokens at hand it may not have looked up yet:
 * PLANTS_TOKEN, and every token stored in the config file. Settings are
 * checked before the token is looked up (an invalid base URL is refused
 * first, and quoted), and a value refused then may hold a token all the
 * same. No token command is run and no keyring opened; the config file is
 * read only if it is there (an error leaves no directory behind), and an
 * unreadable one hides nothing.
 */
export async function redactTokensAtHand(ctx: Context): Promise<Redact> {
  const tokens: string[] = [];
  const variable = ctx.env.PLANTS_TOKEN;
  if (variable?.trim()) tokens.push(...new Set([variable, variable.trim()]));
  // An unreadable file hides nothing: the error being reported may be that very one.
  if (existsSync(join(configDir(ctx.env), CONFIG_FILE))) tokens.push(...(await storedTokens(ctx)));
  return masking(ctx, tokens);
}
