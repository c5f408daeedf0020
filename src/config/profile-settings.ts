import { NO_ORIGIN, originOf } from './token-origin.js';

/**
 * Plants a delete or prune of the profile refuses to touch (unless
 * --include-protected): by id (a whole number under any spelling), exact
 * tag, or a glob on the whole name.
 */
export interface Protections {
  ids: string[];
  tags: string[];
  names: string[];
}

export const PROTECTION_KINDS = ['ids', 'tags', 'names'] as const;

/** One profile's settings. */
export interface ProfileSettings {
  /** Base URL of the service, e.g. `https://plants.example.com/api`. Default: unset. */
  'base-url'?: string;
  /** Bearer token kept in this file, written only by `plants auth login`. Default: unset. */
  token?: string;
  /** The token is in the OS keyring, for this base URL origin (`auth login`). Default: unset. */
  'token-keyring'?: string;
  /** A command that prints the token (`auth login --token-command`). Default: unset. */
  'token-command'?: string;
  /** The origin `token` or `token-command` is for (`auth login`); `none`: for no origin, never sent. Default: unset. */
  'token-origin'?: string;
  /** The default cap on one run's deletes: `50` or `10%` (as --max-deletes). Default: unset, no cap. */
  'max-deletes'?: string;
  /** Written only by `plants config protect/unprotect`. Default: none. */
  protected?: Partial<Protections>;
}

/** The settings that are one string. */
export type ProfileKey = 'base-url' | 'token' | 'token-keyring' | 'token-command' | 'token-origin' | 'max-deletes';
export const STRING_KEYS: readonly ProfileKey[] = [
  'base-url',
  'token',
  'token-keyring',
  'token-command',
  'token-origin',
  'max-deletes',
];

/**
 * Where a profile's token is kept: one place at a time, and the origin it
 * is bound to (token-origin.ts); undefined: bound to none, never sent.
 */
export type StoredToken =
  | { store: 'file'; token: string; origin: string | undefined }
  | { store: 'keyring'; origin: string }
  | { store: 'command'; command: string; origin: string | undefined };

export const TOKEN_KEYS = ['token', 'token-keyring', 'token-command', 'token-origin'] as const;

/** The rules as stored, each list a fresh copy (the constructor checked their shape). */
export function copyRules(stored: Partial<Protections> | undefined): Protections {
  const list = (kind: keyof Protections) => {
    const rules: unknown = stored?.[kind];
    return Array.isArray(rules) ? rules.filter((rule): rule is string => typeof rule === 'string' && rule !== '') : [];
  };
  return { ids: list('ids'), tags: list('tags'), names: list('names') };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A profile's setting that is a string, unless it is empty or missing. */
export function stringSetting(settings: ProfileSettings | undefined, key: ProfileKey): string | undefined {
  const value = settings?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The origin a token in the file or a token command is bound to. One stored
 * before tokens were bound has no `token-origin`: it is bound to the
 * origin of the profile's base URL, or to none without one (ConfigStore
 * writes that down when it opens the file: #bindTokens).
 */
export function tokenOriginOf(settings: ProfileSettings | undefined): string | undefined {
  const recorded = stringSetting(settings, 'token-origin');
  if (recorded === undefined) return originOf(stringSetting(settings, 'base-url'));
  return recorded === NO_ORIGIN ? undefined : originOf(recorded);
}

/** Where a profile's settings keep its token (see ConfigStore.storedToken). */
export function storedTokenOf(settings: ProfileSettings | undefined): StoredToken | undefined {
  const command = stringSetting(settings, 'token-command');
  if (command !== undefined) return { store: 'command', command, origin: tokenOriginOf(settings) };
  const origin = stringSetting(settings, 'token-keyring');
  if (origin !== undefined) return { store: 'keyring', origin };
  const token = stringSetting(settings, 'token');
  return token === undefined ? undefined : { store: 'file', token, origin: tokenOriginOf(settings) };
}

/** A token in the file or a token command with no `token-origin`: stored before tokens were bound to one. */
export function unbound(settings: ProfileSettings | undefined): boolean {
  const stored = storedTokenOf(settings);
  return stored !== undefined && stored.store !== 'keyring' && stringSetting(settings, 'token-origin') === undefined;
}
