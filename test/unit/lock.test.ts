import { existsSync, mkdirSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withLock } from '../../src/config/lock.js';
import { ConfigError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';

let dir: ReturnType<typeof tempDir>;
let file: string;
let lock: string;
beforeEach(() => {
  dir = tempDir();
  file = join(dir.path, 'config.json');
  lock = `${file}.lock`;
});
afterEach(() => {
  vi.restoreAllMocks();
  dir.remove();
});

/** Make `path` look `seconds` old. */
function age(path: string, seconds: number): void {
  const then = new Date(Date.now() - seconds * 1000);
  utimesSync(path, then, then);
}

describe('withLock: one plants run writes the config at a time', () => {
  it('holds <file>.lock, readable by the owner only, while it runs, and removes it after', () => {
    let seen: { exists: boolean; mode: number } | undefined;
    withLock(file, () => {
      seen = { exists: existsSync(lock), mode: statSync(lock).mode & 0o777 };
    });
    expect(seen).toEqual({ exists: true, mode: 0o600 });
    expect(existsSync(lock)).toBe(false);
  });

  it('removes the lock when the work fails, and passes the failure on', () => {
    expect(() =>
      withLock(file, () => {
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(existsSync(lock)).toBe(false);
  });

  it('does not mind a lock that is already gone when done', () => {
    expect(() => withLock(file, () => unlinkSync(lock))).not.toThrow();
  });

  it('takes over a lock left by a run that died (older than 10 s)', () => {
    writeFileSync(lock, '');
    age(lock, 11);
    const work = vi.fn();
    withLock(file, work);
    expect(work).toHaveBeenCalledOnce();
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for a fresh lock, then gives up after 5 s naming the file, without running the work', () => {
    writeFileSync(lock, '');
    // Each look at the clock finds a second gone by; the lock stays 0 to a few seconds old.
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
    const work = vi.fn();
    expect(() => withLock(file, work)).toThrow(
      new ConfigError(
        `the config file is locked by another plants run (${lock}); if none is running, remove that file`,
      ),
    );
    expect(work).not.toHaveBeenCalled();
    // Another run's lock is left alone.
    expect(existsSync(lock)).toBe(true);
  });

  it('waits while another run holds the lock, and goes ahead once it is released', () => {
    writeFileSync(lock, '');
    const start = Date.now();
    let calls = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => {
      calls++;
      // The other run finishes after the first look at the lock.
      if (calls === 3) unlinkSync(lock);
      return start + calls * 1000;
    });
    const work = vi.fn(() => expect(existsSync(lock)).toBe(true));
    withLock(file, work);
    expect(work).toHaveBeenCalledOnce();
    expect(existsSync(lock)).toBe(false);
  });

  it('goes ahead when the lock is released just as it looks at its age', () => {
    writeFileSync(lock, '');
    const start = Date.now();
    let calls = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => {
      calls++;
      if (calls === 2) unlinkSync(lock);
      return start;
    });
    const work = vi.fn();
    withLock(file, work);
    expect(work).toHaveBeenCalledOnce();
  });

  it('is a ConfigError when the lock cannot be made (no such directory)', () => {
    const missing = join(dir.path, 'gone', 'config.json');
    const work = vi.fn();
    expect(() => withLock(missing, work)).toThrow(
      new ConfigError(
        `cannot write the config file ${missing}: cannot create its lock file ${missing}.lock: no such file or directory (ENOENT); nothing was changed`,
      ),
    );
    expect(work).not.toHaveBeenCalled();
  });

  it('is a ConfigError, not an endless wait, when an old stale lock cannot be removed (a directory)', () => {
    mkdirSync(lock);
    age(lock, 60);
    const work = vi.fn();
    expect(() => withLock(file, work)).toThrow(
      /^cannot write the config file .*: cannot remove the stale lock file .*config\.json\.lock: .*; nothing was changed$/,
    );
    expect(work).not.toHaveBeenCalled();
  });
});
