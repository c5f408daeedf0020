import { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../options.js';
import { loginCommand } from './login.js';
import { logoutCommand } from './logout.js';
import { statusCommand } from './status.js';

export function authCommand(ctx: Context): Command {
  return new Command('auth')
    .description('Store, remove and check the token of the selected profile')
    .addHelpText(
      'after',
      examples('plants auth login', 'printenv PLANTS_CI_TOKEN | plants auth login --with-token', 'plants auth status'),
    )
    .addCommand(loginCommand(ctx))
    .addCommand(logoutCommand(ctx))
    .addCommand(statusCommand(ctx));
}
