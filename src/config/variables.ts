import type { Env } from '../shared/env.js';
import { ConfigError } from '../shared/errors.js';

/**
 * An environment variable's value, parsed as its flag would be: undefined
 * when it is unset or blank; a ConfigError naming the variable when the
 * parser refuses it (exit 2, as any bad configuration).
 */
export function fromVariable<T>(env: Env, name: string, parse: (raw: string, source: string) => T): T | undefined {
  const raw = env[name];
  if (!raw?.trim()) return undefined;
  try {
    return parse(raw, name);
  } catch (err) {
    throw new ConfigError((err as Error).message.replace(/^invalid /, 'invalid environment variable '));
  }
}

/**
 * An on/off variable (PLANTS_JOURNAL, PLANTS_KEYRING): what it says, in
 * any case; undefined when blank or unset. Anything else is a ConfigError
 * (exit 2), so that `false`, `0` or `no` never means on.
 */
export function switchSetting(env: Env, name: string): 'on' | 'off' | undefined {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (value === '') return undefined;
  if (value === 'on' || value === 'off') return value;
  throw new ConfigError(`invalid ${name} ${JSON.stringify(env[name])}: expected on or off`);
}

/** Whether an on/off variable says `off`; `on`, blank and unset are on. */
export function switchedOff(env: Env, name: string): boolean {
  return switchSetting(env, name) === 'off';
}

/** Empty or blank variables count as unset. */
export function fromEnv(env: Env, name: string): string | undefined {
  const value = env[name];
  return value?.trim() ? value : undefined;
}
