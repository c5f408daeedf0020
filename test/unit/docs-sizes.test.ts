import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';
import { CAPS, sizeProblems } from '../helpers/doc-checks.js';

// The sizes the issue sets: a README and a CHANGELOG read in minutes, a
// page of docs/ per subject, and docs/ in all (every file under it).

describe('sizeProblems, on a small repository', () => {
  let dir: ReturnType<typeof tempDir>;
  const file = (path: string, bytes: number) => {
    mkdirSync(join(dir.path, path, '..'), { recursive: true });
    writeFileSync(join(dir.path, path), 'x'.repeat(bytes));
  };
  beforeEach(() => {
    dir = tempDir('plants-sizes-');
    file('README.md', CAPS['README.md']);
    file('CHANGELOG.md', CAPS['CHANGELOG.md']);
    file('docs/a.md', CAPS.docsFile);
  });
  afterEach(() => dir.remove());

  it('at the caps exactly: nothing to say', () => {
    expect(sizeProblems(dir.path)).toEqual([]);
  });

  it('one byte over: names the file and its size', () => {
    file('README.md', CAPS['README.md'] + 1);
    file('CHANGELOG.md', CAPS['CHANGELOG.md'] + 1);
    file('docs/decisions/0001-x.md', CAPS.docsFile + 1);
    expect(sizeProblems(dir.path)).toEqual([
      'README.md is 12289 bytes, over 12288',
      'CHANGELOG.md is 12289 bytes, over 12288',
      'docs/decisions/0001-x.md is 25601 bytes, over 25600',
    ]);
  });

  it('docs/ in all counts every file under it, Markdown or not', () => {
    for (const name of ['b.md', 'c.md', 'd/e.md']) file(`docs/${name}`, CAPS.docsFile);
    expect(sizeProblems(dir.path)).toEqual([]);
    file('docs/d/shot.png', 1);
    expect(sizeProblems(dir.path)).toEqual(['docs/ is 102401 bytes in all, over 102400']);
  });
});

describe('the pages', () => {
  it('README.md and CHANGELOG.md ≤ 12 KB, each file of docs/ ≤ 25 KB, docs/ ≤ 100 KB in all', () => {
    expect(sizeProblems(ROOT)).toEqual([]);
  });
});
