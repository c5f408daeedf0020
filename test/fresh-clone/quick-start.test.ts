import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';
import { runCommand } from '../helpers/command.js';
import { oldNode, pathWithout, present, withoutOldNode } from '../helpers/old-node.js';

// The README's quick start as a newcomer meets it: a clean copy of the
// repository, a system Node.js older than the project supports first on
// PATH, nothing of this test run's environment (npm's variables, the
// project's node_modules/.bin), and exactly `npm ci && npm run demo`.
// Apart from test/e2e so that .ci/run's runs on other Node versions do not
// repeat it: it does not depend on the Node.js that runs the tests.

const node = oldNode();
const pinned = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: { node: string } })
  .devDependencies.node;

/**
 * The tracked files as they are now, committed or not (a clean clone, plus
 * the work in progress). Read-only: `git ls-files` takes no lock, where
 * `git stash create` refreshes the index under .git/index.lock and fails when
 * any other git command (an editor's, a prompt's) holds it at that moment.
 */
function checkout(into: string): void {
  const tracked = runCommand('git', ['ls-files', '-z'], { cwd: ROOT }).split('\0').filter(Boolean);
  for (const path of tracked) {
    // A tracked file deleted in the work tree is not in a clone of the work in progress either.
    if (!existsSync(join(ROOT, path))) continue;
    cpSync(join(ROOT, path), join(into, path), { recursive: true, verbatimSymlinks: true });
  }
}

/** An npm setting of this machine (npm hands them to the scripts it runs; else ask it). */
const npmSetting = (name: string) =>
  process.env[`npm_config_${name}`] ?? runCommand('npm', ['config', 'get', name]).trim();

/**
 * The environment of a newcomer's shell on this machine: this run's, without
 * what npm and vitest add for the scripts and tests they run, with npm's own
 * settings kept (its cache, and the user and global config files, which say
 * how to reach the registry) and HOME a fresh directory.
 */
function newcomerEnv(bin: string, home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(npm_|vitest|node$|node_env$|init_cwd$|no_color$|force_color$)/i.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    PATH: pathWithout(bin),
    HOME: home,
    npm_config_cache: npmSetting('cache'),
    npm_config_userconfig: npmSetting('userconfig'),
    npm_config_globalconfig: npmSetting('globalconfig'),
  };
}

describe.skipIf(withoutOldNode(node))(
  `the README's quick start on an older system Node.js (${'version' in node ? node.version : node.missing})`,
  () => {
    let bin = '';
    let version = '';
    let work: ReturnType<typeof tempDir>;
    let clone: string;
    let env: Record<string, string>;
    let run: { code: number | null; output: string };

    beforeAll(async () => {
      ({ bin, version } = present(node));
      work = tempDir('plants-fresh-clone-');
      clone = join(work.path, 'plants');
      mkdirSync(clone);
      checkout(clone);
      env = newcomerEnv(bin, join(work.path, 'home'));
      mkdirSync(env.HOME!);
      // One stream, in the order a person would read it.
      const child = spawn('sh', ['-c', 'npm ci && npm run demo'], {
        cwd: clone,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      run = { code, output };
    }, 300_000);
    afterAll(() => work?.remove());

    it('has the old Node.js first on PATH, as the system Node.js', () => {
      const r = spawnSync('sh', ['-c', 'node --version'], { env, encoding: 'utf8' });
      expect(r.stdout.trim()).toBe(version);
    });

    it('runs the demo to its end', () => {
      expect(run.output).toContain('Local plant store with 8 sample plants at http://127.0.0.1:');
      expect(run.output).toContain(
        '$ plants list --limit 2 --json\n[{"id":1,"name":"Monstera deliciosa","tag":"tropical"},{"id":2,"name":"Ficus lyrata","tag":"succulent"}]\n',
      );
      expect(run.output).toContain('$ plants delete 3 --yes --json\n[{"id":"3","result":"not_found"');
      expect(run.output).toContain(
        '$ plants list --limit 4\n1\tMonstera deliciosa\ttropical\n2\tFicus lyrata\tsucculent\n4\tPothos',
      );
      expect(run.output).toContain('\nDone; the demo store and its config directory are gone.\n');
      // The demo's token never reaches the user's OS keyring: it asks for the file.
      expect(run.output).not.toContain('no OS keyring can be used');
      expect(run.output).not.toMatch(/requires Node\.js|at .*:\d+:\d+\)/);
      expect(run.code).toBe(0);
    });

    it("says once, in one line, that the project's own Node.js runs the scripts", () => {
      const lines = run.output.split('\n').filter((line) => line.includes("runs the project's scripts"));
      expect(lines).toEqual([
        `Node.js v${pinned} (the project's own, from the \`node\` dev dependency) runs the project's scripts; ` +
          `the system's Node.js is ${version}.`,
      ]);
    });

    it('npm ci prints no warnings (no wall of engine warnings)', () => {
      expect(run.output).not.toMatch(/EBADENGINE|npm warn/i);
    });

    it('the CLI itself, on that Node.js, says in one line what it needs and exits 1', () => {
      const r = spawnSync('sh', ['-c', './bin/plants.js list'], { cwd: clone, env, encoding: 'utf8' });
      expect(r.stderr).toBe(`plants requires Node.js 22.19 or newer; this is ${version}\n`);
      expect(r.stdout).toBe('');
      expect(r.status).toBe(1);
    });
  },
);
