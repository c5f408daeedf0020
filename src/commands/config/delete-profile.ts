import { Argument, Command } from 'commander';
import { completeWith } from '../../completion/hints.js';
import type { Context } from '../../context.js';
import { success } from '../../output/messages.js';
import { removeKeyringEntry } from '../keyring-entry.js';
import { examples } from '../options.js';
import { existingProfile } from './shared.js';

interface DeleteProfileOptions {
  /** As given: whether it exists is known only once the config file is read. */
  name: string;
}

type DeleteProfileRunner = (options: DeleteProfileOptions, ctx: Context) => Promise<void>;

export function deleteProfileCommand(ctx: Context, run: DeleteProfileRunner = runDeleteProfile): Command {
  return new Command('delete-profile')
    .description('Remove a profile and its settings, token included')
    .addArgument(completeWith(new Argument('<name>', 'an existing profile'), 'profiles'))
    .addHelpText('after', examples('plants config delete-profile staging'))
    .action(async (name: string) => {
      await run({ name }, ctx);
    });
}

async function runDeleteProfile(options: DeleteProfileOptions, ctx: Context): Promise<void> {
  const store = await ctx.config();
  const name = existingProfile(store, options.name);
  const wasCurrent = store.currentProfile === name;
  // Its token goes with it, from the keyring too: no secret is left behind under a name nothing reads.
  await removeKeyringEntry(store.storedToken(name), name, store.path, ctx);
  store.deleteProfile(name);
  // default always exists: deleting it empties it, and it stays the one in use.
  const after =
    name === 'default'
      ? ': its base URL, token, max-deletes and protections are gone (default stays, empty)'
      : wasCurrent
        ? '; using profile default'
        : '';
  success(ctx.io, `Deleted profile ${name}${after}`);
}
