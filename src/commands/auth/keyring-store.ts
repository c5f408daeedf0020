import { keyringAccount, KeyringFailure, keyringRequired, KeyringUnavailable } from '../../config/keyring.js';
import type { ConfigStore, StoredToken } from '../../config/store.js';
import type { Context } from '../../context.js';
import { warning } from '../../output/messages.js';
import { AuthError } from '../../shared/errors.js';

/**
 * Keep the token in the OS keyring, or in the config file when asked
 * (--insecure-storage) or when no keyring can be used, which is said in one
 * line with the reason (PLANTS_KEYRING=on: refused instead). Either way it
 * is bound to `origin`. Returns what the config file records, and where it went.
 */
export async function keepToken(
  token: string,
  origin: string,
  options: { insecureStorage: boolean },
  store: ConfigStore,
  profile: string,
  ctx: Context,
): Promise<[StoredToken, string]> {
  const inFile: [StoredToken, string] = [{ store: 'file', token, origin }, `in ${store.path}, for ${origin}`];
  if (options.insecureStorage) return inFile;
  try {
    const keyring = await ctx.tokenReaders.keyring();
    await keyring.set(keyringAccount(profile, origin), token);
    return [{ store: 'keyring', origin }, `in the OS keyring (${keyring.name}), for ${origin}`];
  } catch (err) {
    if (err instanceof KeyringFailure) {
      // There is a keyring, and it said no: the token does not quietly go to the file instead.
      throw new AuthError(
        `the OS keyring did not keep the token: ${err.message}; nothing was stored; unlock it and try again, or pass --insecure-storage to keep the token in the config file`,
      );
    }
    if (!(err instanceof KeyringUnavailable)) throw err;
    if (keyringRequired(ctx.env)) throw keyringOnlyRefusal(err);
    // PLANTS_KEYRING=off is the user's own choice: nothing to say.
    if (!err.turnedOff) {
      warning(
        ctx.io,
        `no OS keyring can be used (${err.message}); the token is kept in the config file ${store.path} (mode 0600) instead`,
      );
    }
    return inFile;
  }
}

/** PLANTS_KEYRING=on, and no keyring to keep the token in. */
function keyringOnlyRefusal(err: KeyringUnavailable): AuthError {
  return new AuthError(
    `PLANTS_KEYRING=on keeps the token in the OS keyring or nowhere, and no OS keyring can be used (${err.message}); nothing was stored; ` +
      'make the keyring reachable, or unset PLANTS_KEYRING to keep the token in the config file',
  );
}

/**
 * With PLANTS_KEYRING=on, refuse before the token is asked for when no
 * keyring can be used (a look-up of the entry it would write says so). A
 * keyring that is there but fails the look-up (locked) is left to the write,
 * which may unlock it.
 */
export async function keyringReachable(profile: string, origin: string, ctx: Context): Promise<void> {
  try {
    await (await ctx.tokenReaders.keyring()).get(keyringAccount(profile, origin));
  } catch (err) {
    if (err instanceof KeyringUnavailable) throw keyringOnlyRefusal(err);
    if (!(err instanceof KeyringFailure)) throw err;
  }
}

/** A token moved out of the keyring (or to another origin) leaves no entry behind. */
export async function forgetKeyringEntry(
  previous: StoredToken | undefined,
  kept: StoredToken,
  profile: string,
  ctx: Context,
): Promise<void> {
  if (previous?.store !== 'keyring') return;
  if (kept.store === 'keyring' && kept.origin === previous.origin) return;
  const account = keyringAccount(profile, previous.origin);
  try {
    await (await ctx.tokenReaders.keyring()).delete(account);
  } catch (err) {
    warning(
      ctx.io,
      `could not remove the old token from the OS keyring (${(err as Error).message}); remove the entry of service plants, account "${account}" by hand`,
    );
  }
}
