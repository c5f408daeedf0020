import { Argument } from 'commander';
import { formatBaseUrl, parseBaseUrl } from '../../shared/url.js';
import { formatMaxDeletes, parseMaxDeletes } from '../../shared/values.js';
import { DEFAULT_PROFILE, noSuchProfile, parseProfileName } from '../../config/profile-names.js';
import type { ConfigStore } from '../../config/store.js';
import { UsageError } from '../../shared/errors.js';
import { printable } from '../../shared/text.js';
import { maskedUrl } from '../../secrets/registry.js';

/** Keys `config set/get/unset` accept. The token has its own commands (`auth`), protections theirs (`protect`). */
export const CONFIG_KEYS = ['base-url', 'max-deletes'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

/**
 * A value as `config set` stores it, checked and in its normal form:
 * base-url an absolute http(s) URL, max-deletes `50` or `10%`.
 */
export function parseConfigValue(key: ConfigKey, raw: string): string {
  if (key === 'max-deletes') return formatMaxDeletes(parseMaxDeletes(raw, 'max-deletes'));
  return formatBaseUrl(parseBaseUrl(raw));
}

/** A stored value as shown: a base URL masked and escaped (shownUrl), anything else escaped. */
export function shownValue(key: ConfigKey, value: string): string {
  return key === 'base-url' ? shownUrl(value) : printable(value);
}

function parseKey(raw: string): ConfigKey {
  if (raw === 'protected' || raw === 'protect') {
    throw new UsageError(
      "protections are not a config key: add them with 'plants config protect', remove them with 'plants config unprotect', see them with 'plants config list'",
    );
  }
  if (raw === 'token') {
    throw new UsageError(
      "the token is not a config key: store it with 'plants auth login', remove it with 'plants auth logout', check it with 'plants auth status'",
    );
  }
  if (!(CONFIG_KEYS as readonly string[]).includes(raw)) {
    throw new UsageError(`unknown config key ${JSON.stringify(raw)}; known keys: ${CONFIG_KEYS.join(', ')}`);
  }
  return raw as ConfigKey;
}

/** `<key>`: completion offers the keys; parseKey explains a wrong one (and the token). */
export function keyArgument(description: string): Argument {
  return new Argument('<key>', description).choices(CONFIG_KEYS).argParser(parseKey);
}

/**
 * A stored base URL as shown. `config set` stores only valid ones, which
 * this leaves as they are, but for a token in them (a path segment), which
 * maskedUrl masks (see lookUpKnownTokens); the file may have been edited:
 * credentials, query and fragment values are masked, and what would act on
 * a terminal escaped (every command refuses such a value anyway).
 */
export function shownUrl(value: string): string {
  return printable(maskedUrl(value));
}

export function shownOr(value: string | undefined, unset: string): string {
  return value === undefined ? unset : shownUrl(value);
}

/**
 * A profile named as an argument, which must exist; with `orDefault`, the
 * default profile always does (`config use default`), stored or not.
 */
export function existingProfile(store: ConfigStore, raw: string, { orDefault = false } = {}): string {
  const name = parseProfileName(raw, 'the argument');
  if (orDefault && name === DEFAULT_PROFILE) return name;
  if (!store.hasProfile(name)) {
    throw noSuchProfile(name, orDefault ? store.selectableProfiles() : store.profileNames());
  }
  return name;
}
