import { isAbsolute, join, resolve } from 'node:path';
import type { Env } from '../../shared/env.js';

/**
 * The directory of the deletion journal: `PLANTS_STATE_DIR`, else
 * `$XDG_STATE_HOME/plants` (an absolute path only, as the XDG spec says: a
 * relative one is ignored), else `~/.local/state/plants`
 * (`%LOCALAPPDATA%\plants` on Windows). Always absolute.
 */
export function stateDir(env: Env): string {
  if (env.PLANTS_STATE_DIR) return resolve(env.PLANTS_STATE_DIR);
  if (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)) return join(env.XDG_STATE_HOME, 'plants');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'plants');
  return join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.local', 'state', 'plants');
}

/** The journal being written; older ones are rolled over beside it (see journal.ts). */
export const JOURNAL_FILE = 'deletions.jsonl';
