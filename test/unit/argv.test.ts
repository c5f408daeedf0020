import { describe, expect, it } from 'vitest';
import { asksVersionOnly, commandAt, scanArgv, wordsAfterDoubleDash, type TakesValue } from '../../src/startup/argv.js';

describe('the argv pre-scan (src/startup/argv.ts)', () => {
  it('finds the command: the first word that is neither an option nor a global option’s value', () => {
    expect(commandAt(['list'])).toBe(0);
    expect(commandAt(['--debug', 'list', 'x'])).toBe(1);
    expect(commandAt(['--profile', 'list', 'delete'])).toBe(2);
    for (const option of ['--profile', '--base-url', '--timeout', '--retries', '--max-response-size']) {
      expect(commandAt([option, 'value', 'history']), option).toBe(2);
    }
    // `--opt=value` is one word; `-` alone starts with a dash, as commander reads it.
    expect(commandAt(['--timeout=5', 'history'])).toBe(1);
    expect(commandAt(['-', 'list'])).toBe(1);
    expect(commandAt([])).toBe(-1);
    expect(commandAt(['--help'])).toBe(-1);
    // A value at the very end, and the words after `--`, are not commands.
    expect(commandAt(['--profile'])).toBe(-1);
    expect(commandAt(['--', 'list'])).toBe(-1);
    expect(commandAt(['--debug', '--', 'list'])).toBe(-1);
  });

  it('finds the `--` that ends the options, not one that is an option’s value', () => {
    expect(scanArgv(['delete', '--', '-'])).toEqual({ firstOperand: 0, doubleDash: 1 });
    expect(scanArgv(['--profile', '--', 'list'])).toEqual({ firstOperand: 2, doubleDash: -1 });
    expect(scanArgv(['--', '--'])).toEqual({ firstOperand: -1, doubleDash: 0 });
    expect(scanArgv(['a', 'b', '--', 'c'])).toEqual({ firstOperand: 0, doubleDash: 2 });
    expect(scanArgv([])).toEqual({ firstOperand: -1, doubleDash: -1 });
  });

  it('counts the words after `--`, with the values of the options it is given skipped', () => {
    const takesFile: TakesValue = (args, at) => args[at] === '--file';
    expect(wordsAfterDoubleDash(['1', '--', '-', '2'])).toBe(2);
    expect(wordsAfterDoubleDash(['1', '--'])).toBe(0);
    expect(wordsAfterDoubleDash(['1', '2'])).toBe(0);
    expect(wordsAfterDoubleDash(['--file', '--', 'x'], takesFile)).toBe(0);
    expect(wordsAfterDoubleDash(['--file', 'f', '--', 'x', 'y'], takesFile)).toBe(2);
    // Without that option's rule, its value `--` ends the options.
    expect(wordsAfterDoubleDash(['--file', '--', 'x'])).toBe(1);
  });

  it('knows a run that asks for the version alone', () => {
    expect(asksVersionOnly(['--version'])).toBe(true);
    expect(asksVersionOnly(['-V'])).toBe(true);
    expect(asksVersionOnly([])).toBe(false);
    expect(asksVersionOnly(['--version', 'list'])).toBe(false);
    expect(asksVersionOnly(['list', '--version'])).toBe(false);
    expect(asksVersionOnly(['-v'])).toBe(false);
    expect(asksVersionOnly(['--versions'])).toBe(false);
  });
});
