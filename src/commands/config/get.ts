import { Command } from 'commander';
import type { Context } from '../../context.js';
import { NotSetError } from '../../shared/errors.js';
import { formatJson } from '../../output/formats.js';
import { writeOut } from '../../output/iostreams.js';
import { maskedUrl } from '../../secrets/registry.js';
import { lookUpKnownTokens } from '../known-tokens.js';
import { examples } from '../options.js';
import { selectedProfile } from '../profile-store.js';
import { keyArgument, shownValue, type ConfigKey } from './shared.js';

export interface GetOptions {
  key: ConfigKey;
  json: boolean;
}

type GetRunner = (options: GetOptions, ctx: Context) => Promise<void>;

export function getCommand(ctx: Context, run: GetRunner = runGet): Command {
  return new Command('get')
    .description('Print a value of the selected profile (exit 1 when it is not set)')
    .addArgument(keyArgument('the key to print'))
    .addHelpText(
      'after',
      examples(
        'plants config get base-url',
        'plants --profile staging config get base-url',
        'plants config get max-deletes',
        'plants config get base-url --json',
      ),
    )
    .option('--json', 'print it as JSON: {"profile", "key", "value"}')
    .action(async (key: ConfigKey, flags: { json?: boolean }) => {
      await run({ key, json: flags.json === true }, ctx);
    });
}

async function runGet(options: GetOptions, ctx: Context): Promise<void> {
  const [store, profile] = await selectedProfile(ctx);
  const value = store.get(profile, options.key);
  if (value === undefined) throw new NotSetError(`${options.key} is not set for profile ${profile}`);
  await lookUpKnownTokens(ctx);
  if (options.json) {
    const shown = options.key === 'base-url' ? maskedUrl(value) : value;
    await writeOut(ctx.io.stdout, formatJson({ profile, key: options.key, value: shown }, ctx.io.stdoutIsTTY));
    return;
  }
  // Masking leaves any base URL plants can use as it is, but for a token in it: scripts still read back what they stored.
  ctx.io.stdout.write(`${shownValue(options.key, value)}\n`);
}
