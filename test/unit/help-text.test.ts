import type { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { createContext } from '../../src/context.js';
import { inProcess } from '../helpers/in-process.js';
import { fakeIO } from '../helpers/io.js';

const TOKEN = 'help-text-test-token';
const { plants } = inProcess(TOKEN);

/** Every visible command of the tree, with its path below `plants`. */
function visibleCommands(command: Command, path: string[] = []): [string[], Command][] {
  return command.commands
    .filter((sub) => !(sub as Command & { _hidden?: boolean })._hidden)
    .flatMap((sub) => {
      const subPath = [...path, sub.name()];
      return [[subPath, sub] as [string[], Command], ...visibleCommands(sub, subPath)];
    });
}

const tree = visibleCommands(buildProgram(createContext({ io: fakeIO().io, env: {} })));

describe('the help of every command', () => {
  it('covers the commands users type', () => {
    const paths = tree.map(([path]) => path.join(' '));
    for (const path of [
      'list',
      'prune',
      'help',
      'completion',
      'config use',
      'config help',
      'auth status',
      'auth help',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it.each(tree.map(([path, command]) => [path.join(' '), command] as const))(
    '%s: describes the command, each argument and each option',
    (_path, command) => {
      expect(command.description()).not.toBe('');
      for (const argument of command.registeredArguments) expect(argument.description, argument.name()).not.toBe('');
      for (const option of command.options) expect(option.description, option.flags).not.toBe('');
    },
  );

  it.each(tree.filter(([path]) => path.at(-1) !== 'help').map(([path]) => [path.join(' '), path] as const))(
    '%s --help: each example is a plants command line of its own',
    async (_name, path) => {
      const r = await plants([...path, '--help']);
      expect(r.code).toBe(0);
      const examples = r.stdout().split('\nExamples:\n')[1]?.split('\n\n')[0];
      expect(examples).toBeDefined();
      const lines = examples!.split('\n').filter((line) => line !== '');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(/^ {2}(\S.*)?\bplants \S/);
    },
  );
});

describe('plants help', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('names every near match when several are as close', async () => {
    const r = await plants(['help', 'config', 'sget']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe("plants: unknown command 'config sget' (Did you mean one of config get, config set?)\n");
  });

  it('names the whole path typed when a command has no subcommands', async () => {
    const r = await plants(['help', 'config', 'set', 'base-url']);
    expect(r.code).toBe(2);
    expect(r.stderr()).toBe("plants: unknown command 'config set base-url' (see plants config set --help)\n");
  });

  it('writes nothing to the process streams: only the one error line, through the io object', async () => {
    const write = vi.spyOn(process.stderr, 'write');
    const out = vi.spyOn(process.stdout, 'write');
    const r = await plants(['help', 'lst']);
    expect(r.stderr()).toBe("plants: unknown command 'lst' (Did you mean list?)\n");
    expect(write).not.toHaveBeenCalled();
    expect(out).not.toHaveBeenCalled();
  });
});

describe("the help's own sections at the terminal's width", () => {
  it.each([60, 80, 100])(
    'at %i columns, exit codes and environment wrap under their text, not mid-word',
    async (columns) => {
      const r = await plants(['--help'], { tty: true, columns });
      expect(r.code).toBe(0);
      const footer = r.stdout().slice(r.stdout().indexOf('\nExamples:'));
      for (const line of footer.split('\n')) expect(line.length, line).toBeLessThanOrEqual(columns);
      // A wrapped line goes on under the text of its entry.
      expect(footer).toMatch(/^ {2}PLANTS_STATE_DIR {5}directory of the deletion journal,?/m);
      expect(footer).not.toMatch(/\S-\n/);
    },
  );
});
