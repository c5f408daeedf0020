import { Command } from 'commander';
import { keyringAccount } from '../../config/keyring.js';
import type { Context } from '../../context.js';
import { AuthError } from '../../errors.js';
import { info, success, warning } from '../../output/messages.js';
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
    let from = store.path;
    if (stored.store === 'keyring') {
      const account = keyringAccount(profile, stored.origin);
      try {
        const keyring = await ctx.tokenReaders.keyring();
        await keyring.delete(account);
        from = `the OS keyring (${keyring.name})`;
      } catch (err) {
        // The record stays, so that logging out again, once the keyring can be reached, finds the entry.
        throw new AuthError(
          `cannot remove the token of profile ${profile} from the OS keyring: ${(err as Error).message}; nothing was changed`,
        );
      }
    }
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
