import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { errorCode, fsReason } from '../shared/fs-reason.js';

const LOCK_WAIT_MS = 5_000;
/** A lock older than this was left by a run that died. */
const STALE_LOCK_MS = 10_000;

/**
 * Run `fn` holding `<path>.lock` (created exclusively), waiting for another
 * run's. A lock that cannot be made or cleared (read-only or full file
 * system, no permission) is a ConfigError: nothing was written.
 */
export function withLock(path: string, fn: () => void): void {
  const lock = `${path}.lock`;
  const cannot = (what: string, err: unknown) =>
    new ConfigError(
      `cannot write the config file ${path}: cannot ${what} ${lock}: ${fsReason(err)}; nothing was changed`,
    );
  const giveUp = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') throw cannot('create its lock file', err);
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) {
        unlinkSync(lock);
        continue;
      }
    } catch (err) {
      if (errorCode(err) === 'ENOENT') continue; // released meanwhile
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
    try {
      unlinkSync(lock);
    } catch {
      // Already gone: nothing to release.
    }
  }
}
