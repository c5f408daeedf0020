import fs, { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeToFd } from '../../src/output/write-now.js';
import { tempDir } from '../helpers/cli.js';

let dir: ReturnType<typeof tempDir>;
let file: string;
let fd: number;
beforeEach(() => {
  dir = tempDir();
  file = join(dir.path, 'out');
  fd = openSync(file, 'w');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  closeSync(fd);
  dir.remove();
});

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('writeToFd: the last words of a run, written before it exits', () => {
  it('writes all of the text, multi-byte characters included', () => {
    writeToFd(fd, 'interrupted ✗ – bye\n');
    expect(readFileSync(file, 'utf8')).toBe('interrupted ✗ – bye\n');
  });

  it('writes nothing for an empty text', () => {
    const write = vi.spyOn(fs, 'writeSync');
    writeToFd(fd, '');
    expect(write).not.toHaveBeenCalled();
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  it('keeps writing what a full pipe did not take, waiting while it is full (EAGAIN)', () => {
    const real = fs.writeSync.bind(fs) as (fd: number, buffer: Buffer) => number;
    let calls = 0;
    vi.spyOn(fs, 'writeSync').mockImplementation(((target: number, buffer: Buffer) => {
      calls++;
      if (calls === 2) throw errno('EAGAIN');
      // A pipe takes at most 4 bytes at a time.
      return real(target, buffer.subarray(0, 4));
    }) as typeof fs.writeSync);
    writeToFd(fd, 'interrupted\n');
    expect(readFileSync(file, 'utf8')).toBe('interrupted\n');
  });

  it('gives up when the reader has gone (EPIPE), without throwing', () => {
    const write = vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw errno('EPIPE');
    });
    expect(writeToFd(fd, 'bye\n')).toBeUndefined();
    expect(write).toHaveBeenCalledTimes(1);
  });

  it.runIf(fs.existsSync('/dev/full'))('returns ENOSPC for a full device (/dev/full), after one try', () => {
    const full = openSync('/dev/full', 'w');
    try {
      expect(writeToFd(full, 'Usage: plants\n')).toMatchObject({ code: 'ENOSPC', syscall: 'write' });
    } finally {
      closeSync(full);
    }
  });

  it('returns any other error, without throwing: a full disk (ENOSPC) is for the caller to report', () => {
    const write = vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw errno('ENOSPC');
    });
    expect(writeToFd(fd, 'Usage: plants\n')).toMatchObject({ code: 'ENOSPC' });
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('gives up on a pipe that stays full, after its patience runs out', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let calls = 0;
    vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      calls++;
      // Eleven seconds pass each time the pipe is found full.
      vi.setSystemTime(Date.now() + 11_000 * (calls > 1 ? 1 : 0));
      throw errno('EAGAIN');
    });
    expect(writeToFd(fd, 'bye\n')).toBeUndefined();
    expect(calls).toBe(2);
  });
});
