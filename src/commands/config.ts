import { join } from 'node:path';
import { Command } from 'commander';
import { formatBaseUrl, parseBaseUrl } from '../api/url.js';
import { configDir } from '../config/store.js';
import type { Context } from '../context.js';
import { ExitCode, ExitStatus, UsageError } from '../errors.js';
import { failure, success } from '../output/messages.js';
import { examples } from './options.js';

/** Keys `config set/get/unset` accept. The token has its own commands (`auth`). */
const KEYS = ['base-url'] as const;
type Key = (typeof KEYS)[number];

function parseKey(raw: string): Key {
  if (raw === 'token') {
    throw new UsageError(
      "the token is not a config key: store it with 'plants auth login', remove it with 'plants auth logout', check it with 'plants auth status'",
    );
  }
  if (!(KEYS as readonly string[]).includes(raw)) {
    throw new UsageError(`unknown config key ${JSON.stringify(raw)}; known keys: ${KEYS.join(', ')}`);
  }
  return raw as Key;
}

export function configCommand(ctx: Context): Command {
  const config = new Command('config')
    .description('Show and change the stored configuration')
    .addHelpText(
      'after',
      examples(
        'plants config set base-url https://plants.example.com/api',
        'plants config get base-url',
        'plants config list',
        'plants config path',
      ),
    );

  config
    .command('set')
    .description('Store a value (keys: base-url)')
    .argument('<key>', 'the key to set', parseKey)
    .argument('<value>', 'the value; base-url must be an absolute http(s) URL')
    .action(async (key: Key, value: string) => {
      const url = formatBaseUrl(parseBaseUrl(value));
      const store = await ctx.config();
      store.set(key, url);
      await success(ctx.io, `Set ${key} to ${url}`);
    });

  config
    .command('get')
    .description('Print a stored value (exit 1 when it is not set)')
    .argument('<key>', 'the key to print', parseKey)
    .action(async (key: Key) => {
      const value = (await ctx.config()).get(key);
      if (value === undefined) {
        await failure(ctx.io, `${key} is not set`);
        throw new ExitStatus(ExitCode.failure, 'config', `${key} is not set`);
      }
      ctx.io.stdout.write(`${value}\n`);
    });

  config
    .command('unset')
    .description('Remove a stored value')
    .argument('<key>', 'the key to remove', parseKey)
    .action(async (key: Key) => {
      (await ctx.config()).delete(key);
      await success(ctx.io, `Unset ${key}`);
    });

  config
    .command('list')
    .description('Print every stored setting (the token only as set or not set)')
    .action(async () => {
      const store = await ctx.config();
      const lines = [
        `base-url=${store.get('base-url') ?? '(not set)'}`,
        `token=${store.get('token') === undefined ? '(not set)' : '(set)'}`,
      ];
      ctx.io.stdout.write(`${lines.join('\n')}\n`);
    });

  config
    .command('path')
    .description('Print the path of the config file')
    .action(() => {
      ctx.io.stdout.write(`${join(configDir(ctx.env), 'config.json')}\n`);
    });

  return config;
}
