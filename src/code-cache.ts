import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import type { Script } from 'node:vm';

/**
 * Loading the built bundles with a V8 code cache, as `node` itself does
 * from version 22 when asked (module.enableCompileCache). A short run
 * spends most of its time compiling JavaScript: the command tree, then
 * undici. The first run of a build saves what V8 compiled; later runs load
 * it instead of compiling again (about 4 ms of a 47 ms `plants --help`,
 * 15 ms of a 77 ms `plants list`).
 *
 * Only compiled code is kept, never anything a command read or fetched.
 * The cache lives in $XDG_CACHE_HOME/plants (else ~/.cache/plants), a
 * directory only its owner may write to; anything else there is ignored.
 * PLANTS_CODE_CACHE=0 turns it off. Any failure to read or write it just
 * means compiling as usual: V8 checks the data and rejects what does not
 * fit this node, these flags or this source.
 */

declare const __PLANTS_BUILD_ID__: string;

interface Loaded {
  exports: unknown;
  script: Script;
  cacheFile: string | undefined;
  /** The data was missing or rejected: save it at exit. */
  save: boolean;
}

const loaded = new Map<string, Loaded>();
let directory: string | null | undefined;
/** Part of each cache file's name: V8 rejects data made under other flags. */
let flags = 'default';
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
  const source = readFileSync(file, 'utf8');
  const dir = cacheDirectory();
  // The build id tells builds apart: V8 compares only the length of the source.
  const name = `${basename(file, '.cjs')}-${__PLANTS_BUILD_ID__}-${process.version}-${process.arch}-${flags}.v8`;
  const cacheFile = dir ? join(dir, name) : undefined;
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // Not made yet.
    }
  }
  const { Script } = process.getBuiltinModule('node:vm');
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const entry: Loaded = {
    exports: undefined,
    script,
    cacheFile,
    save: cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true),
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
 * Compile WebAssembly with V8's baseline compiler only. undici parses HTTP
 * with a WebAssembly module; V8 would optimise it on background threads
 * that a short-lived process then waits for at exit (45 ms of a 120 ms
 * `plants list`). The baseline code is plenty here.
 */
export function wasmBaselineOnly(): void {
  if (flags === 'liftoff') return;
  // Data for the bundles loaded so far must be made under the flags they were compiled with.
  saveCodeCache();
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
  flags = 'liftoff';
}

/**
 * Save the code compiled so far for bundles whose cache is missing. Done at
 * exit (the functions a run called are compiled by then), and before the V8
 * flags change.
 */
function saveCodeCache(): void {
  for (const entry of loaded.values()) {
    if (!entry.save || !entry.cacheFile) continue;
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

/** Other builds' data for the same bundle is never read again. */
function removeOtherBuilds(cacheFile: string): void {
  const dir = dirname(cacheFile);
  const [bundle, build] = basename(cacheFile).split('-');
  for (const name of readdirSync(dir)) {
    const [otherBundle, otherBuild] = name.split('-');
    if (otherBundle === bundle && otherBuild !== build && name.endsWith('.v8')) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // Another run removed it first.
      }
    }
  }
}
