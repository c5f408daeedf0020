import { ConfigError } from '../shared/errors.js';
import { PROFILE_NAME, PROFILE_NAME_RULE } from './profile-names.js';
import { isObject, PROTECTION_KINDS, STRING_KEYS } from './profile-settings.js';

/**
 * The keys that keep plants safe are checked strictly: a hand edit that
 * misspells one (`max_deletes`, `"protected": {"tag": …}`) would otherwise
 * be ignored, and a run would delete what the user meant to protect.
 */
function checkGuardKeys(
  settings: Record<string, unknown>,
  profile: string,
  invalid: (what: string) => ConfigError,
): void {
  for (const key of Object.keys(settings)) {
    const meant = GUARD_NEAR_MISSES[key.toLowerCase().replace(/[^a-z]/g, '')];
    if (meant !== undefined && meant !== key) {
      throw invalid(`profile "${profile}" has "${key}", which plants does not read; did you mean "${meant}"?`);
    }
  }
  if (settings['max-deletes'] === '') throw invalid(`"max-deletes" of profile "${profile}" is empty`);
  const rules = settings.protected;
  if (rules === undefined) return;
  if (!isObject(rules)) throw invalid(`"protected" of profile "${profile}" must be an object`);
  for (const key of Object.keys(rules)) {
    if (!(PROTECTION_KINDS as readonly string[]).includes(key)) {
      throw invalid(
        `"protected" of profile "${profile}" has "${key}", which plants does not read; its lists are ${PROTECTION_KINDS.map((kind) => `"${kind}"`).join(', ')}`,
      );
    }
  }
  for (const kind of PROTECTION_KINDS) {
    const list = rules[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every((rule) => typeof rule === 'string' && rule !== '')) {
      // A number is refused, not read: JSON numbers beyond 2^53 lose digits, and would protect another id.
      throw invalid(
        `"protected.${kind}" of profile "${profile}" must be a list of non-empty strings (an id as "42", not 42)`,
      );
    }
  }
}

/** What plants reads at the top of the file (`base-url` and `token` from before profiles). */
const TOP_LEVEL_KEYS = ['profile', 'profiles', 'base-url', 'token'];

/**
 * A top-level key that is a near miss of one plants reads (`Profile`,
 * `"profile "`, `profles`) is refused: read as nothing, it would leave the
 * profile in use, or every profile and its protections, unread. Other keys
 * (`$schema`, a note) are left alone.
 */
function checkTopLevelKeys(data: Record<string, unknown>, invalid: (what: string) => ConfigError): void {
  const letters = (key: string) => key.toLowerCase().replace(/[^a-z]/g, '');
  for (const key of Object.keys(data)) {
    if (TOP_LEVEL_KEYS.includes(key)) continue;
    const ranked = TOP_LEVEL_KEYS.map((known) => ({ known, distance: editDistance(letters(key), letters(known)) }));
    const nearest = ranked.sort((a, b) => a.distance - b.distance)[0]!;
    if (nearest.distance <= 2) {
      throw invalid(`it has "${key}", which plants does not read; did you mean "${nearest.known}"?`);
    }
  }
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions from `a` to `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Spellings of the guard keys, letters only, lower case: what each was meant to be. */
const GUARD_NEAR_MISSES: Record<string, string> = {
  maxdeletes: 'max-deletes',
  maxdelete: 'max-deletes',
  protected: 'protected',
  protect: 'protected',
  protection: 'protected',
  protections: 'protected',
};

/**
 * Refuse a config file plants would misread: wrong types, profile names
 * --profile could not select, near misses of the keys it reads (a
 * ConfigError naming the file and what is wrong).
 */
export function checkConfigData(data: Record<string, unknown>, path: string): void {
  const invalid = (what: string) =>
    new ConfigError(`config file ${path} is invalid: ${what}; fix it, or remove it and configure again`);
  checkTopLevelKeys(data, invalid);
  if (data.profile !== undefined && typeof data.profile !== 'string') throw invalid('"profile" must be a string');
  if (data.profiles !== undefined && !isObject(data.profiles)) throw invalid('"profiles" must be an object');
  // A name --profile refuses could be used through the file but never selected, renamed or deleted by plants.
  const unselectable = (name: string) =>
    invalid(`the profile name ${JSON.stringify(name)} is not one plants can select (${PROFILE_NAME_RULE})`);
  if (typeof data.profile === 'string' && !PROFILE_NAME.test(data.profile)) {
    throw invalid(
      `"profile" names ${JSON.stringify(data.profile)}, not a profile name plants can select (${PROFILE_NAME_RULE})`,
    );
  }
  for (const [name, settings] of Object.entries(data.profiles ?? {})) {
    if (!PROFILE_NAME.test(name)) throw unselectable(name);
    if (!isObject(settings)) throw invalid(`profile "${name}" must be an object`);
    for (const key of STRING_KEYS) {
      if (settings[key] !== undefined && typeof settings[key] !== 'string') {
        throw invalid(`"${key}" of profile "${name}" must be a string`);
      }
    }
    checkGuardKeys(settings, name, invalid);
  }
  for (const key of ['base-url', 'token']) {
    if (data[key] !== undefined && typeof data[key] !== 'string') throw invalid(`"${key}" must be a string`);
  }
}
