import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import type { Script } from 'node:vm';
import { commandAt } from './argv.js';

/**
 * How the built bundles load: the run-time half of the start-up machinery
 * (build/start-up.ts is the build half). A short run spends much of its
 * time compiling JavaScript: the command tree, then undici. The first run
 * of a build keeps what V8 compiled, saved at exit; later runs load it
 * instead of compiling again. What a run compiles depends on the command
 * it runs (--help compiles little of what `list` needs) and on where its
 * settings come from, so each command keeps its own data, and apart from
 * the environment's (cacheName). Its saving: the bench's rows "no code
 * cache" and "node's compile cache instead" (npm run bench).
 *
 * Node's own compile cache (module.enableCompileCache) does the same, but
 * saves each file's code as it is compiled, before it runs: the functions
 * a run then calls, most of the command tree and of undici, are compiled
 * again by every run. `npm run bench` prints both.
 *
 * Only compiled code is kept, never anything a command read or fetched.
 * The cache lives in $XDG_CACHE_HOME/plants (else ~/.cache/plants), a
 * directory only its owner may write to; anything else there is ignored.
 * PLANTS_CODE_CACHE=0 turns it off: the bundles are then required as usual
 * (and NODE_COMPILE_CACHE applies). Any failure to read or write it just
 * means compiling as usual: V8 checks the data and rejects what does not
 * fit this node, its flags or this source.
 */

declare const __PLANTS_BUILD_ID__: string;

interface Loaded {
  exports: unknown;
  script: Script | undefined;
  cacheFile: string | undefined;
  /** The data was missing or rejected: save it at exit. */
  save: boolean;
}

/**
 * The name a run's data is kept under: its command, the first argument
 * that is neither an option nor a global option's value and looks like a
 * command's name (src/startup/argv.ts); `main` without one (--help, a usage
 * error). No list of commands: a new command gets data of its own as it is.
 * Any name is safe: V8 checks the data against the source, whichever run
 * made it.
 */
export function commandOf(args: readonly string[]): string {
  const at = commandAt(args);
  return at !== -1 && /^[a-z_][a-z0-9_-]{0,31}$/.test(args[at]!) ? args[at]! : 'main';
}

/**
 * The name of a run's data: its command (commandOf), and `+env` when the
 * base URL and the token both come from the environment. Such a run of
 * `list`, `delete` or `prune` reads no profile from the config file, so it
 * compiles other code than one that does (conf, the profile's settings):
 * each keeps data of its own, instead of the first to run leaving the
 * other to compile its part every time. (A name that fits a run less well
 * costs only compiling: V8 checks the data whatever the name.) Saves 1.9
 * CPU ms of a list from config.json: under 2 ms alone, kept by the
 * judgement of the removed devices together (docs/architecture.md, "Start-up").
 */
export function cacheName(args: readonly string[], env: NodeJS.ProcessEnv): string {
  const command = commandOf(args);
  return env.PLANTS_BASE_URL && env.PLANTS_TOKEN ? `${command}+env` : command;
}

const loaded = new Map<string, Loaded>();
let directory: string | null | undefined;
let savingAtExit = false;

function cacheDirectory(): string | null {
  if (directory !== undefined) return directory;
  directory = null;
  const env = process.env;
  if (env.PLANTS_CODE_CACHE === '0' || typeof __PLANTS_BUILD_ID__ === 'undefined') return null;
  try {
    // os.homedir() reads HOME first too; node:os is loaded only without it.
    const home = env.HOME?.startsWith('/') ? env.HOME : process.getBuiltinModule('node:os').homedir();
    const base = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(home, '.cache');
    const dir = join(base, 'plants', 'code');
    let stat: Stats;
    try {
      stat = statSync(dir);
    } catch {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      stat = statSync(dir);
    }
    // Cached code runs as this user: refuse a directory someone else could write to.
    if (!stat.isDirectory()) return null;
    if (process.getuid && stat.uid !== process.getuid()) return null;
    if ((stat.mode & 0o022) !== 0) return null;
    directory = dir;
  } catch {
    // No home, a read-only file system: compile as usual.
  }
  return directory;
}

/** Require one of the built bundles (a path next to this one), through the code cache. */
export function requireBundle(file: string): unknown {
  const known = loaded.get(file);
  if (known) return known.exports;
  const dir = cacheDirectory();
  if (!dir) {
    const exports: unknown = Module.createRequire(file)(file);
    loaded.set(file, { exports, script: undefined, cacheFile: undefined, save: false });
    return exports;
  }
  const source = readFileSync(file, 'utf8');
  // The build id tells builds apart: V8 compares only the length of the source.
  const run = cacheName(process.argv.slice(2), process.env);
  const name = `${basename(file, '.cjs')}-${__PLANTS_BUILD_ID__}-${process.version}-${process.arch}-${run}.v8`;
  const cacheFile = join(dir, name);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // Not made yet.
  }
  const { Script } = process.getBuiltinModule('node:vm');
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const entry: Loaded = {
    exports: undefined,
    script,
    cacheFile,
    save: cachedData === undefined || script.cachedDataRejected === true,
  };
  if (entry.save && !savingAtExit) {
    savingAtExit = true;
    process.once('exit', saveCodeCache);
  }
  loaded.set(file, entry);

  const module = new Module(file);
  module.filename = file;
  const require = Module.createRequire(file);
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    require,
    module,
    file,
    dirname(file),
  );
  entry.exports = module.exports;
  return module.exports;
}

/**
 * Save the code compiled so far for bundles whose cache is missing or was
 * rejected. Done at exit: the functions the run called are compiled by then.
 */
function saveCodeCache(): void {
  for (const entry of loaded.values()) {
    if (!entry.save || !entry.script || !entry.cacheFile) continue;
    entry.save = false;
    try {
      const temporary = `${entry.cacheFile}.${process.pid}.tmp`;
      writeFileSync(temporary, entry.script.createCachedData(), { mode: 0o600 });
      renameSync(temporary, entry.cacheFile);
      removeOtherBuilds(entry.cacheFile);
    } catch {
      // A full disk or a vanished directory: next run compiles again.
    }
  }
}

/**
 * A data file's bundle and build, from its name (see requireBundle): the
 * bundle's name may hold a dash (conf-lazy), the build id is hex and the
 * node version follows it.
 */
export function bundleAndBuild(name: string): [string, string] | undefined {
  const match = /^(.+?)-([0-9a-f]+)-v\d.*\.v8$/.exec(name);
  return match ? [match[1]!, match[2]!] : undefined;
}

/** Other builds' data for the same bundle is never read again. */
function removeOtherBuilds(cacheFile: string): void {
  const dir = dirname(cacheFile);
  const [bundle, build] = bundleAndBuild(basename(cacheFile)) ?? [];
  if (bundle === undefined) return;
  for (const name of readdirSync(dir)) {
    const [otherBundle, otherBuild] = bundleAndBuild(name) ?? [];
    if (otherBundle === bundle && otherBuild !== build) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // Another run removed it first.
      }
    }
  }
}
