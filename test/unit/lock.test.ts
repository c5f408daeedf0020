import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withLock } from '../../src/config/lock.js';
import { ConfigError } from '../../src/shared/errors.js';
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

/** Above the largest pid Linux hands out (pid_max is at most 2^22): a run that has ended. */
const ENDED_PID = 2 ** 22 + 1;
/** init: alive in every pid namespace (as another user's, kill(1, 0) answers EPERM: alive too). */
const LIVE_PID = 1;

/** A lock (or a claim) file as a run with `pid` on `host` leaves it. */
function leaveLock(path: string, pid: number, id: string, host = hostname()): void {
  writeFileSync(path, JSON.stringify({ pid, host, id }));
}

/** A clock that moves a second on at each look: a run that waits for a live lock gives up within the test. */
function fastClock(): void {
  let now = Date.now();
  vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
}

/** How a run that waited for a live lock gives up. */
const locked = () =>
  new ConfigError(`the config file is locked by another plants run (${lock}); if none is running, remove that file`);

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

describe('withLock: a lock whose owner is gone', () => {
  it('records the pid and host of the run that holds it', () => {
    let seen: unknown;
    withLock(file, () => {
      seen = JSON.parse(readFileSync(lock, 'utf8'));
    });
    expect(seen).toEqual({
      pid: process.pid,
      host: hostname(),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
    });
  });

  it('takes over at once, without waiting, a fresh lock of a run of this host that has ended', () => {
    leaveLock(lock, ENDED_PID, 'dead-run');
    fastClock();
    const debug: string[] = [];
    const work = vi.fn();
    withLock(file, work, (line) => debug.push(line));
    expect(work).toHaveBeenCalledOnce();
    expect(debug).toEqual([`removed ${lock}, the lock of run ${ENDED_PID}, which has ended`]);
    expect(readdirSync(dir.path)).toEqual([]);
  });

  it('takes over at once a lock naming this process, left by an earlier one given the same pid', () => {
    leaveLock(lock, process.pid, 'earlier-run');
    fastClock();
    const work = vi.fn();
    withLock(file, work);
    expect(work).toHaveBeenCalledOnce();
  });

  it.each([
    ['a live run of this host', LIVE_PID, hostname()],
    ['a run of another host, whose pid means nothing here', ENDED_PID, `not-${hostname()}`],
  ])('waits for the fresh lock of %s, and gives up after 5 s', (_case, pid, host) => {
    leaveLock(lock, pid, 'other-run', host);
    fastClock();
    const work = vi.fn();
    expect(() => withLock(file, work)).toThrow(locked());
    expect(work).not.toHaveBeenCalled();
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ id: 'other-run' });
  });

  it('takes over the lock of a live pid once older than 10 s: the pid may be another process now', () => {
    leaveLock(lock, LIVE_PID, 'reused-pid');
    age(lock, 11);
    const debug: string[] = [];
    withLock(file, vi.fn(), (line) => debug.push(line));
    expect(debug).toEqual([`removed ${lock}, the lock of a run that has held it for 11 s`]);
  });

  it('leaves a stale lock to the run already taking it over (its claim), and waits', () => {
    leaveLock(lock, ENDED_PID, 'dead-run');
    leaveLock(`${lock}.dead-run.takeover`, LIVE_PID, 'taker');
    fastClock();
    const work = vi.fn();
    expect(() => withLock(file, work)).toThrow(locked());
    expect(work).not.toHaveBeenCalled();
    expect(readdirSync(dir.path).sort()).toEqual(['config.json.lock', 'config.json.lock.dead-run.takeover']);
  });

  it('takes over the claim of a run that died while taking the lock over, then the lock', () => {
    leaveLock(lock, ENDED_PID, 'dead-run');
    leaveLock(`${lock}.dead-run.takeover`, ENDED_PID + 1, 'dead-taker');
    const debug: string[] = [];
    const work = vi.fn();
    withLock(file, work, (line) => debug.push(line));
    expect(work).toHaveBeenCalledOnce();
    expect(debug).toEqual([
      `removed ${lock}.dead-run.takeover, the lock of run ${ENDED_PID + 1}, which has ended`,
      `removed ${lock}, the lock of run ${ENDED_PID}, which has ended`,
    ]);
    expect(readdirSync(dir.path)).toEqual([]);
  });

  it('never removes the lock another run made after the stale one was found (no lost update)', () => {
    leaveLock(lock, ENDED_PID, 'dead-run');
    // Just after this run has read the stale lock, a faster run takes it over and makes its own.
    const start = Date.now();
    let calls = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => {
      calls++;
      if (calls === 2) {
        unlinkSync(lock);
        leaveLock(lock, LIVE_PID, 'faster-run');
      }
      return start + calls * 1000;
    });
    const work = vi.fn();
    expect(() => withLock(file, work)).toThrow(locked());
    expect(work).not.toHaveBeenCalled();
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ id: 'faster-run' });
    expect(readdirSync(dir.path)).toEqual(['config.json.lock']);
  });

  it('removes only its own lock when done, never the one of a run that took it over meanwhile', () => {
    withLock(file, () => {
      unlinkSync(lock);
      leaveLock(lock, LIVE_PID, 'took-over');
    });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ id: 'took-over' });
  });
});
