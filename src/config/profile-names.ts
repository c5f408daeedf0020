import { ConfigError, UsageError } from '../shared/errors.js';

/** The profile used when none is selected; it always exists, stored or not. */
export const DEFAULT_PROFILE = 'default';

/** Profile names: letters, digits, dot, dash and underscore, up to 64 characters. */
export const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;
export const PROFILE_NAME_RULE = 'letters, digits, dot, dash or underscore, at most 64 characters';

/** A profile name as --profile, PLANTS_PROFILE and the config commands take it (PROFILE_NAME). */
export function parseProfileName(raw: string, source = '--profile'): string {
  if (!PROFILE_NAME.test(raw)) {
    throw new UsageError(`invalid profile name ${JSON.stringify(raw)} (${source}): use ${PROFILE_NAME_RULE}`);
  }
  return raw;
}

/** Where the name of the profile in use came from when `config use` chose it (see resolveProfile). */
export const CHOSEN_BY_USE = "'plants config use'";

/**
 * The one message for a profile name that names no profile: the profiles
 * there are, and how to create it. `source` is where the name came from
 * (--profile, PLANTS_PROFILE, CHOSEN_BY_USE), none for a command's
 * argument. A flag or an argument is a usage error, a variable or the
 * file's choice configuration; both exit 2.
 */
export function noSuchProfile(name: string, known: readonly string[], source?: string): UsageError | ConfigError {
  const list = known.length > 0 ? `profiles: ${known.join(', ')}` : 'there are no profiles yet';
  const back = source === CHOSEN_BY_USE ? ", or go back with 'plants config use default'" : '';
  const message =
    `no profile named ${name} (${source ? `from ${source}; ` : ''}${list}); ` +
    `create one with 'plants --profile ${name} config set base-url <url>'${back}`;
  return source === undefined || source === '--profile' ? new UsageError(message) : new ConfigError(message);
}

/** `--profile x ` for the commands a message suggests (`plants --profile x auth login`); nothing for the default. */
export function profileFlag(profile: string): string {
  return profile === DEFAULT_PROFILE ? '' : `--profile ${profile} `;
}
