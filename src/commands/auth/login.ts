import type { Readable } from 'node:stream';
import { Command } from 'commander';
import { checkToken } from '../../config/settings.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { success, warning } from '../../output/messages.js';
import { readText, TooLargeError } from '../../read-text.js';
import { profileToWrite } from '../config/shared.js';
import { examples } from '../options.js';

interface LoginOptions {
  withToken: boolean;
}

type LoginRunner = (options: LoginOptions, ctx: Context) => Promise<void>;

export function loginCommand(ctx: Context, run: LoginRunner = runLogin): Command {
  return new Command('login')
    .description('Store a token for the selected profile (asked for with hidden input)')
    .option('--with-token', 'read the token from standard input (for CI)')
    .addHelpText(
      'after',
      examples(
        'plants auth login',
        'plants --profile staging auth login',
        'printenv PLANTS_CI_TOKEN | plants auth login --with-token',
      ),
    )
    .action(async (opts: { withToken?: boolean }) => {
      await run({ withToken: opts.withToken === true }, ctx);
    });
}

async function runLogin(options: LoginOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  let token: string;
  if (options.withToken) {
    if (io.canPrompt()) {
      // Typed at a terminal, the token would be echoed; the hidden prompt is for that.
      throw new UsageError(
        "--with-token reads the token from a pipe (printenv PLANTS_CI_TOKEN | plants auth login --with-token); at a terminal, run 'plants auth login' without it",
      );
    }
    token = (await readStdin(io.stdin)).trim();
  } else if (io.canPrompt()) {
    token = (await ctx.prompter.secret('Paste your token: ')).trim();
  } else {
    throw new UsageError(
      'stdin is not a terminal; pass --with-token to read the token from it (e.g. printenv PLANTS_CI_TOKEN | plants auth login --with-token)',
    );
  }
  if (token === '') throw new UsageError('no token was given; nothing was stored');
  checkToken(token, options.withToken ? 'standard input' : 'the prompt', 'nothing was stored');

  const [store, profile] = await profileToWrite(ctx);
  store.set(profile, 'token', token);
  success(io, `Token stored for profile ${profile} in ${store.path}`);
  if (ctx.env.PLANTS_TOKEN) {
    warning(io, 'PLANTS_TOKEN is set in the environment and takes precedence over the stored token');
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
