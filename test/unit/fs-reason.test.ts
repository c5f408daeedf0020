import { describe, expect, it } from 'vitest';
import { errorCode, fsReason } from '../../src/shared/fs-reason.js';

describe('fsReason: why a file operation failed, in one line', () => {
  it('gives the description and the code, without the syscall or path', () => {
    const err = Object.assign(new Error("ENOSPC: no space left on device, write '/x'"), { errno: -28, code: 'ENOSPC' });
    expect(fsReason(err)).toBe('no space left on device (ENOSPC)');
  });

  it('falls back to the first line of the message for an errno nobody knows', () => {
    const err = Object.assign(new Error('strange failure\nwith details'), { errno: -987654 });
    expect(fsReason(err)).toBe('strange failure');
  });

  it('uses the message of an error without errno, and the value itself otherwise', () => {
    expect(fsReason(new Error('it is not a JSON object'))).toBe('it is not a JSON object');
    expect(fsReason(new Error(''))).toBe('Error');
    expect(fsReason('plain text')).toBe('plain text');
    expect(fsReason(undefined)).toBe('undefined');
    expect(fsReason({ message: 42 })).toBe('[object Object]');
  });
});

describe('errorCode', () => {
  it('is the code, or undefined for anything without one', () => {
    expect(errorCode(Object.assign(new Error('x'), { code: 'EEXIST' }))).toBe('EEXIST');
    expect(errorCode(new Error('x'))).toBeUndefined();
    expect(errorCode(undefined)).toBeUndefined();
  });
});
