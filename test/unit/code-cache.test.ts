import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { GLOBAL_VALUE_OPTIONS } from '../../src/startup/argv.js';
import { bundleAndBuild, cacheName, commandOf } from '../../src/startup/code-cache.js';
import { createContext } from '../../src/context.js';
import { fakeIO } from '../helpers/io.js';

const program: Command = buildProgram(createContext({ io: fakeIO().io, env: {} }));

describe('the code cache', () => {
  it('names its data after the command a run names, whatever the commands are', () => {
    for (const command of program.commands) expect(commandOf([command.name(), 'x'])).toBe(command.name());
    expect(commandOf(['--profile', 'staging', 'list'])).toBe('list');
    expect(commandOf(['--base-url', 'https://a.test', '--debug', 'delete', '1'])).toBe('delete');
    expect(commandOf(['--timeout=5', 'history'])).toBe('history');
    expect(commandOf(['--help'])).toBe('main');
    expect(commandOf([])).toBe('main');
    expect(commandOf(['--', 'list'])).toBe('main');
    // Nothing a user typed becomes a file name unless it looks like a command's.
    expect(commandOf(['../../x'])).toBe('main');
    expect(commandOf(['A'.repeat(5)])).toBe('main');
  });

  it('keeps a run whose base URL and token both come from the environment apart', () => {
    expect(cacheName(['list'], {})).toBe('list');
    expect(cacheName(['list'], { PLANTS_BASE_URL: 'https://a.test' })).toBe('list');
    expect(cacheName(['list'], { PLANTS_TOKEN: 't' })).toBe('list');
    expect(cacheName(['list'], { PLANTS_BASE_URL: 'https://a.test', PLANTS_TOKEN: 't' })).toBe('list+env');
    expect(cacheName(['--help'], { PLANTS_BASE_URL: 'https://a.test', PLANTS_TOKEN: 't' })).toBe('main+env');
    expect(bundleAndBuild('cli-97818ee0f2b36e5f-v24.21.0-x64-list+env.v8')).toEqual(['cli', '97818ee0f2b36e5f']);
  });

  it('knows every global option that takes a value, so that no value is taken for a command', () => {
    const takesValue = (program.options as Option[]).filter((option) => option.required || option.optional);
    expect(takesValue.map((option) => option.long).sort()).toEqual([...GLOBAL_VALUE_OPTIONS].sort());
  });

  it("reads a data file's bundle and build back from its name, dashes in the bundle's name or the command's included", () => {
    expect(bundleAndBuild('cli-97818ee0f2b36e5f-v24.21.0-x64-list.v8')).toEqual(['cli', '97818ee0f2b36e5f']);
    // Two bundles whose names share a start are two bundles: each run removes only its own bundle's old data.
    expect(bundleAndBuild('conf-lazy-97818ee0f2b36e5f-v24.21.0-x64-config.v8')).toEqual([
      'conf-lazy',
      '97818ee0f2b36e5f',
    ]);
    expect(bundleAndBuild('conf-0123abcd-v26.0.0-nightly20260101-arm64-some-command.v8')).toEqual(['conf', '0123abcd']);
    // Not a data file: left alone.
    expect(bundleAndBuild('cli-97818ee0f2b36e5f-v24.21.0-x64-list.v8.123.tmp')).toBeUndefined();
    expect(bundleAndBuild('notes.txt')).toBeUndefined();
  });
});
