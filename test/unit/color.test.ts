import { describe, expect, it } from 'vitest';
import { colorWanted } from '../../src/output/iostreams.js';

describe('colorWanted: --no-color > NO_COLOR > FORCE_COLOR > TERM=dumb > terminal', () => {
  it.each([
    [true, {}, false, true],
    [false, {}, false, false],
    [true, {}, true, false],
    [true, { NO_COLOR: '1' }, false, false],
    [true, { NO_COLOR: '' }, false, true],
    [false, { FORCE_COLOR: '1' }, false, true],
    [true, { FORCE_COLOR: '0' }, false, false],
    [true, { FORCE_COLOR: 'false' }, false, false],
    [false, { FORCE_COLOR: '1', NO_COLOR: '1' }, false, false],
    [false, { FORCE_COLOR: '3' }, true, false],
    [true, { TERM: 'dumb' }, false, false],
    [false, { TERM: 'dumb', FORCE_COLOR: '1' }, false, true],
  ])('terminal=%s env=%j --no-color=%s → %s', (isTTY, env, flag, expected) => {
    expect(colorWanted(isTTY, env, flag)).toBe(expected);
  });
});
