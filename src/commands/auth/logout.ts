import { Command } from 'commander';
import type { Context } from '../../context.js';
import { info, success, warning } from '../../output/messages.js';

export function logoutCommand(ctx: Context): Command {
  return new Command('logout')
    .description('Remove the stored token from the config file')
    .action(async () => {
      const { io } = ctx;
      const store = await ctx.config();
      if (store.get('token') === undefined) {
        info(io, `No token is stored in ${store.path}`);
      } else {
        store.delete('token');
        await success(io, `Removed the token from ${store.path}`);
      }
      if (ctx.env.PLANTS_TOKEN) {
        await warning(io, 'PLANTS_TOKEN is still set in the environment and will be used');
      }
    });
}
