/**
 * undici, for requests (see src/http/transport.ts). A bundle of its own: see build/start-up.ts.
 *
 * The parts of undici this client uses, imported from undici's own modules
 * rather than its index, which also loads fetch, WebSocket, cookies, caches
 * and mocks (`npm run bench` prints the difference). These paths are not
 * undici's public API: test/unit/undici-modules.test.ts pins each of them.
 * Imported only when a request is about to be sent.
 */
import type { EnvHttpProxyAgent } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import request from 'undici/lib/api/api-request.js';

// undici's index gives every dispatcher request(), stream() and the rest in
// exactly this way when it is loaded (lib/api/index.js); done here for
// request(), the one this client calls, it is the same assignment to the
// same prototype (a no-op when the index is loaded too, as in tests). The
// others' modules (stream, pipeline, upgrade, connect) are not loaded.
Object.assign(Dispatcher.prototype, { request });

export { Agent };

/**
 * The proxy-aware agent, whose modules are run only when a proxy is set;
 * with a dispatcher's connect(), as undici's index gives it, with which
 * its proxy agent opens each tunnel (HTTP CONNECT).
 */
export async function envHttpProxyAgent(): Promise<typeof EnvHttpProxyAgent> {
  const [agent, connect] = await Promise.all([
    import('undici/lib/dispatcher/env-http-proxy-agent.js'),
    import('undici/lib/api/api-connect.js'),
  ]);
  Object.assign(Dispatcher.prototype, { connect: connect.default });
  return agent.default;
}
