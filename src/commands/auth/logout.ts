import { Command } from 'commander';
import type { Context } from '../../context.js';
import { info, success, warning } from '../../output/messages.js';
import { removeKeyringEntry } from '../keyring-entry.js';
import { examples } from '../options.js';

/** `auth logout` takes no flags: the profile is the selected one (--profile). */
type LogoutOptions = Record<string, never>;

type LogoutRunner = (options: LogoutOptions, ctx: Context) => Promise<void>;

export function logoutCommand(ctx: Context, run: LogoutRunner = runLogout): Command {
  return new Command('logout')
    .description("Remove the selected profile's token: from the OS keyring or the config file, or its token command")
    .addHelpText('after', examples('plants auth logout', 'plants --profile staging auth logout'))
    .action(async () => {
      await run({}, ctx);
    });
}

async function runLogout(_options: LogoutOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const [store, profile] = await Promise.all([ctx.config(), ctx.usedProfile()]);
  // A run killed while writing the file may have left a copy of it, token and all.
  const leftovers = store.removeAbandonedTemporaries();
  if (leftovers > 0) {
    const files = leftovers === 1 ? 'a temporary file' : `${leftovers} temporary files`;
    info(io, `Removed ${files} that an interrupted run left beside ${store.path}`);
  }
  const stored = store.storedToken(profile);
  if (stored === undefined) {
    info(io, `No token is stored for profile ${profile}`);
  } else {
    const from = (await removeKeyringEntry(stored, profile, store.path, ctx)) ?? store.path;
    store.setToken(profile, undefined);
    success(
      io,
      stored.store === 'command'
        ? `Removed the token command of profile ${profile} from ${store.path}`
        : `Removed the token of profile ${profile} from ${from}`,
    );
  }
  if (ctx.env.PLANTS_TOKEN) {
    warning(io, 'PLANTS_TOKEN is still set in the environment and will be used');
  }
}
