import { closeSync, openSync, readSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { ConfigError } from '../shared/errors.js';
import { errorCode, fsReason } from '../shared/fs-reason.js';
import { processHasEnded } from '../shared/process-ended.js';
import { randomUUID } from '../shared/random.js';

const LOCK_WAIT_MS = 5_000;
/**
 * A lock older than this is taken for a dead run's even when its owner
 * cannot be checked: a lock of another host, one that names no owner (a
 * full disk, an older plants), or one whose pid was since given to another
 * process. A run holds the lock for milliseconds.
 */
const STALE_LOCK_MS = 10_000;

/** What a lock file records about the run that holds it, as JSON. */
interface Owner {
  pid: number;
  host: string;
  /** This lock's own: tells it from a later lock at the same path. */
  id: string;
}

/** A lock file as found. */
interface Found {
  owner: Owner | undefined;
  /** The owner's id or, for a lock naming none, its inode and time: what a takeover checks it still faces. */
  key: string;
  ageMs: number;
}

/** A line for the debug log (--debug). */
export type DebugLog = (line: string) => void;

/**
 * Run `fn` holding `<path>.lock` (created exclusively; it records the pid
 * and host of this run), waiting for another run's. A lock whose owner has
 * ended is taken over at once, any other after STALE_LOCK_MS (see
 * removeIfStale). A lock that cannot be made or cleared (read-only or full
 * file system, no permission) is a ConfigError: nothing was written.
 */
export function withLock(path: string, fn: () => void, debug?: DebugLog): void {
  const lock = `${path}.lock`;
  const cannot = (what: string, err: unknown) =>
    new ConfigError(
      `cannot write the config file ${path}: cannot ${what} ${lock}: ${fsReason(err)}; nothing was changed`,
    );
  const me = newOwner();
  const giveUp = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      if (create(lock, me)) break;
    } catch (err) {
      throw cannot('create its lock file', err);
    }
    let found: Found | undefined;
    try {
      found = inspect(lock);
      if (found === undefined || removeIfStale(lock, found, debug)) continue; // gone: try again at once
    } catch (err) {
      // Retrying would spin here for ever (a directory of that name, say).
      throw cannot('remove the stale lock file', err);
    }
    if (Date.now() > giveUp) {
      throw new ConfigError(
        `the config file is locked by another plants run (${lock}); if none is running, remove that file`,
      );
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  try {
    fn();
  } finally {
    release(lock, me);
  }
}

/**
 * Remove `file`, a lock found as `found`, when its owner is gone; true when
 * it is gone now, so the caller may try to create it again at once.
 *
 * Two runs that find the same stale lock must not both remove it: the
 * second could remove the lock the first has made since, and both would
 * write (a lost update). So removing one is itself locked, by a claim
 * named after that very lock (`<lock>.<its key>.takeover`, created
 * exclusively): of the runs that found it, one creates the claim; it looks
 * again, removes the lock only if it is still the one it judged (same key),
 * then removes the claim, and every run competes to create the lock
 * anew. A run that comes late finds the lock gone or another one (another
 * key), and leaves it. While a claim is there nobody else removes that
 * lock, and its owner, being gone, does not either. A run killed while
 * holding a claim leaves one naming it: that claim is stale in turn and
 * removed the same way, one level down.
 *
 * The one gap is a wrong judgement: a lock judged by age alone whose owner
 * is in fact alive (stopped for 10 s, or on another host sharing the
 * directory) could be released by it at the wrong moment.
 */
function removeIfStale(file: string, found: Found, debug: DebugLog | undefined): boolean {
  const why = staleness(found);
  if (why === undefined) return false;
  const claim = `${file}.${found.key}.takeover`;
  if (!create(claim, newOwner())) {
    // Another run is removing it right now, unless it died doing so.
    const other = inspect(claim);
    if (other) removeIfStale(claim, other, debug);
    return false;
  }
  try {
    const now = inspect(file);
    if (now === undefined) return true;
    if (now.key !== found.key) return false;
    unlinkSync(file);
    debug?.(`removed ${file}, the lock of ${why}`);
    return true;
  } finally {
    ignoreErrors(() => unlinkSync(claim));
  }
}

/** Why the lock found is a dead run's, or undefined while it may be a live one's. */
function staleness({ owner, ageMs }: Found): string | undefined {
  if (owner && owner.host === thisHost()) {
    // This run holds no lock yet: one with its pid was left by an earlier process given the same pid.
    if (owner.pid === process.pid) return `an earlier run with this run's pid (${owner.pid})`;
    if (processHasEnded(owner.pid)) return `run ${owner.pid}, which has ended`;
  }
  if (ageMs > STALE_LOCK_MS) return `a run that has held it for ${Math.floor(ageMs / 1000)} s`;
  return undefined;
}

/** Create `file` exclusively, recording `owner`; false when it exists. */
function create(file: string, owner: Owner): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (err) {
    if (errorCode(err) === 'EEXIST') return false;
    throw err;
  }
  try {
    // On a full disk the file is made but holds nothing: still a lock, judged by age alone.
    ignoreErrors(() => writeSync(fd, JSON.stringify(owner)));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The lock file at `file`, or undefined when there is none. */
function inspect(file: string): Found | undefined {
  let stats;
  try {
    stats = statSync(file);
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return undefined;
    throw err;
  }
  // Only a regular file is read: a FIFO would block for ever.
  const owner = stats.isFile() ? readOwner(file) : undefined;
  return { owner, key: owner?.id ?? `${stats.ino}-${stats.mtimeMs}`, ageMs: Date.now() - stats.mtimeMs };
}

/** Remove this run's lock, never another's: a run may have taken it over after STALE_LOCK_MS. */
function release(lock: string, me: Owner): void {
  ignoreErrors(() => {
    const owner = readOwner(lock);
    if (owner === undefined || owner.id === me.id) unlinkSync(lock);
  });
}

/** The owner a lock file names, if it names one (its first bytes only: a lock is small). */
function readOwner(file: string): Owner | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(512);
      const value: unknown = JSON.parse(buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0)));
      return isOwner(value) ? value : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function isOwner(value: unknown): value is Owner {
  const { pid, host, id } = (value ?? {}) as Partial<Record<keyof Owner, unknown>>;
  return (
    typeof pid === 'number' &&
    Number.isSafeInteger(pid) &&
    pid > 0 &&
    typeof host === 'string' &&
    // Part of a file name (the claim's): nothing but these.
    typeof id === 'string' &&
    /^[A-Za-z0-9-]{1,64}$/.test(id)
  );
}

let host: string | undefined;
/** A pid means something only on its own host: another machine may share the directory. */
function thisHost(): string {
  return (host ??= process.getBuiltinModule('node:os').hostname());
}

function newOwner(): Owner {
  return { pid: process.pid, host: thisHost(), id: randomUUID() };
}

function ignoreErrors(action: () => void): void {
  try {
    action();
  } catch {
    // Best effort: the outcome is already decided.
  }
}
