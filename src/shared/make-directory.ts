import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorCode } from './fs-reason.js';

/**
 * `mkdir -p`, each directory made 0700. By hand because node's recursive
 * mkdir reports a read-only file system as ENOENT ("no such file or
 * directory"), which sends people looking for the wrong problem.
 */
export function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if (errorCode(err) !== 'ENOENT' || dirname(dir) === dir) return alreadyThere(dir, err);
    makeDirectory(dirname(dir));
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (again) {
      alreadyThere(dir, again);
    }
  }
}

/** After mkdir failed with `err`: fine when the directory exists (EEXIST comes first even on a read-only file system). */
function alreadyThere(dir: string, err: unknown): void {
  if (errorCode(err) !== 'EEXIST') throw err;
  if (!statSync(dir).isDirectory()) throw new Error('something that is not a directory is in its place');
}
