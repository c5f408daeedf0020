import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildId } from '../../tsup.config.js';
import { ROOT, tempDir } from '../helpers/cli.js';
import { runCommandAsync } from '../helpers/command.js';

// Two builds of the same sources give the same bytes, wherever and whenever
// they run: what is published can be checked against the repository.

const work = tempDir('plants-reproducible-');
afterAll(() => work.remove());

/**
 * A copy of the working tree (uncommitted changes included) at `name`, with
 * the repository's node_modules linked in. Built there, not in ROOT: the
 * other tests read ROOT/dist while this runs.
 */
function copyOfTree(name: string): string {
  const to = join(work.path, name);
  const skipped = new Set(['node_modules', 'dist', '.git']);
  cpSync(ROOT, to, { recursive: true, filter: (from) => !skipped.has(relative(ROOT, from).split(sep)[0]!) });
  symlinkSync(join(ROOT, 'node_modules'), join(to, 'node_modules'), 'dir');
  return to;
}

/** Every file under `dir`, as sorted paths relative to it. */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();

/** Where two files first differ, with a little context, or undefined when they do not. */
function firstDifference(a: Buffer, b: Buffer): string | undefined {
  if (a.equals(b)) return undefined;
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const excerpt = (buffer: Buffer) => JSON.stringify(buffer.subarray(Math.max(0, at - 30), at + 30).toString('utf8'));
  return `byte ${at}: ${excerpt(a)} vs ${excerpt(b)}`;
}

describe('the build', () => {
  it('is reproducible: `npm run build` in two directories gives byte-identical dist/', async () => {
    // Different names and lengths: no absolute path may leak into the output.
    const trees = [copyOfTree('a'), copyOfTree('second-checkout')];
    // Nor the builder's locale (Lithuanian sorts "y" between "i" and "j") or time zone.
    const elsewhere = [{}, { LC_ALL: 'lt_LT.UTF-8', TZ: 'Pacific/Kiritimati' }];
    await Promise.all(
      trees.map((cwd, i) =>
        runCommandAsync('npm', ['run', 'build', '--silent'], {
          cwd,
          env: { ...process.env, npm_config_update_notifier: 'false', ...elsewhere[i] },
        }),
      ),
    );
    const [a, b] = trees.map((tree) => join(tree, 'dist')) as [string, string];
    const files = filesUnder(a);
    expect(files).toContain('plants.cjs');
    expect(files).toContain('plants.1');
    expect(files).toContain('THIRD-PARTY-LICENSES.md');
    expect(filesUnder(b)).toEqual(files);
    const differences = files.flatMap((file) => {
      const difference = firstDifference(readFileSync(join(a, file)), readFileSync(join(b, file)));
      return difference ? [`${file} at ${difference}`] : [];
    });
    expect(differences).toEqual([]);
  }, 60_000);
});

describe('the build id (names the code cache files)', () => {
  /** A small tree with the files the id is made from. */
  function tree(name: string, files: Record<string, string>): string {
    const root = join(work.path, name);
    for (const [path, contents] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), contents);
    }
    return root;
  }
  const base = {
    'package.json': '{"version":"1.0.0"}',
    'package-lock.json': '{}',
    'tsconfig.json': '{}',
    'tsup.config.ts': 'export default {};',
    'src/main.ts': 'main();',
    'src/api/client.ts': 'client();',
    'build/start-up.ts': 'plugins();',
  };

  it('depends on the contents only, not on where the tree is', () => {
    const id = buildId(tree('id-a', base));
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(buildId(tree('id-b-elsewhere', base))).toBe(id);
    expect(buildId(tree('id-c', base) + '/')).toBe(id);
  });

  it('changes with any file the bundles are made from, and with a file moved', () => {
    const id = buildId(tree('id-base', base));
    const changed = [
      { ...base, 'src/api/client.ts': 'client(1);' },
      { ...base, 'src/new.ts': '' },
      { ...base, 'build/start-up.ts': 'plugins(1);' },
      { ...base, 'package-lock.json': '{"lockfileVersion":3}' },
      { ...base, 'tsconfig.json': '{"compilerOptions":{}}' },
      { ...base, 'tsup.config.ts': 'export default [];' },
      { ...base, 'package.json': '{"version":"1.0.1"}' },
    ];
    const ids = changed.map((files, i) => buildId(tree(`id-changed-${i}`, files)));
    const { 'src/api/client.ts': client, ...rest } = base;
    ids.push(buildId(tree('id-moved', { ...rest, 'src/client.ts': client })));
    for (const other of ids) expect(other).not.toBe(id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
