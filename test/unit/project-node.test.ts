import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { oldNode, present, withoutOldNode } from '../helpers/old-node.js';
import { runCommand } from '../helpers/command.js';

// The project's scripts run on its own Node.js (the exact `node` dev
// dependency, first on every npm script's PATH), whatever the system has. npm
// checks engine ranges against the Node.js that runs npm, so its warnings are
// turned off (.npmrc); these tests check what those warnings would have, and
// against the right Node.js.

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  devDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
}
const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
const project = manifest(ROOT);
const pinned = project.devDependencies!.node!;

/** Every package installed under node_modules, nested ones too. */
function installed(dir = join(ROOT, 'node_modules')): { dir: string; pkg: Manifest }[] {
  const found: { dir: string; pkg: Manifest }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const names = entry.name.startsWith('@')
      ? readdirSync(join(dir, entry.name)).map((name) => join(entry.name, name))
      : [entry.name];
    for (const name of names) {
      const path = join(dir, name);
      try {
        found.push({ dir: path, pkg: manifest(path) });
      } catch {
        continue;
      }
      try {
        found.push(...installed(join(path, 'node_modules')));
      } catch {
        // no nested node_modules
      }
    }
  }
  return found;
}

describe("the project's own Node.js", () => {
  it('is one exact version, a supported one, and the one node_modules/.bin/node runs', () => {
    expect(semver.valid(pinned), 'an exact version in devDependencies').toBe(pinned);
    expect(semver.satisfies(pinned, project.engines!.node!)).toBe(true);
    const bin = join(ROOT, 'node_modules', '.bin', 'node');
    expect(runCommand(bin, ['--version']).trim()).toBe(`v${pinned}`);
  });

  it("meets every installed package's engine range (what npm would warn about, checked against the right Node.js)", () => {
    const unmet = installed()
      .filter(
        ({ pkg }) => pkg.engines?.node && !semver.satisfies(pinned, pkg.engines.node, { includePrerelease: true }),
      )
      .map(({ pkg }) => `${pkg.name}@${pkg.version} wants node ${pkg.engines!.node}`);
    expect(unmet).toEqual([]);
  });

  // Only under `npm test`, which puts node_modules/.bin first; vitest run by hand may use another Node.js.
  it.skipIf(process.env.npm_lifecycle_event !== 'test')('runs the tests under npm test', () => {
    expect(process.version).toBe(`v${pinned}`);
  });
});

describe('the CLI', () => {
  it('bundles only libraries that run on every Node.js it claims to support', () => {
    const bundled = ['commander', 'undici', 'conf', 'chalk', 'cli-table3'];
    for (const name of bundled) {
      const range = manifest(join(ROOT, 'node_modules', name)).engines?.node;
      if (range) expect(semver.subset(project.engines!.node!, range), `${name} wants node ${range}`).toBe(true);
    }
  });
});

describe('scripts/project-node.js, the first step of the scripts', () => {
  const script = join(ROOT, 'scripts', 'project-node.js');
  const run = (node: string, env: Record<string, string>) =>
    spawnSync(node, [script], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  const old = oldNode();

  it.skipIf(withoutOldNode(old))('names the Node.js that runs the scripts, once, when npm runs on another', () => {
    const { bin, version } = present(old);
    const top = run(process.execPath, { npm_node_execpath: join(bin, 'node'), npm_lifecycle_event: 'test' });
    expect(top.stderr).toBe(
      `Node.js ${process.version} (${process.version === `v${pinned}` ? "the project's own, from the `node` dev dependency" : 'found on PATH'}) ` +
        `runs the project's scripts; the system's Node.js is ${version}.\n`,
    );
    expect(top.status).toBe(0);
  });

  it('says nothing when npm runs on the same Node.js (a script that runs npm run …)', () => {
    // The outer npm's user agent is handed down as it was: it names the system's Node.js.
    const nested = run(process.execPath, {
      npm_node_execpath: process.execPath,
      npm_lifecycle_event: 'build',
      npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
    });
    expect(nested.stderr).toBe('');
    expect(nested.stdout).toBe('');
    expect(nested.status).toBe(0);
  });

  it.skipIf(withoutOldNode(old))('stops with one line on a Node.js too old, saying to run npm ci', () => {
    const { bin, version } = present(old);
    const r = run(join(bin, 'node'), { npm_node_execpath: join(bin, 'node'), npm_lifecycle_event: 'demo' });
    expect(r.stderr).toBe(
      `npm run demo needs Node.js 22.19 or newer, and the project's own Node.js is not installed (this is ${version}): ` +
        'run `npm ci` first, without --ignore-scripts.\n',
    );
    expect(r.status).toBe(1);
  });
});
