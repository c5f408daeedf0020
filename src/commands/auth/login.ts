import type { Readable } from 'node:stream';
import { Command } from 'commander';
import { keyringRequired } from '../../config/keyring.js';
import { forgetKeyringEntry, keepToken, keyringReachable } from './login-keyring.js';
import { checkToken, lookupBaseUrl, resolveBaseUrl, shownCommand, type ResolvedToken } from '../../config/settings.js';
import { DEFAULT_PROFILE, profileFlag } from '../../config/profile-names.js';
import type { StoredToken } from '../../config/profile-settings.js';
import { originOf } from '../../config/token-origin.js';
import type { Context } from '../../context.js';
import { AuthError, CliError, ConfigError, UsageError } from '../../shared/errors.js';
import { success, warning } from '../../output/messages.js';
import { readText, TooLargeError } from '../../shared/read-text.js';
import { maskSecrets, registerSecret } from '../../secrets/registry.js';
import { profileToWrite } from '../profile-store.js';
import { examples } from '../options.js';

export interface LoginOptions {
  withToken: boolean;
  /** Keep this command, which prints the token, instead of a token. */
  tokenCommand?: string;
  /** Keep the token in the config file, not the OS keyring. */
  insecureStorage: boolean;
  /** Keep the token without asking the service whether it accepts it. */
  verify: boolean;
}

type LoginRunner = (options: LoginOptions, ctx: Context) => Promise<void>;

export function loginCommand(ctx: Context, run: LoginRunner = runLogin): Command {
  return new Command('login')
    .description(
      'Store a token for the selected profile (asked for with hidden input), in the OS keyring where there is one, after checking it with the service',
    )
    .option('--with-token', 'read the token from standard input (for CI)')
    .option(
      '--token-command <command>',
      'store this command instead of a token: each run that needs the token runs it (through your shell) and uses what it prints',
    )
    .option('--insecure-storage', 'keep the token in the config file (mode 0600), not in the OS keyring')
    .option('--no-verify', 'store the token without checking it with the service (GET /plants?limit=1)')
    .addHelpText(
      'after',
      examples(
        'plants auth login',
        'plants --profile staging auth login',
        'printenv PLANTS_CI_TOKEN | plants auth login --with-token',
        "plants auth login --token-command 'op read op://ops/plants/token'",
        "plants auth login --token-command 'secret-tool lookup service plants-api'",
        'plants auth login --insecure-storage',
      ),
    )
    .action(
      async (opts: { withToken?: boolean; tokenCommand?: string; insecureStorage?: boolean; verify: boolean }) => {
        if (opts.tokenCommand !== undefined) {
          if (opts.tokenCommand.trim() === '') throw new UsageError('invalid --token-command: it must not be empty');
          if (opts.withToken) throw new UsageError('--token-command and --with-token cannot be used together');
          if (opts.insecureStorage) {
            throw new UsageError(
              '--token-command keeps no token, in the config file or elsewhere: leave out --insecure-storage',
            );
          }
        }
        await run(
          {
            withToken: opts.withToken === true,
            tokenCommand: opts.tokenCommand?.trim(),
            insecureStorage: opts.insecureStorage === true,
            verify: opts.verify,
          },
          ctx,
        );
      },
    );
}

async function runLogin(options: LoginOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  checkInput(options, ctx);
  // Before the token is asked for: PLANTS_KEYRING=false is refused, not taken to mean the keyring.
  const keyringOnly = keyringRequired(ctx.env);
  if (options.insecureStorage && keyringOnly) {
    throw new UsageError(
      '--insecure-storage keeps the token in the config file, and PLANTS_KEYRING=on allows the OS keyring only: leave out one of them',
    );
  }
  // The base URL before the token is asked for: the token is checked against it, and bound to its origin.
  const baseUrl = await loginBaseUrl(ctx);
  // Said before the token is asked for, so a mistyped name shows at once; a login that then fails creates nothing.
  const [store, profile] = await profileToWrite(
    ctx,
    (name) => `profile ${name} is new: it is created once the token is stored`,
  );
  // The keyring or nothing: found out before the token is asked for.
  if (keyringOnly && options.tokenCommand === undefined) await keyringReachable(profile, baseUrl.origin, ctx);
  const token = await newToken(options, profile, ctx);
  if (options.verify) await verify(token, baseUrl, ctx);

  const origin = baseUrl.origin;
  let kept: StoredToken;
  let where: string;
  if (options.tokenCommand !== undefined) {
    kept = { store: 'command', command: options.tokenCommand, origin };
    where = `as a token command (${shownCommand(options.tokenCommand)}), for ${origin}`;
  } else {
    [kept, where] = await keepToken(token.value, origin, options.insecureStorage, store, profile, ctx);
  }
  // Where the token was kept as the write found the file: another login may have stored one while this one waited.
  const previous = store.setToken(profile, kept);
  await forgetKeyringEntry(previous, kept, profile, ctx);
  success(io, `Token stored for profile ${profile} ${where}`);
  // Logged in with --base-url or PLANTS_BASE_URL elsewhere: the profile's own base URL gets no token now.
  const own = originOf(store.get(profile, 'base-url'));
  if (own !== undefined && own !== origin) {
    warning(
      io,
      `the base URL of profile ${profile} is on ${own}, which this token is not sent to; set it with 'plants ${profileFlag(profile)}config set base-url <url>'`,
    );
  }
  if (ctx.env.PLANTS_TOKEN) {
    warning(io, 'PLANTS_TOKEN is set in the environment and takes precedence over the stored token');
  }
}

/**
 * The base URL in effect: the token is checked against it, and bound to its
 * origin, whatever the store (even with --no-verify): it is sent nowhere else.
 */
async function loginBaseUrl(ctx: Context): Promise<URL> {
  // The profile need not exist yet: login creates it.
  const profileName = async () => (await ctx.profile()).value;
  const found = await lookupBaseUrl(ctx.flags.baseUrl, ctx.env, ctx.config, profileName);
  if (found === undefined) {
    const profile = await profileName();
    throw new ConfigError(
      `no base URL configured${profile === DEFAULT_PROFILE ? '' : ` for profile ${profile}`}: a token is stored for the origin of one base URL, and sent only there; ` +
        `run 'plants ${profileFlag(profile)}config set base-url <url>' first, ` +
        'set PLANTS_BASE_URL, or pass --base-url',
    );
  }
  return (await resolveBaseUrl(ctx.flags.baseUrl, ctx.env, ctx.config, profileName)).value;
}

/** Whether the token can be read the way asked, before anything else is looked at. */
function checkInput(options: LoginOptions, ctx: Context): void {
  if (options.tokenCommand !== undefined) return;
  if (options.withToken && ctx.io.canPrompt()) {
    // Typed at a terminal, the token would be echoed; the hidden prompt is for that.
    throw new UsageError(
      "--with-token reads the token from a pipe (printenv PLANTS_CI_TOKEN | plants auth login --with-token); at a terminal, run 'plants auth login' without it",
    );
  }
  if (!options.withToken && !ctx.io.canPrompt()) {
    throw new UsageError(
      'stdin is not a terminal; pass --with-token to read the token from it (e.g. printenv PLANTS_CI_TOKEN | plants auth login --with-token)',
    );
  }
}

/** The token to keep (or, for --token-command, what the command prints now). */
async function newToken(options: LoginOptions, profile: string, ctx: Context): Promise<ResolvedToken> {
  const { io } = ctx;
  if (options.tokenCommand !== undefined) {
    const what = `the token command (${shownCommand(options.tokenCommand)})`;
    const value = await ctx.tokenReaders.command(options.tokenCommand, what);
    checkToken(value, what, 'nothing was stored; make it print the token alone');
    return {
      value,
      source: what,
      profile,
      store: 'command',
      storeLabel: `command (${shownCommand(options.tokenCommand)})`,
    };
  }
  const value = options.withToken
    ? (await readStdin(io.stdin)).trim()
    : (await ctx.prompter.secret('Paste your token: ')).trim();
  if (value === '') throw new UsageError('no token was given; nothing was stored');
  registerSecret(value);
  const source = options.withToken ? 'standard input' : 'the prompt';
  checkToken(value, source, 'nothing was stored');
  return { value, source, profile, store: 'file', storeLabel: 'file' };
}

/**
 * Ask the service whether it takes the token (GET /plants?limit=1), as gh
 * does: a refusal (401, 403) stores nothing (exit 4); a service that cannot
 * be asked (down, unreachable, answering oddly) is said in one line, and the
 * token is stored anyway.
 */
async function verify(token: ResolvedToken, baseUrl: URL, ctx: Context): Promise<void> {
  const check = ctx.withToken(token, baseUrl);
  try {
    await (await check.client()).listPlants({ limit: 1 });
  } catch (err) {
    if (err instanceof CliError && (err.status === 401 || err.status === 403)) {
      throw new AuthError(
        `the service refused this token (${err.status} ${err.status === 401 ? 'Unauthorized' : 'Forbidden'}); nothing was stored; ` +
          'check the token, or pass --no-verify to store it anyway',
        err.status,
      );
    }
    warning(
      ctx.io,
      `could not check the token with the service: ${maskSecrets((err as Error).message)}; storing it anyway`,
    );
  } finally {
    await check.close();
  }
}

/** No token is this large; `yes | plants auth login --with-token` must not fill memory. */
const MAX_TOKEN_INPUT = 64 * 1024;

async function readStdin(stdin: Readable): Promise<string> {
  try {
    return await readText(stdin, MAX_TOKEN_INPUT);
  } catch (err) {
    if (err instanceof TooLargeError) {
      throw new UsageError(`the input is ${err.message}, too large for a token; nothing was stored`);
    }
    throw err;
  }
}
