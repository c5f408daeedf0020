import { registerSecret } from './registry.js';

/**
 * Header names that say their value is a secret (API keys, session ids,
 * security tokens, credentials, cookies of any name).
 */
export const SECRET_HEADER_NAME = /token|secret|key|session|auth|cookie/i;

/**
 * Register the secrets in headers a person gives a request (`plants api
 * -H`), so a service echoing one is masked like the token: an
 * Authorization's credentials (without their scheme), each cookie's value,
 * the whole value of any other header whose name says it holds a secret.
 */
export function registerHeaderSecrets(headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      const [scheme, ...credentials] = value.trim().split(/\s+/);
      registerSecret(credentials.length > 0 ? credentials.join(' ') : scheme);
    } else if (lower === 'cookie') {
      for (const pair of value.split(';')) registerSecret(pair.slice(pair.indexOf('=') + 1).trim());
    } else if (SECRET_HEADER_NAME.test(name)) {
      registerSecret(value.trim());
    }
  }
}
