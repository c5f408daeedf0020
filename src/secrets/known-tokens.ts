import { registerSecret } from './registry.js';

/** The config file's tokens, whichever profile holds each (a ConfigStore). */
export interface StoredTokens {
  profileNames(): readonly string[];
  get(profile: string, key: 'token'): string | undefined;
}

/**
 * Register the tokens a message may quote though this run has not looked
 * them up: PLANTS_TOKEN as set (and trimmed: a value refused for its
 * spaces is quoted as it was set), and every token stored in the config
 * file, whichever profile it belongs to (a base URL may hold a token as a
 * path segment, a journal record may come from any profile). Tokens kept
 * in a token command or the OS keyring are registered once a run reads
 * them, never here: a command may prompt, and a keyring must not be opened
 * for this.
 */
export function registerKnownTokens(variable: string | undefined, stored: StoredTokens | undefined): void {
  if (variable?.trim()) {
    registerSecret(variable);
    registerSecret(variable.trim());
  }
  for (const name of stored?.profileNames() ?? []) registerSecret(stored!.get(name, 'token'));
}
