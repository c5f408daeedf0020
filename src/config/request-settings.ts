import type { Env } from '../shared/env.js';
import { parseRetries, parseTimeout } from '../shared/values.js';
import { fromEnv, fromVariable } from './variables.js';

/** How requests are made: per-attempt timeout, retries, response cap, debug log. */
export interface RequestSettings {
  timeoutMs: number;
  retries: number;
  maxResponseBytes: number;
  debug: boolean;
}

const DEFAULT_TIMEOUT_SECONDS = 30;
const DEFAULT_RETRIES = 2;
const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

/**
 * Flags win over PLANTS_TIMEOUT, PLANTS_RETRIES and PLANTS_DEBUG. A bad
 * variable is a configuration error naming it.
 */
export function resolveRequestSettings(
  flags: { timeout?: number; retries?: number; maxResponseSize?: number; debug?: boolean },
  env: Env,
): RequestSettings {
  const timeout = flags.timeout ?? fromVariable(env, 'PLANTS_TIMEOUT', parseTimeout) ?? DEFAULT_TIMEOUT_SECONDS;
  return {
    timeoutMs: Math.round(timeout * 1000),
    retries: flags.retries ?? fromVariable(env, 'PLANTS_RETRIES', parseRetries) ?? DEFAULT_RETRIES,
    maxResponseBytes: flags.maxResponseSize ?? DEFAULT_MAX_RESPONSE_BYTES,
    debug: debugRequested(flags.debug, env),
  };
}

/** --debug, else PLANTS_DEBUG (1, true or yes). */
export function debugRequested(flag: boolean | undefined, env: Env): boolean {
  return flag ?? ['1', 'true', 'yes'].includes((fromEnv(env, 'PLANTS_DEBUG') ?? '').toLowerCase());
}
