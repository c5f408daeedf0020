import { closeSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * Temporary directories and open descriptors of a test file's tests: after
 * each test, the descriptors pushed to `fds` are closed and the directories
 * `tempDir()` made are removed.
 */
export function tempFiles(prefix: string): { tempDir: () => string; fds: number[] } {
  const dirs: string[] = [];
  const fds: number[] = [];
  afterEach(() => {
    for (const fd of fds.splice(0)) closeSync(fd);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  return { tempDir, fds };
}
