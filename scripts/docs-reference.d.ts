// Types of docs-reference.js, for test/unit/docs-reference.test.ts.
import type { Command } from 'commander';

export declare const GLOBAL: string;
export declare function findCommand(program: Command, path: string): Command | undefined;
export declare function renderPart(program: Command, name: string): string;
export declare function partNames(program: Command): string[];
export declare function fill(page: string, program: Command): string;
export declare function staleParts(page: string, program: Command): string[];
