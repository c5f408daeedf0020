import type { Context } from '../context.js';
import { profileGuard, type ListPlants, type ProfileGuard } from '../deletion/guard.js';
import { openDeletionJournal, type JournalOpening } from '../deletion/journal/choice.js';
import type { DeletionJournal } from '../deletion/journal/journal.js';
import { info, warning } from '../output/messages.js';
import { maskSecrets } from '../secrets/registry.js';
import { printable } from '../shared/text.js';

// What deletion/ needs from a run, gathered through ctx: delete, prune and `plants api -X DELETE` share it.

/** The selected profile's cap and protections (deletion/guard.ts), read through the context. */
export function profileGuardOf(ctx: Context): Promise<ProfileGuard> {
  return profileGuard(ctx.env, async () => {
    const [store, profile] = await Promise.all([ctx.config(), ctx.profile()]);
    return { store, profile: profile.value };
  });
}

/** The service's list, batch by batch, as a deletion reads it. */
export function plantListerOf(ctx: Context): ListPlants {
  return async function* listPlants() {
    yield* (await ctx.client()).streamPlants({ forDeletion: true });
  };
}

/** Open the run's journal (deletion/journal/choice.ts) with the profile and base URL in effect; warnings to stderr. */
export async function openJournalOf(
  ctx: Context,
  opening: Omit<JournalOpening, 'env' | 'where' | 'warn' | 'info'>,
): Promise<DeletionJournal | undefined> {
  return openDeletionJournal({
    ...opening,
    env: ctx.env,
    where: async () => {
      // The token is looked up first (the client has it already): registered, it is masked in the base URL.
      const [profile, baseUrl] = await Promise.all([ctx.profile(), ctx.baseUrl(), ctx.token()]);
      return { profile: profile.value, baseUrl: baseUrl.value };
    },
    warn: (text) => warning(ctx.io, text),
    info: (text) => info(ctx.io, text),
  });
}

/**
 * Where a run deletes, as a person checks it before saying yes: the base
 * URL's host and path prefix, and the profile (`plants.example.com/api
 * (profile staging)`), the token masked should the URL hold it.
 */
export async function deletionPlace(ctx: Context): Promise<string> {
  const [client, profile] = await Promise.all([ctx.client(), ctx.profile()]);
  const { host, pathname } = client.baseUrl;
  return printable(maskSecrets(`${host}${pathname.replace(/\/+$/, '')} (profile ${profile.value})`));
}
