import { describe, expect, it } from 'vitest';
import { resolveRequestSettings } from '../../src/config/request-settings.js';
import { ConfigError } from '../../src/shared/errors.js';

describe('resolveRequestSettings: flags > PLANTS_* variables > defaults', () => {
  it('has defaults: 30 s per attempt, 2 retries, 256 MiB responses, no debug log', () => {
    expect(resolveRequestSettings({}, {})).toEqual({
      timeoutMs: 30_000,
      retries: 2,
      maxResponseBytes: 256 * 1024 * 1024,
      debug: false,
    });
  });

  it('reads PLANTS_TIMEOUT, PLANTS_RETRIES and PLANTS_DEBUG', () => {
    const env = { PLANTS_TIMEOUT: '2.5', PLANTS_RETRIES: '0', PLANTS_DEBUG: 'TRUE' };
    expect(resolveRequestSettings({}, env)).toEqual({
      timeoutMs: 2500,
      retries: 0,
      maxResponseBytes: 256 * 1024 * 1024,
      debug: true,
    });
  });

  it('lets the flags win, even when they turn something off', () => {
    const env = { PLANTS_TIMEOUT: '9', PLANTS_RETRIES: '5', PLANTS_DEBUG: '1' };
    expect(resolveRequestSettings({ timeout: 1, retries: 0, maxResponseSize: 1024, debug: false }, env)).toEqual({
      timeoutMs: 1000,
      retries: 0,
      maxResponseBytes: 1024,
      debug: false,
    });
  });

  it.each([
    ['1', true],
    ['yes', true],
    ['Yes', true],
    ['0', false],
    ['no', false],
    ['', false],
  ])('PLANTS_DEBUG=%j turns the debug log %s', (value, debug) => {
    expect(resolveRequestSettings({}, { PLANTS_DEBUG: value }).debug).toBe(debug);
  });

  it('names the variable when its value is bad, as a configuration error', () => {
    expect(() => resolveRequestSettings({}, { PLANTS_TIMEOUT: 'soon' })).toThrow(
      new ConfigError(
        'invalid environment variable PLANTS_TIMEOUT "soon": expected a number of seconds, more than 0 and at most 3600',
      ),
    );
    expect(() => resolveRequestSettings({}, { PLANTS_RETRIES: '11' })).toThrow(ConfigError);
  });
});
