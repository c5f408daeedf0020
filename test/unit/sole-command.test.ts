import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, soleCommand } from '../../src/cli.js';
import { createContext } from '../../src/context.js';
import { fakeIO } from '../helpers/io.js';

const context = () => createContext({ io: fakeIO().io, env: {} });

/** Each command under `command` (itself included) by its path, with its help. */
function helpOf(command: Command, path: string[] = []): Map<string, string> {
  const helps = new Map<string, string>();
  helps.set(path.join(' '), command.helpInformation());
  for (const sub of command.commands)
    for (const [key, help] of helpOf(sub, [...path, sub.name()])) helps.set(key, help);
  return helps;
}

describe('a run builds only the command it names (soleCommand in src/cli.ts)', () => {
  const whole = buildProgram(context());
  const names = whole.commands
    .map((command) => command.name())
    .filter((name) => !['help', '__complete'].includes(name));

  it('knows every command of the tree', () => {
    expect(names).toEqual(['list', 'delete', 'prune', 'history', 'api', 'config', 'auth', 'completion']);
    for (const name of names) expect(soleCommand([name])?.name).toBe(name);
  });

  for (const name of names) {
    it(`${name}, built alone: the same command, subcommands and help as in the whole tree`, () => {
      const alone = buildProgram(context(), ['--profile', 'staging', name, '--json']);
      expect(alone.commands.map((command) => command.name())).toEqual([name, 'help']);
      const wholeHelps = helpOf(whole.commands.find((command) => command.name() === name)!);
      expect(helpOf(alone.commands[0]!)).toEqual(wholeHelps);
      expect(alone.options.map((option) => option.flags)).toEqual(whole.options.map((option) => option.flags));
    });
  }

  it('builds the whole tree for help asked before the command, help, __complete, no command or an unknown one', () => {
    for (const argv of [
      ['--help', 'list'],
      ['-h', 'delete', '1'],
      ['help', 'list'],
      ['__complete', '--', 'plants', 'li'],
      [],
      ['--json'],
      ['lst'],
      ['--', 'list'],
      // A global option's value that names a command is not the command: help before the command still counts.
      ['--profile', 'list', '-h', 'list'],
    ]) {
      expect(soleCommand(argv), argv.join(' ')).toBeUndefined();
      expect(buildProgram(context(), argv).commands.map((command) => command.name())).toEqual([
        ...names,
        '__complete',
        'help',
      ]);
    }
    expect(helpOf(buildProgram(context(), ['--help', 'list']))).toEqual(helpOf(whole));
  });
});
