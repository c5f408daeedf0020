import type { Dispatcher } from 'undici';
import type { PlantStoreClient } from './api/client.js';
import {
  checkProfile,
  refusedTokenHint,
  resolveBaseUrl,
  resolveProfile,
  resolveToken,
  type ResolvedToken,
  type TokenReaders,
  type Resolved,
} from './config/settings.js';
import { debugRequested, resolveRequestSettings, type RequestSettings } from './config/request-settings.js';
import { openKeyring, type Keyring } from './config/keyring.js';
import { openConfigStore } from './config/open.js';
import { registerSecret } from './secrets/registry.js';
import { parseTraceparent } from './shared/values.js';
import type { ConfigStore } from './config/store.js';
import type { Env } from './shared/env.js';
import { AuthError, type StopSignal } from './shared/errors.js';
import type { IOStreams } from './output/iostreams.js';
import { warning } from './output/messages.js';
import { terminalPrompter, type Prompter } from './output/prompt.js';

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
  /**
   * A context like this one with other global flags, and its own config and
   * client (completion looks up with a short timeout). Close it too.
   */
  withFlags(flags: GlobalFlags, options?: { quiet?: boolean }): Context;
  /**
   * A context like this one for this token and base URL, apart from any
   * profile (auth login checks a token before it keeps it, perhaps in a
   * profile it is about to create). Close it too.
   */
  withToken(token: ResolvedToken, baseUrl: URL): Context;
  /**
   * Release sockets so the process can exit promptly. `exiting`: the
   * process ends once this returns (run() in src/cli.ts), so sockets with
   * nothing to do are left for it to close (see idleAgent).
   */
  close(options?: { exiting?: boolean }): Promise<void>;
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
   * Only a token read without prompting or waiting (completion): the
   * environment, the config file, the OS keyring where it is unlocked (read
   * by openQuietKeyring, within a short bound, without the binding on
   * Linux); no token command is run (it may prompt). Default: any store.
   */
  quiet?: boolean;
}

/**
 * Whether `dispatcher` is an agent with no request in flight or waiting on
 * any of its connections. undici unrefs such a connection's socket, which
 * then keeps the process from ending no more than a closed one would: a
 * process about to end need not close it (the system does as it exits), a
 * millisecond or more of a short run. Anything else (an agent busy, a
 * proxy agent, which tells nothing of its connections): not idle.
 */
export function idleAgent(dispatcher: Dispatcher): boolean {
  const stats = (dispatcher as { stats?: unknown }).stats;
  if (typeof stats !== 'object' || stats === null) return false;
  return Object.values(stats).every((origin) => (origin as { size?: unknown }).size === 0);
}

/**
 * The error undici gives what a destroy ends, without a stack: node's
 * streams read the stack of the error a socket is destroyed with, and
 * formatting undici's frames took most of a millisecond (their source
 * positions are worked out again, as the code came from the code cache).
 */
function closingError(): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new Error('plants closed the connection: the command is over');
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * How a token kept outside the config file is read: the OS keyring, a token
 * command; with `quiet`, the keyring only where it cannot prompt, and no
 * command (completion must not prompt or wait).
 */
function tokenReadersFor(options: ContextOptions, baseUrl: TokenReaders['baseUrl']): TokenReaders {
  const { io, env } = options;
  if (options.quiet) {
    return {
      keyring: once(async () => (await import('./config/quiet-keyring.js')).openQuietKeyring(env)),
      command: () => Promise.reject(new AuthError('a token command is not run here: it may prompt')),
      baseUrl,
    };
  }
  return {
    keyring: once(() => (options.keyring ?? openKeyring)(env)),
    async command(command, what) {
      const { runTokenCommand } = await import('./config/token-command.js');
      return runTokenCommand(command, {
        env,
        terminal: io.canPrompt(),
        stderr: io.interactive() ? io.stderr : undefined,
        what,
      });
    },
    baseUrl,
  };
}

/** What the store client is made of, each part asked for when the client is first needed. */
interface ClientParts {
  io: IOStreams;
  env: Env;
  flags: () => Readonly<GlobalFlags>;
  baseUrl: () => Promise<Resolved<URL>>;
  token: () => Promise<ResolvedToken>;
  debugLine: (line: string) => void;
  /** An injected dispatcher (tests), else the transport's agent. */
  dispatcher: ContextOptions['dispatcher'];
}

/**
 * The plant store client: the settings, base URL and token resolved, the
 * transport's agent made (and handed to `ownDispatcher`, which closes it),
 * a warning when the token would travel unencrypted.
 */
async function storeClient(parts: ClientParts, ownDispatcher: (made: Dispatcher) => void): Promise<PlantStoreClient> {
  const { io, env } = parts;
  const settings = resolveRequestSettings(parts.flags(), env);
  // Base URL first: a missing URL is a usage error (2), a missing token an auth error (4).
  const url = await parts.baseUrl();
  const auth = await parts.token();
  const [{ PlantStoreClient }, { httpTransport }] = await Promise.all([
    import('./api/client.js'),
    import('./http/transport.js'),
  ]);
  const transport = httpTransport(url.value, env, settings);
  if (url.value.protocol === 'http:' && !transport.loopback) {
    warning(io, `the base URL uses plain http to ${url.value.host}: the token travels unencrypted; use https`);
  }
  const made = await (parts.dispatcher ? parts.dispatcher(settings) : transport.dispatcher());
  if (!parts.dispatcher) ownDispatcher(made);
  return new PlantStoreClient({
    baseUrl: url.value,
    token: auth.value,
    refusedToken: refusedTokenHint(auth),
    dispatcher: made,
    userAgent: transport.userAgent,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    maxResponseBytes: settings.maxResponseBytes,
    debug: settings.debug ? parts.debugLine : undefined,
    warn: (text) => warning(io, text),
    proxy: transport.proxy,
    traceparent: parseTraceparent(env.TRACEPARENT),
  });
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
  const tokenReaders = tokenReadersFor(options, baseUrl);
  const token = once(async () => {
    await namedProfile();
    const resolved = options.token ?? (await resolveToken(env, config, usedProfile, tokenReaders));
    registerSecret(resolved.value);
    return resolved;
  });
  const client = once(() =>
    storeClient({ io, env, flags, baseUrl, token, debugLine, dispatcher: options.dispatcher }, (made) => {
      // Only a dispatcher made here is closed here; an injected one belongs to the caller.
      dispatcher = made;
    }),
  );
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
    tokenReaders,
    withFlags: (others, more) => createContext({ ...options, ...more, flags: () => others }),
    withToken: (fixed, url) =>
      createContext({
        ...options,
        env: { ...env, PLANTS_PROFILE: undefined },
        flags: () => ({ ...flags(), profile: undefined, baseUrl: url.href }),
        token: fixed,
      }),
    async close({ exiting = false } = {}) {
      if (!dispatcher || (exiting && idleAgent(dispatcher))) return;
      // Everything has been read by now: drop the keep-alive sockets instead of
      // waiting for a graceful close.
      await dispatcher.destroy(closingError());
    },
  };
}
