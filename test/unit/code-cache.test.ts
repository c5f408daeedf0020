import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { COMMANDS } from '../../src/code-cache.js';
import { createContext } from '../../src/context.js';
import { fakeIO } from '../helpers/io.js';

describe('the code cache', () => {
  it('names its data after the commands of the command tree (help among them)', () => {
    const program = buildProgram(createContext({ io: fakeIO().io, env: {} }));
    expect([...COMMANDS].sort()).toEqual(program.commands.map((command) => command.name()).sort());
  });
});
