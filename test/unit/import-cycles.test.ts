import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// No module under src/ may import one that imports it back, however far round
// (docs/architecture.md): a circle has no direction, and a command's folder should have one.

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every .ts file below src/, relative to it, with `/`. */
function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(SRC, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * What a module loads when it runs: the specifiers of its static imports and
 * of its `export … from`. Not `import type` nor `export type … from` (erased
 * at build time), nor `import()` (loaded later, on demand).
 */
function runtimeSpecifiers(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword) continue;
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers;
}

/** The import graph of src/: each module (relative to src/) and the modules of src/ it loads. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const path = join(SRC, file);
    const imported = runtimeSpecifiers(file, readFileSync(path, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => {
        // The sources import each other by the name of what they build to: `./x.js` is `./x.ts`.
        const target = resolve(dirname(path), specifier.replace(/\.js$/, '.ts'));
        // An import the walk cannot follow would hide a circle: none is let by.
        if (!existsSync(target)) throw new Error(`${file}: cannot follow the import of ${specifier}`);
        return relative(SRC, target).split(sep).join('/');
      })
      .filter((target) => target.endsWith('.ts') && !target.startsWith('..'));
    graph.set(file, imported);
  }
  return graph;
}

/** Every circle in a graph, each named by the path that closes it: `a.ts → b.ts → a.ts`. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string): void => {
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) cycles.push([...path.slice(at), next].join(' → '));
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) if (!done.has(node)) visit(node);
  return cycles;
}

describe('imports in src/', () => {
  it('no module under src/ imports one that (transitively) imports it back', () => {
    const graph = importGraph();
    // The walk sees the tree: the entry reaches the command tree, and a command its run.
    expect(graph.get('cli.ts')).toContain('commands/delete.ts');
    expect(graph.get('commands/delete.ts')).toContain('commands/deletion-run.ts');
    const cycles = findCycles(graph);
    expect(cycles, `import circles in src/:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('finds a circle however far round, and names it', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(findCycles(graph)).toEqual(['a.ts → b.ts → c.ts → a.ts', 'e.ts → e.ts']);
    expect(
      findCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
          ['c.ts', ['b.ts']],
        ]),
      ),
    ).toEqual([]);
  });

  it('follows imports and re-exports, not import type nor import()', () => {
    const text = [
      "import { a } from './a.js';",
      "import './b.js';",
      "import { type C } from './c.js';",
      "import type { D } from './d.js';",
      "export { e } from './e.js';",
      "export * from './f.js';",
      "export type { G } from './g.js';",
      "const h = await import('./h.js');",
      "// import { i } from './i.js';",
    ].join('\n');
    // `import { type C }` stays: with verbatimModuleSyntax it still loads ./c.js.
    expect(runtimeSpecifiers('x.ts', text)).toEqual(['./a.js', './b.js', './c.js', './e.js', './f.js']);
  });
});
