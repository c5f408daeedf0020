import type { Env } from '../env.js';
import { ConfigError } from '../errors.js';

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
