import type { Dispatcher } from 'undici';
import type { PlantStoreClient } from './api/client.js';
import {
  checkProfile,
  debugRequested,
  refusedTokenHint,
  resolveBaseUrl,
  resolveProfile,
  resolveRequestSettings,
  resolveToken,
  type ResolvedToken,
  type TokenReaders,
  type RequestSettings,
  type Resolved,
} from './config/settings.js';
import { openKeyring, type Keyring } from './config/keyring.js';
import { openConfigStore } from './config/open.js';
import { redactToken } from './shared/redact.js';
import { checkProxyUrl } from './shared/url.js';
import { parseTraceparent } from './shared/values.js';
import type { ConfigStore } from './config/store.js';
import type { Env } from './env.js';
import { AuthError, type StopSignal } from './errors.js';
import type { IOStreams } from './output/iostreams.js';
import { warning } from './output/messages.js';
import { terminalPrompter, type Prompter } from './output/prompt.js';
import { VERSION } from './version.js';
import { RESPONSE_HEADER_LIMIT } from './api/network.js';

/** Flags that apply to every command. */
export interface GlobalFlags {
  baseUrl?: string;
  profile?: string;
  timeout?: number;
  retries?: number;
  maxResponseSize?: number;
  debug?: boolean;
}

/**
 * What every command receives. Everything expensive (the config file, the
 * HTTP client and the modules behind them) is built on first use, so
 * `--help` touches neither disk nor network.
 */
export interface Context {
  io: IOStreams;
  env: Env;
  /** The global flags as parsed; read only once parsing is done (by a command's run). */
  readonly flags: Readonly<GlobalFlags>;
  prompter: Prompter;
  config(this: void): Promise<ConfigStore>;
  /** The selected profile: --profile, PLANTS_PROFILE, `config use`, or `default`; it may not exist yet. */
  profile(): Promise<Resolved<string>>;
  /**
   * The selected profile's name, for reading or changing its settings: it
   * must exist (checkProfile; the default always does). Asked for when a
   * value is read from the profile, and before any request when the profile
   * was named by --profile or PLANTS_PROFILE.
   */
  usedProfile(this: void): Promise<string>;
  /** Fails unless a profile named by --profile or PLANTS_PROFILE exists; a mistyped name is never ignored. */
  namedProfile(this: void): Promise<void>;
  baseUrl(): Promise<Resolved<URL>>;
  token(): Promise<ResolvedToken>;
  /** How a token kept outside the config file is read: the OS keyring, a token command. */
  readonly tokenReaders: TokenReaders;
  client(): Promise<PlantStoreClient>;
  /**
   * Run `onFirst` at the first Ctrl-C (SIGINT, or SIGTERM or SIGHUP) until the returned
   * function is called; a second one ends the process at once, after
   * `onQuit` has written (synchronously) what must not be lost and returned
   * the message the run ends with.
   */
  onInterrupt(onFirst: (signal: StopSignal) => void, onQuit?: () => string): () => void;
  /** Hide the token, once known, in text about to be shown: the last line of defence. */
  redact(this: void, text: string): string;
  /**
   * A context like this one with other global flags, and its own config and
   * client (completion looks up with a short timeout). Close it too.
   */
  withFlags(flags: GlobalFlags, options?: { tokenAtHand?: boolean }): Context;
  /**
   * A context like this one for this token and base URL, apart from any
   * profile (auth login checks a token before it keeps it, perhaps in a
   * profile it is about to create). Close it too.
   */
  withToken(token: ResolvedToken, baseUrl: URL): Context;
  /** Release sockets so the process can exit promptly. */
  close(): Promise<void>;
}

export interface ContextOptions {
  io: IOStreams;
  env: Env;
  /** The global flags, asked for once, on first use: after parsing. Default: none. */
  flags?: () => GlobalFlags;
  prompter?: Prompter;
  /** Process signals; tests pass their own trigger. Default: never fires. */
  onInterrupt?: (onFirst: (signal: StopSignal) => void, onQuit?: () => string) => () => void;
  /** Builds the dispatcher; tests pass a MockAgent (and close it themselves). */
  dispatcher?: (settings: RequestSettings) => Dispatcher | Promise<Dispatcher>;
  /** Opens the OS keyring; tests pass their own. Default: openKeyring, which loads the native binding. */
  keyring?: (env: Env) => Promise<Keyring>;
  /** The token, instead of looking it up (withToken). */
  token?: ResolvedToken;
  /**
   * Only a token at hand (the environment, the config file): no token
   * command is run and the keyring is not opened (completion: it must not
   * prompt, wait, or load the binding). Default: any store.
   */
  tokenAtHand?: boolean;
}

const USER_AGENT = `plants/${VERSION} node/${process.versions.node}`;

/** Hosts where plain http never leaves the machine. */
function isLoopback(hostname: string): boolean {
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
function proxyVariable(url: URL, env: Env): string | undefined {
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
function proxyAwareDispatcher(env: Env) {
  return async (settings: RequestSettings): Promise<Dispatcher> => {
    // '' rather than undefined: undici would otherwise read process.env itself.
    const httpProxy = env.http_proxy ?? env.HTTP_PROXY ?? '';
    const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY ?? '';
    // undici makes an agent for each, whichever the base URL needs.
    if (httpProxy) checkProxyUrl(httpProxy, env.http_proxy !== undefined ? 'http_proxy' : 'HTTP_PROXY');
    if (httpsProxy) checkProxyUrl(httpsProxy, env.https_proxy !== undefined ? 'https_proxy' : 'HTTPS_PROXY');
    const undici = await import('./vendor/undici.js');
    const options = {
      connect: { timeout: connectTimeoutMs(settings.timeoutMs) },
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
  };
}

/**
 * Connecting gives up before the attempt's deadline: a connection that
 * never opened then fails as such (the request was never sent), and is not
 * taken for a request whose answer was lost, which may have deleted a
 * plant. A second ahead, or under 1 s for short timeouts, where undici's
 * timers are exact (its coarse timers, for 1 s and more, may run late).
 */
function connectTimeoutMs(attemptMs: number): number {
  return attemptMs >= 2000 ? attemptMs - 1000 : Math.max(1, Math.min(Math.round(attemptMs * 0.9), 999));
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

export function createContext(options: ContextOptions): Context {
  const { io, env } = options;
  const flags = once((): Readonly<GlobalFlags> => Object.freeze({ ...options.flags?.() }));
  let dispatcher: Dispatcher | undefined;
  const debugLine = (line: string) => io.stderr.write(`plants: debug: ${line}\n`);
  const config = once(() =>
    openConfigStore(env, (text) => warning(io, text), {
      debug: debugRequested(flags().debug, env) ? debugLine : undefined,
    }),
  );
  const profile = once(() => resolveProfile(flags().profile, env, config));
  const usedProfile = once(async () => checkProfile(await config(), await profile()));
  // A profile named by --profile or PLANTS_PROFILE must exist even when the base URL and
  // token both come from elsewhere: a mistyped name is an error, never quietly ignored.
  const namedProfile = once(async () => {
    if (flags().profile !== undefined || env.PLANTS_PROFILE?.trim()) await usedProfile();
  });
  const baseUrl = once(async () => {
    await namedProfile();
    return resolveBaseUrl(flags().baseUrl, env, config, usedProfile);
  });
  let knownToken: string | undefined;
  const keyring = once(() => (options.keyring ?? openKeyring)(env));
  const notAtHand = (what: string) => Promise.reject(new AuthError(`${what} is not used here`));
  const tokenReaders: TokenReaders = options.tokenAtHand
    ? {
        keyring: () => notAtHand('the OS keyring'),
        command: () => notAtHand('a token command'),
        origin: async () => (await baseUrl()).value.origin,
      }
    : {
        keyring,
        async command(command, what) {
          const { runTokenCommand } = await import('./config/token-command.js');
          return runTokenCommand(command, {
            env,
            terminal: io.canPrompt(),
            stderr: io.interactive() ? io.stderr : undefined,
            what,
          });
        },
        origin: async () => (await baseUrl()).value.origin,
      };
  const token = once(async () => {
    await namedProfile();
    const resolved = options.token ?? (await resolveToken(env, config, usedProfile, tokenReaders));
    knownToken = resolved.value;
    return resolved;
  });
  const client = once(async () => {
    const settings = resolveRequestSettings(flags(), env);
    // Base URL first: a missing URL is a usage error (2), a missing token an auth error (4).
    const url = await baseUrl();
    const auth = await token();
    if (url.value.protocol === 'http:' && !isLoopback(url.value.hostname)) {
      warning(io, `the base URL uses plain http to ${url.value.host}: the token travels unencrypted; use https`);
    }
    const [{ PlantStoreClient }, made] = await Promise.all([
      import('./api/client.js'),
      (options.dispatcher ?? proxyAwareDispatcher(env))(settings),
    ]);
    // Only a dispatcher made here is closed here; an injected one belongs to the caller.
    if (!options.dispatcher) dispatcher = made;
    return new PlantStoreClient({
      baseUrl: url.value,
      token: auth.value,
      refusedToken: refusedTokenHint(auth),
      dispatcher: made,
      userAgent: USER_AGENT,
      timeoutMs: settings.timeoutMs,
      retries: settings.retries,
      maxResponseBytes: settings.maxResponseBytes,
      debug: settings.debug ? debugLine : undefined,
      proxy: proxyVariable(url.value, env),
      traceparent: parseTraceparent(env.TRACEPARENT),
    });
  });
  return {
    io,
    env,
    get flags() {
      return flags();
    },
    prompter: options.prompter ?? terminalPrompter(io),
    config,
    profile,
    usedProfile,
    namedProfile,
    baseUrl,
    token,
    client,
    onInterrupt: options.onInterrupt ?? (() => () => {}),
    redact: (text) => (knownToken ? redactToken(text, knownToken) : text),
    tokenReaders,
    withFlags: (others, more) => createContext({ ...options, ...more, flags: () => others }),
    withToken: (fixed, url) =>
      createContext({
        ...options,
        env: { ...env, PLANTS_PROFILE: undefined },
        flags: () => ({ ...flags(), profile: undefined, baseUrl: url.href }),
        token: fixed,
      }),
    async close() {
      // Everything has been read by now: drop the idle keep-alive sockets instead of
      // waiting for a graceful close.
      await dispatcher?.destroy();
    },
  };
}
