import { DEFAULT_PROFILE } from '../config/profile-names.js';
import type { ConfigStore } from '../config/store.js';
import type { Context } from '../context.js';
import { info } from '../output/messages.js';

/** The config store and the name of the selected profile, which must exist (Context.usedProfile). */
export async function selectedProfile(ctx: Context): Promise<[ConfigStore, string]> {
  return Promise.all([ctx.config(), ctx.usedProfile()]);
}

/**
 * The config store and the name of the selected profile, for a command
 * that stores a value in it: a profile that does not exist yet is created
 * by that, and stderr says so (a mistyped name shows at once), in the
 * command's words (`notice`). The default
 * profile always exists, so a first `config set` on a fresh install says nothing.
 */
export async function profileToWrite(
  ctx: Context,
  notice = (name: string) => `creating profile ${name}`,
): Promise<[ConfigStore, string]> {
  const [store, { value: name }] = await Promise.all([ctx.config(), ctx.profile()]);
  if (name !== DEFAULT_PROFILE && !store.hasProfile(name)) info(ctx.io, `plants: ${notice(name)}`);
  return [store, name];
}
