import { keyringAccount } from '../config/keyring.js';
import type { StoredToken } from '../config/profile-settings.js';
import type { Context } from '../context.js';
import { AuthError, ConfigError } from '../shared/errors.js';

/**
 * Before a profile forgets its token (auth logout, config delete-profile):
 * take it out of the OS keyring if it is kept there, so no secret is left
 * behind under a name nothing reads any more. When the keyring cannot be
 * reached, an AuthError (exit 4): the caller changes nothing, so that the
 * same command, once the keyring answers, finds the entry. Returns where
 * the token was, for the message.
 */
export async function removeKeyringEntry(
  stored: StoredToken | undefined,
  profile: string,
  configPath: string,
  ctx: Context,
): Promise<string | undefined> {
  if (stored?.store !== 'keyring') return undefined;
  const account = keyringAccount(profile, stored.origin);
  try {
    const keyring = await ctx.tokenReaders.keyring();
    const removed = await keyring.delete(account);
    return removed ? `the OS keyring (${keyring.name})` : `${configPath} (the OS keyring had no entry for it any more)`;
  } catch (err) {
    // A PLANTS_KEYRING that says neither on nor off: the user's setting to fix, not a keyring out of reach.
    if (err instanceof ConfigError) throw err;
    throw new AuthError(
      `cannot remove the token of profile ${profile} from the OS keyring: ${(err as Error).message}; nothing was changed; ` +
        `run this again where the keyring can be reached (without PLANTS_KEYRING=off), or remove "token-keyring" ` +
        `of profile ${profile} from ${configPath} and the keyring entry of service plants, account "${account}", by hand`,
    );
  }
}
