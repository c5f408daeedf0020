import { Command } from 'commander';
import { DEFAULT_PROFILE } from '../../config/profile-names.js';
import type { StoredToken } from '../../config/profile-settings.js';
import { boundOrigin, originOf } from '../../config/token-origin.js';
import type { Context } from '../../context.js';
import { success, warning } from '../../output/messages.js';
import { lookUpKnownTokens } from '../known-tokens.js';
import { examples } from '../options.js';
import { profileToWrite } from '../profile-store.js';
import { keyArgument, parseConfigValue, shownValue, type ConfigKey } from './shared.js';

export interface SetOptions {
  key: ConfigKey;
  /** Already checked and normalised (parseConfigValue). */
  value: string;
}

type SetRunner = (options: SetOptions, ctx: Context) => Promise<void>;

export function setCommand(ctx: Context, run: SetRunner = runSet): Command {
  return new Command('set')
    .description('Store a value in the selected profile (keys: base-url, max-deletes)')
    .addArgument(keyArgument('the key to set'))
    .argument(
      '<value>',
      'base-url: an absolute http(s) URL; max-deletes: the default --max-deletes of delete and prune, n plants or n%',
    )
    .addHelpText(
      'after',
      examples(
        'plants config set base-url https://plants.example.com/api',
        'plants config set max-deletes 50',
        'plants --profile prod config set max-deletes 10%',
      ),
    )
    .action(async (key: ConfigKey, value: string) => {
      await run({ key, value: parseConfigValue(key, value) }, ctx);
    });
}

async function runSet(options: SetOptions, ctx: Context): Promise<void> {
  const [store, profile] = await profileToWrite(ctx);
  const token = store.storedToken(profile);
  store.set(profile, options.key, options.value);
  await lookUpKnownTokens(ctx);
  const shown = shownValue(options.key, options.value);
  success(ctx.io, `Set ${options.key} of profile ${profile} to ${shown}`);
  // As auth login says of PLANTS_TOKEN: what was stored is not what runs will use.
  if (options.key === 'base-url' && ctx.env.PLANTS_BASE_URL?.trim()) {
    warning(ctx.io, 'PLANTS_BASE_URL is set in the environment and takes precedence over the stored base-url');
  }
  if (options.key === 'base-url' && token) warnOtherOrigin(token, profile, options.value, ctx);
}

/** The profile's token stays bound to its origin: a base URL elsewhere gets no token until a new login. */
function warnOtherOrigin(token: StoredToken, profile: string, baseUrl: string, ctx: Context): void {
  const bound = boundOrigin(token);
  const origin = originOf(baseUrl);
  if (bound === origin) return;
  const login = `run 'plants ${profile === DEFAULT_PROFILE ? '' : `--profile ${profile} `}auth login' to store one for ${origin}`;
  warning(
    ctx.io,
    bound === undefined
      ? `the token of profile ${profile} is bound to no origin and never sent; ${login}`
      : `the token of profile ${profile} is for ${bound}, and is not sent to ${origin}; ${login}`,
  );
}
