/**
 * src/vendor/undici.ts as undici's public index would give it: what
 * `npm run bench` builds (PLANTS_BUILD_UNDICI=index, see start-up.ts) to
 * show what importing undici's own modules saves. Not part of the package.
 */
import { Agent, EnvHttpProxyAgent } from 'undici';

export { Agent };

export function envHttpProxyAgent(): Promise<typeof EnvHttpProxyAgent> {
  return Promise.resolve(EnvHttpProxyAgent);
}
