import type { Dispatcher } from 'undici';
import type { Env } from '../shared/env.js';
import { checkProxyUrl } from '../shared/url.js';
import { VERSION } from '../shared/version.js';
import { RESPONSE_HEADER_LIMIT } from './network.js';

/**
 * How requests reach the service: the agent (proxy, connect timeout, header
 * limit) and what the client says about it (User-Agent, the proxy's
 * variable). Certificates are Node's own business: it reads
 * NODE_EXTRA_CA_CERTS at start-up, and nothing here passes a CA.
 */
export interface Transport {
  userAgent: string;
  /** The variable of the proxy requests to the base URL go through, for messages only. */
  proxy: string | undefined;
  /** The base URL's host is the machine itself: plain http there never leaves it. */
  loopback: boolean;
  /** Builds the agent the client shares (loading undici); fails on a malformed proxy variable. */
  dispatcher(): Promise<Dispatcher>;
}

const USER_AGENT = `plants/${VERSION} node/${process.versions.node}`;

/** The transport to `baseUrl`, from the given environment only; `timeoutMs` bounds each attempt. */
export function httpTransport(baseUrl: URL, env: Env, settings: { timeoutMs: number }): Transport {
  return {
    userAgent: USER_AGENT,
    proxy: proxyVariable(baseUrl, env),
    loopback: isLoopback(baseUrl.hostname),
    dispatcher: () => proxyAwareDispatcher(env, settings.timeoutMs),
  };
}

/** Hosts where plain http never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  return (
    ['localhost', '[::1]', '0.0.0.0', '[::]'].includes(hostname) ||
    /^(\[::ffff:)?127\.\d+\.\d+\.\d+\]?$/.test(hostname) ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(hostname)
  );
}

/**
 * The variable of the proxy requests to `url` go through, for messages only
 * (undici decides the routing): NO_PROXY's `*`, hosts and domain suffixes exempt.
 */
export function proxyVariable(url: URL, env: Env): string | undefined {
  const names = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  const variable = names.find((name) => env[name]);
  if (!variable) return undefined;
  const host = url.hostname.toLowerCase();
  const exempt = (env.no_proxy ?? env.NO_PROXY ?? '')
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      const name = entry
        .replace(/:\d+$/, '')
        .replace(/^\*?\./, '')
        .toLowerCase();
      return entry === '*' || host === name || host.endsWith(`.${name}`);
    });
  return exempt ? undefined : variable;
}

/**
 * One shared agent, honouring HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either
 * case) from the given environment, never from elsewhere. Without a proxy
 * it is a plain Agent: undici's proxy-aware one would parse every request's
 * URL only to send it straight on (a bulk delete sends thousands).
 */
async function proxyAwareDispatcher(env: Env, attemptMs: number): Promise<Dispatcher> {
  // '' rather than undefined: undici would otherwise read process.env itself.
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY ?? '';
  const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY ?? '';
  // undici makes an agent for each, whichever the base URL needs.
  if (httpProxy) checkProxyUrl(httpProxy, env.http_proxy !== undefined ? 'http_proxy' : 'HTTP_PROXY');
  if (httpsProxy) checkProxyUrl(httpsProxy, env.https_proxy !== undefined ? 'https_proxy' : 'HTTPS_PROXY');
  const undici = await import('../vendor/undici.js');
  const options = {
    connect: { timeout: connectTimeoutMs(attemptMs) },
    maxHeaderSize: RESPONSE_HEADER_LIMIT,
  };
  if (!httpProxy && !httpsProxy) return new undici.Agent(options);
  const EnvHttpProxyAgent = await undici.envHttpProxyAgent();
  // Tunnelled with CONNECT for http targets too (undici 8 would send them to the proxy in the clear).
  return new EnvHttpProxyAgent({
    ...options,
    httpProxy,
    httpsProxy,
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
    proxyTunnel: true,
  });
}

/**
 * Connecting gives up before the attempt's deadline, so that a connection
 * that never opened fails as such: "could not connect", and undici's
 * connection attempt ends with it. A second ahead, or under 1 s for short
 * timeouts. undici times connecting with its coarse timer whatever the
 * length (lib/core/util.js, setupConnectTimeout: a tick every 499 ms), so
 * it may fire up to a second late, after the deadline on a short attempt.
 * That is no mistake of substance: the deadline's reason says whether the
 * request had reached a connection (AttemptTimeoutError in attempt.ts), and
 * one that had not was never sent, whichever error comes first.
 */
export function connectTimeoutMs(attemptMs: number): number {
  return attemptMs >= 2000 ? attemptMs - 1000 : Math.max(1, Math.min(Math.round(attemptMs * 0.9), 999));
}
