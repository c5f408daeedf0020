import { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../options.js';
import { deleteProfileCommand } from './delete-profile.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';
import { pathCommand } from './path.js';
import { profilesCommand } from './profiles.js';
import { protectCommand, unprotectCommand } from './protect.js';
import { setCommand } from './set.js';
import { unsetCommand } from './unset.js';
import { useCommand } from './use.js';

export function configCommand(ctx: Context): Command {
  return new Command('config')
    .description('Show and change the stored configuration of the selected profile')
    .addHelpText(
      'after',
      examples(
        'plants config set base-url https://plants.example.com/api',
        'plants --profile staging config set base-url https://staging.example.com/api',
        'plants config profiles',
        'plants config use staging',
        'plants config set max-deletes 50',
        'plants config protect --tag mother-plant',
        'plants config path',
      ),
    )
    .addCommand(setCommand(ctx))
    .addCommand(getCommand(ctx))
    .addCommand(unsetCommand(ctx))
    .addCommand(listCommand(ctx))
    .addCommand(protectCommand(ctx))
    .addCommand(unprotectCommand(ctx))
    .addCommand(profilesCommand(ctx))
    .addCommand(useCommand(ctx))
    .addCommand(deleteProfileCommand(ctx))
    .addCommand(pathCommand(ctx));
}
