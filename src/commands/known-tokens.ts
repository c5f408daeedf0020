import type { Context } from '../context.js';
import { redactToken } from '../shared/redact.js';
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
  let stored: string[] = [];
  if (ctx.env.PLANTS_TOKEN?.trim()) {
    try {
      await ctx.token();
    } catch {
      // An unusable token: the command that needs it says so.
    }
  }
  try {
    const store = await ctx.config();
    stored = store.profileNames().flatMap((name) => store.get(name, 'token') ?? []);
  } catch {
    // The command that reads the file reports it.
  }
  return (text) => stored.reduce((masked, token) => redactToken(masked, token), ctx.redact(text));
}
