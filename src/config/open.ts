import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../shared/env.js';
import { ConfigError } from '../shared/errors.js';
import type { WriteFs } from './atomic-write.js';
import type { DebugLog } from './lock.js';
import { fsReason } from '../shared/fs-reason.js';
import { repeatedKey } from '../shared/json-keys.js';
import { makeDirectory } from '../shared/make-directory.js';
import { checkConfigFile, CONFIG_FILE, configDir, readError, type ConfLike } from './config-file.js';
import { isObject } from './profile-settings.js';
import { ConfigStore } from './store.js';

/**
 * conf, without the signal handlers its file writer brings along: atomically's
 * when-exit re-raises SIGINT/SIGTERM at once, which would turn a graceful
 * Ctrl-C (finish the requests in flight) into an abrupt exit. Its exit hook,
 * which removes temporary files, stays. (The built conf bundle loads its
 * writer only when conf writes, which plants never asks of it, and with a
 * when-exit that hooks no signal, build/start-up.ts: there is nothing to
 * remove; run from the sources, as in tests, conf has the real ones.)
 */
async function importConf(): Promise<typeof import('conf').default> {
  const events: NodeJS.EventEmitter = process;
  const before = new Map(events.eventNames().map((name) => [name, events.listeners(name)]));
  const { Conf } = await import('../vendor/conf.js');
  for (const name of events.eventNames()) {
    if (typeof name !== 'string' || !name.startsWith('SIG')) continue;
    const existing = before.get(name) ?? [];
    for (const listener of events.listeners(name)) {
      if (!existing.includes(listener)) events.off(name, listener as (...args: unknown[]) => void);
    }
  }
  return Conf;
}

/**
 * Deeper than any config plants writes (profiles, a profile, its
 * protections, a list: 4). Deeper nesting is refused before it is parsed:
 * writing it back would overflow the stack.
 */
const MAX_CONFIG_DEPTH = 32;

/**
 * conf would quietly read a JSON array or number as an empty config, then
 * overwrite it. A UTF-8 byte order mark (Windows editors save one) is read
 * as if it were not there; the next write leaves it out.
 */
function parseConfigObject(text: string): Record<string, unknown> {
  if (text.startsWith('\uFFFD\uFFFD')) {
    // FF FE or FE FF, read as UTF-8.
    throw new Error('it is saved as UTF-16 (it starts with a UTF-16 byte order mark), not as UTF-8');
  }
  const json = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (nestsDeeperThan(json, MAX_CONFIG_DEPTH)) {
    throw new Error(`it is nested more than ${MAX_CONFIG_DEPTH} levels deep (a config file needs 4)`);
  }
  const value: unknown = JSON.parse(json);
  if (!isObject(value)) throw new Error('it is not a JSON object');
  const twice = repeatedKey(json)?.key;
  if (twice !== undefined) {
    // JSON.parse keeps the last: a second "protected" would drop the first one's rules unsaid (and the next write, from the file).
    throw new Error(`it has the key ${JSON.stringify(twice)} twice in one object, and only the last would be read`);
  }
  return value;
}

/** Whether arrays and objects nest more than `limit` deep in `json` (text in strings aside). */
function nestsDeeperThan(json: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Where group or others may read or write what should be the owner's alone. */
function tooOpen(path: string, wanted: number): string | undefined {
  try {
    const mode = statSync(path).mode & 0o777;
    return (mode & 0o077) !== 0
      ? `${path} has mode ${mode.toString(8).padStart(4, '0')}; run chmod ${wanted.toString(8)} ${path}`
      : undefined;
  } catch {
    return undefined;
  }
}

/** Open options; see openConfigStore. */
interface OpenConfigOptions {
  /** File-system calls for the config writer to use instead of node:fs's. Default: node:fs. */
  fs?: Partial<WriteFs>;
  /** Where to say that a dead run's lock was taken over (--debug). Default: nowhere. */
  debug?: DebugLog;
}

/** Whether a profile of the file holds a token (the constructor has moved one from before profiles into one). */
function holdsToken(data: Record<string, unknown>): boolean {
  const profiles = isObject(data.profiles) ? Object.values(data.profiles) : [];
  return profiles.some((settings) => isObject(settings) && typeof settings.token === 'string' && settings.token !== '');
}

/**
 * Open the config file (created 0600 in a 0700 directory). Existing files
 * or directories that others can read are used, with a warning (that names
 * the token when the file holds one). Writes are atomic and checked
 * (writeFileAtomically), so neither concurrent runs nor a full disk leave a
 * corrupted file. Every failure to make the directory, read, lock or write
 * is a ConfigError.
 */
export async function openConfigStore(
  env: Env,
  warn: (text: string) => Promise<void> | void = () => {},
  options: OpenConfigOptions = {},
): Promise<ConfigStore> {
  const dir = configDir(env);
  const path = join(dir, CONFIG_FILE);
  try {
    makeDirectory(dir);
  } catch (err) {
    throw new ConfigError(`cannot create the config directory ${dir}: ${fsReason(err)}`);
  }
  const Conf = await importConf();
  let conf: ConfLike;
  try {
    // conf reads the file as it starts: refuse what it must not read first.
    checkConfigFile(path);
    conf = new Conf<Record<string, unknown>>({
      cwd: dir,
      configName: 'config',
      deserialize: parseConfigObject,
    });
  } catch (err) {
    throw readError(path, err);
  }
  const store = new ConfigStore(conf, options.fs, options.debug);
  if (process.platform !== 'win32') {
    const problems = [tooOpen(dir, 0o700), tooOpen(path, 0o600)].filter((problem) => problem !== undefined);
    // Read only when there is something to say: the constructor has checked the file.
    const token = problems.length > 0 && holdsToken(conf.store);
    for (const problem of problems) await warn(token ? `the config holds the token, but ${problem}` : problem);
  }
  return store;
}
