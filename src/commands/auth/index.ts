import { Command } from 'commander';
import type { Context } from '../../context.js';
import { loginCommand } from './login.js';
import { logoutCommand } from './logout.js';
import { statusCommand } from './status.js';

export function authCommand(ctx: Context): Command {
  return new Command('auth')
    .description('Store, remove and check the token')
    .addCommand(loginCommand(ctx))
    .addCommand(logoutCommand(ctx))
    .addCommand(statusCommand(ctx));
}
