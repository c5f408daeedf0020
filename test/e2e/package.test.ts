import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';
import { runCommandAsync } from '../helpers/command.js';
import { oldNode, pathWithout, present, withoutOldNode } from '../helpers/old-node.js';
import { plantStore, TOKEN } from '../helpers/servers.js';
import { withoutRequestIds } from '../helpers/results.js';

// The package as a user gets it: `npm pack`, then `npm install -g` of the
// tarball into a temporary prefix, run from outside the repository.

const npm = (args: string[], cwd: string) =>
  // --ignore-scripts: `npm test` has built dist/ already, and rebuilding it
  // under the other test files would pull it from under them. prepack
  // (checked below) builds it for a real `npm pack`.
  // --prefer-offline: the run-time dependency (@napi-rs/keyring) comes from npm's cache when it is
  // there; `npm ci` caches its tarballs but not the registry's metadata that resolving it needs,
  // so on a machine that has only run `npm ci`, a strict --offline install fails (ENOTCACHED).
  runCommandAsync('npm', [...args, '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

type Store = Awaited<ReturnType<typeof plantStore>>;
let store: Store;
let work: ReturnType<typeof tempDir>;
let tarball: string;
let files: string[];
let prefix: string;

beforeAll(async () => {
  store = await plantStore({ seed: 3 });
  work = tempDir('plants-package-');
  const { stdout } = await npm(['pack', '--json', '--pack-destination', work.path], ROOT);
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(work.path, packed!.filename);
  files = packed!.files.map((file) => file.path).sort();
  prefix = join(work.path, 'prefix');
  // From the temporary directory, not the repository.
  await npm(['install', '--global', '--prefix', prefix, tarball], work.path);
}, 120_000);
afterAll(async () => {
  await store.close();
  work.remove();
});

/** The installed `plants`, run from a directory outside the repository with a clean environment. */
function installed(args: string[], env: Record<string, string> = {}) {
  const home = join(work.path, 'home');
  return runCommandAsync(join(prefix, 'bin', 'plants'), args, {
    cwd: work.path,
    env: {
      PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
      HOME: home,
      PLANTS_CONFIG_DIR: home,
      NO_COLOR: '1',
      ...env,
    },
  });
}

describe('the npm package', () => {
  it('is plant-store-cli-<version>.tgz (the name `plants` on npm is another package)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(basename(tarball)).toBe(`plant-store-cli-${pkg.version}.tgz`);
  });

  it('holds only what users need', () => {
    expect(files).toEqual(
      [
        'LICENSE',
        'README.md',
        'bin/node-version.js',
        'bin/package.json',
        'bin/plant-store-server.js',
        'bin/plants.js',
        'completions/_plants',
        'completions/plants.bash',
        'completions/plants.fish',
        'docs/architecture.md',
        'docs/commands.md',
        'docs/configuration.md',
        'docs/decisions/0001-choices-where-the-interface-is-silent.md',
        'docs/decisions/0002-protect-loosely-select-strictly.md',
        'docs/decisions/0003-a-token-goes-only-to-its-origin.md',
        'docs/decisions/0004-keyring-by-default-in-a-child-process.md',
        'docs/decisions/0005-bundle-dependencies-into-dist.md',
        'docs/decisions/0006-our-own-code-where-libraries-failed-our-tests.md',
        'docs/decisions/0007-the-projects-own-nodejs-for-its-scripts.md',
        'docs/decisions/0008-a-journal-record-before-each-delete.md',
        'docs/decisions/README.md',
        'docs/performance.md',
        'docs/plans.md',
        'docs/scripting.md',
        'docs/security.md',
        'docs/testing.md',
        'docs/troubleshooting.md',
        'dist/THIRD-PARTY-LICENSES.md',
        'dist/cli.cjs',
        'dist/plant-store-server.js',
        'dist/plants.1',
        'dist/plants.cjs',
        'dist/sbom.cdx.json',
        'dist/vendor/chalk.cjs',
        'dist/vendor/conf-lazy.cjs',
        'dist/vendor/conf.cjs',
        'dist/vendor/east-asian-width.cjs',
        'dist/vendor/table.cjs',
        'dist/vendor/undici.cjs',
        'package.json',
      ].sort(),
    );
  });

  it('declares what a publisher and npm need, and depends at run time on the keyring binding only', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg).toMatchObject({
      name: 'plant-store-cli',
      license: 'MIT',
      engines: { node: '>=22.19' },
      bin: { plants: 'bin/plants.js', 'plant-store-server': 'bin/plant-store-server.js' },
      man: ['./dist/plants.1'],
      files: ['bin/', 'dist/', 'completions/', 'docs/'],
    });
    expect(pkg.private).toBeUndefined();
    expect((pkg.keywords as string[]).length).toBeGreaterThan(0);
    expect((pkg.scripts as Record<string, string>).prepack).toBe('npm run build');
    // Everything is bundled into dist/ but the keyring binding, a native module (docs/decisions/0005).
    expect(Object.keys(pkg.dependencies as object)).toEqual(['@napi-rs/keyring']);
    // Every bundled package's license travels with it.
    const notices = readFileSync(join(ROOT, 'dist', 'THIRD-PARTY-LICENSES.md'), 'utf8');
    for (const name of ['commander', 'undici', 'conf', 'chalk', 'cli-table3', 'get-east-asian-width']) {
      expect(notices).toContain(`## ${name} `);
    }
  });

  it('installs globally with nothing but the tarball, executables and man page linked', () => {
    // Installed under the package's name; the command keeps its own.
    const root = join(prefix, 'lib', 'node_modules', 'plant-store-cli');
    // Beside the bundles, only the keyring binding and its binary for this platform.
    expect(readdirSync(join(root, 'node_modules'))).toEqual(['@napi-rs']);
    const [binding, ...binaries] = readdirSync(join(root, 'node_modules', '@napi-rs')).sort();
    expect(binding).toBe('keyring');
    expect(binaries).toHaveLength(1);
    expect(binaries[0]).toMatch(new RegExp(`^keyring-${process.platform}-${process.arch}`));
    expect(realpathSync(join(prefix, 'bin', 'plants'))).toBe(join(root, 'bin', 'plants.js'));
    expect(realpathSync(join(prefix, 'bin', 'plant-store-server'))).toBe(join(root, 'bin', 'plant-store-server.js'));
    expect(realpathSync(join(prefix, 'share', 'man', 'man1', 'plants.1'))).toBe(join(root, 'dist', 'plants.1'));
  });

  it('runs --version, --help and a list against the local plant store', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect((await installed(['--version'])).stdout).toBe(`${pkg.version}\n`);
    const help = await installed(['--help']);
    expect(help.stdout).toMatch(/^Usage: plants \[options\] \[command\]/);
    expect(help.stdout).toContain('Exit codes:');
    const list = await installed(['list', '--json'], { PLANTS_BASE_URL: store.url, PLANTS_TOKEN: TOKEN });
    expect(withoutRequestIds(JSON.parse(list.stdout))).toEqual(store.store.list());
    expect(list.stderr).toBe('');
  });

  it('the installed plant-store-server starts and prints its URL', async () => {
    const server = execFile(join(prefix, 'bin', 'plant-store-server'), ['--port', '0'], { cwd: work.path });
    const url = await new Promise<string>((resolve) =>
      server.stdout!.once('data', (chunk: Buffer) => resolve(String(chunk))),
    );
    server.kill();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n/);
  });

  const old = oldNode();
  it.skipIf(withoutOldNode(old))(
    'on an older Node.js, the installed commands say in one line what they need and exit 1',
    () => {
      const { bin, version } = present(old);
      for (const command of ['plants', 'plant-store-server']) {
        const r = spawnSync(join(prefix, 'bin', command), ['--version'], {
          cwd: work.path,
          encoding: 'utf8',
          // The installed scripts start with `#!/usr/bin/env node`: the first node on PATH runs them.
          env: { PATH: pathWithout(bin), HOME: join(work.path, 'home') },
        });
        expect(r.stderr).toBe(`${command} requires Node.js 22.19 or newer; this is ${version}\n`);
        expect(r.stdout).toBe('');
        expect(r.status).toBe(1);
      }
    },
  );
});

describe('the man page', () => {
  const page = () => readFileSync(join(ROOT, 'dist', 'plants.1'), 'utf8');

  it('documents every command and option that --help shows', async () => {
    const { buildProgram } = (await import(join(ROOT, 'dist', 'cli.cjs'))) as typeof import('../../src/cli.js');
    const program = buildProgram(new Proxy({}, {}) as never);
    const text = page().replaceAll('\\-', '-');
    const walk = (command: typeof program, path: string) => {
      const help = command.createHelp();
      for (const option of help.visibleOptions(command))
        if (option.long !== '--help') expect(text, path).toContain(help.optionTerm(option));
      for (const sub of help.visibleCommands(command)) {
        if (sub.name() === 'help') continue;
        expect(text).toContain(`.SS "${path} ${sub.name()}`);
        walk(sub, `${path} ${sub.name()}`);
      }
    };
    walk(program, 'plants');
    expect(text).not.toContain('__complete');
    for (const section of ['NAME', 'SYNOPSIS', 'OPTIONS', 'COMMANDS', 'EXAMPLES', 'EXIT STATUS', 'ENVIRONMENT']) {
      expect(text).toContain(`.SH ${section}`);
    }
  });

  it('names the command, and the package it comes from where that is meant', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const text = page().replaceAll('\\-', '-');
    expect(text).toContain(`.TH PLANTS 1 "" "plant-store-cli ${version}" "User Commands"`);
    expect(text).toMatch(/^\.SH NAME\nplants - /m);
    expect(text).toContain('$(npm root -g)/plant-store-cli/README.md');
  });

  it('is valid roff: groff reports no warnings', () => {
    const groff = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', join(ROOT, 'dist', 'plants.1')], {
      encoding: 'utf8',
    });
    expect(groff.error).toBeUndefined();
    expect(groff.stderr).toBe('');
    expect(groff.status).toBe(0);
  });
});
