import { join } from 'node:path';
import { Argument, Command } from 'commander';
import { completeWith } from '../completion/hints.js';
import { formatBaseUrl, maskUrl, parseBaseUrl } from '../shared/url.js';
import { configDir, parseProfileName, type ConfigStore } from '../config/store.js';
import type { Context } from '../context.js';
import { ExitCode, ExitStatus, UsageError } from '../errors.js';
import { failure, success } from '../output/messages.js';
import { printable } from '../shared/text.js';
import { examples } from './options.js';

/** Keys `config set/get/unset` accept. The token has its own commands (`auth`). */
export const CONFIG_KEYS = ['base-url'] as const;
type Key = (typeof CONFIG_KEYS)[number];

function parseKey(raw: string): Key {
  if (raw === 'token') {
    throw new UsageError(
      "the token is not a config key: store it with 'plants auth login', remove it with 'plants auth logout', check it with 'plants auth status'",
    );
  }
  if (!(CONFIG_KEYS as readonly string[]).includes(raw)) {
    throw new UsageError(`unknown config key ${JSON.stringify(raw)}; known keys: ${CONFIG_KEYS.join(', ')}`);
  }
  return raw as Key;
}

/** `<key>`: completion offers the keys; parseKey explains a wrong one (and the token). */
function keyArgument(description: string): Argument {
  return new Argument('<key>', description).choices(CONFIG_KEYS).argParser(parseKey);
}

/**
 * A stored base URL as shown. `config set` stores only valid ones, which
 * this leaves as they are; but the file may have been edited: credentials,
 * query and fragment values are masked, and what would act on a terminal
 * escaped (every command refuses such a value anyway).
 */
export function shownUrl(value: string): string {
  return printable(maskUrl(value));
}

function shownOr(value: string | undefined, unset: string): string {
  return value === undefined ? unset : shownUrl(value);
}

function existingProfile(store: ConfigStore, raw: string): string {
  const name = parseProfileName(raw, 'the argument');
  if (!store.hasProfile(name)) {
    const known = store.profileNames();
    throw new UsageError(
      `no profile named ${name}${known.length ? ` (profiles: ${known.join(', ')})` : ''}; create one with 'plants --profile ${name} config set base-url <url>'`,
    );
  }
  return name;
}

export function configCommand(ctx: Context): Command {
  const config = new Command('config')
    .description('Show and change the stored configuration of the selected profile')
    .addHelpText(
      'after',
      examples(
        'plants config set base-url https://plants.example.com/api',
        'plants --profile staging config set base-url https://staging.example.com/api',
        'plants config profiles',
        'plants config use staging',
        'plants config path',
      ),
    );
  const selected = async () => Promise.all([ctx.config(), ctx.profile().then((p) => p.value)]);

  config
    .command('set')
    .description('Store a value in the selected profile (keys: base-url)')
    .addArgument(keyArgument('the key to set'))
    .argument('<value>', 'the value; base-url must be an absolute http(s) URL')
    .addHelpText('after', examples('plants config set base-url https://plants.example.com/api'))
    .action(async (key: Key, value: string) => {
      const url = formatBaseUrl(parseBaseUrl(value));
      const [store, profile] = await selected();
      store.set(profile, key, url);
      await success(ctx.io, `Set ${key} of profile ${profile} to ${url}`);
    });

  config
    .command('get')
    .description('Print a value of the selected profile (exit 1 when it is not set)')
    .addArgument(keyArgument('the key to print'))
    .addHelpText('after', examples('plants config get base-url', 'plants --profile staging config get base-url'))
    .action(async (key: Key) => {
      const [store, profile] = await selected();
      const value = store.get(profile, key);
      if (value === undefined) {
        await failure(ctx.io, `${key} is not set for profile ${profile}`);
        throw new ExitStatus(ExitCode.failure, 'config', `${key} is not set for profile ${profile}`);
      }
      // Masking leaves any base URL plants can use as it is: scripts still read back what they stored.
      ctx.io.stdout.write(`${shownUrl(value)}\n`);
    });

  config
    .command('unset')
    .description('Remove a value from the selected profile')
    .addArgument(keyArgument('the key to remove'))
    .addHelpText('after', examples('plants config unset base-url'))
    .action(async (key: Key) => {
      const [store, profile] = await selected();
      store.delete(profile, key);
      await success(ctx.io, `Unset ${key} of profile ${profile}`);
    });

  config
    .command('list')
    .description('Print the stored settings of the selected profile (the token only as set or not set)')
    .addHelpText('after', examples('plants config list', 'plants --profile staging config list'))
    .action(async () => {
      const [store, profile] = await selected();
      const lines = [
        `profile=${profile}`,
        `base-url=${shownOr(store.get(profile, 'base-url'), '(not set)')}`,
        `token=${store.get(profile, 'token') === undefined ? '(not set)' : '(set)'}`,
      ];
      ctx.io.stdout.write(`${lines.join('\n')}\n`);
    });

  config
    .command('profiles')
    .description('List the profiles; * marks the one in use (tokens only as set or not set)')
    .addHelpText('after', examples('plants config profiles'))
    .action(async () => {
      const [store, profile] = await selected();
      const names = [...new Set([...store.profileNames(), profile])].sort();
      const width = Math.max(...names.map((name) => name.length));
      const lines = names.map((name) => {
        const url = shownOr(store.get(name, 'base-url'), '(no base-url)');
        const token = store.get(name, 'token') === undefined ? 'no token' : 'token set';
        return `${name === profile ? '*' : ' '} ${name.padEnd(width)}  ${url}  ${token}`;
      });
      ctx.io.stdout.write(`${lines.join('\n')}\n`);
    });

  config
    .command('use')
    .description('Make a profile the one used when none is selected')
    .addArgument(completeWith(new Argument('<name>', 'an existing profile'), 'profiles'))
    .addHelpText('after', examples('plants config use staging', 'plants config use default'))
    .action(async (raw: string) => {
      const store = await ctx.config();
      const name = raw === 'default' ? raw : existingProfile(store, raw);
      store.use(name);
      await success(ctx.io, `Using profile ${name}`);
    });

  config
    .command('delete-profile')
    .description("Remove a profile and its settings, token included")
    .addArgument(completeWith(new Argument('<name>', 'an existing profile'), 'profiles'))
    .addHelpText('after', examples('plants config delete-profile staging'))
    .action(async (raw: string) => {
      const store = await ctx.config();
      const name = existingProfile(store, raw);
      const wasCurrent = store.currentProfile === name;
      store.deleteProfile(name);
      await success(ctx.io, `Deleted profile ${name}${wasCurrent ? '; using profile default' : ''}`);
    });

  config
    .command('path')
    .description('Print the path of the config file')
    .addHelpText('after', examples('plants config path', 'ls -l "$(plants config path)"'))
    .action(() => {
      ctx.io.stdout.write(`${join(configDir(ctx.env), 'config.json')}\n`);
    });

  return config;
}
