// Types of command-tree.js, for the tests that read the tree as the scripts do.
import type { Command } from 'commander';
import type { Context } from '../src/context.js';

export declare const root: string;
export declare function treeContext(): Context;
export declare function builtProgram(): Command;
export declare function subcommands(command: Command): Command[];
export declare function afterHelp(command: Command): string;
export declare function sections(text: string): [string, string][];
