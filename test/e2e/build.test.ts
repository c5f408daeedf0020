import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { AssertionError } from 'node:assert';
import { maxHeaderSize, IncomingMessage, STATUS_CODES } from 'node:http';
import { constants as http2Constants } from 'node:http2';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_HOOK_ONLY } from '../../build/package-stand-ins.js';
import { HTTP1_STAND_INS, HTTP2_CONSTANTS, LAZY_ASSERT, onlyDefaultImports, standIn } from '../../build/start-up.js';
import { RESPONSE_HEADER_LIMIT } from '../../src/http/network.js';
import { ROOT } from '../helpers/cli.js';
import { againstStore } from '../helpers/against-store.js';
import { TOKEN } from '../helpers/servers.js';
import { runCommand } from '../helpers/command.js';

// What the build does to start fast (see build/start-up.ts and src/startup/code-cache.ts).

const setup = againstStore({ seed: 5 });
const plants = (args: string[], env: Record<string, string | undefined> = {}) => setup.plants(args, { env });
const cacheDir = () => join(setup.dir.path, '.cache', 'plants', 'code');
const cacheFiles = () => (existsSync(cacheDir()) ? readdirSync(cacheDir()).sort() : []);

describe('the code cache', () => {
  it('is made by the first run, private, and gives the same output on the next', async () => {
    const first = await plants(['list', '--json']);
    expect(first.code).toBe(0);
    const files = cacheFiles();
    // The command tree, then undici: one file each for this build, node and command.
    expect(files).toEqual([
      expect.stringMatching(new RegExp(`^cli-.*-${process.version}-${process.arch}-list\\+env\\.v8$`)),
      expect.stringMatching(new RegExp(`^undici-.*-${process.version}-${process.arch}-list\\+env\\.v8$`)),
    ]);
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    for (const name of files) expect(statSync(join(cacheDir(), name)).mode & 0o777).toBe(0o600);
    // Compiled code only: nothing the service sent.
    for (const name of files) expect(readFileSync(join(cacheDir(), name)).includes('Monstera')).toBe(false);

    const second = await plants(['list', '--json']);
    expect(second).toEqual(first);
    expect(cacheFiles()).toEqual(files);
  });

  it('keeps data per command: what --help compiles is not what a list needs', async () => {
    await plants(['--help']);
    await plants(['list', '--json']);
    await plants(['config', 'path']);
    expect(cacheFiles().map((name) => name.replace(/-.*-/, '-'))).toEqual([
      'cli-config+env.v8',
      'cli-list+env.v8',
      'cli-main+env.v8',
      'undici-list+env.v8',
    ]);
  });

  it('keeps a run that reads the config file apart from one whose settings all come from the environment', async () => {
    const fromFile = { PLANTS_BASE_URL: undefined, PLANTS_TOKEN: undefined };
    expect((await plants(['config', 'set', 'base-url', setup.store.url], fromFile)).code).toBe(0);
    const login = await setup.plants(['auth', 'login', '--with-token', '--insecure-storage', '--no-verify'], {
      env: fromFile,
      input: TOKEN,
    });
    expect(login.code).toBe(0);
    const [environment, file] = [await plants(['list', '--json']), await plants(['list', '--json'], fromFile)];
    expect(file.stdout).toBe(environment.stdout);
    const names = cacheFiles().map((name) => name.replace(/-.*-/, '-'));
    expect(names.filter((name) => name.includes('-list'))).toEqual([
      'cli-list+env.v8',
      'cli-list.v8',
      'conf-list.v8',
      'undici-list+env.v8',
      'undici-list.v8',
    ]);
  });

  it('loads the East Asian Width data only where a table is drawn', async () => {
    await plants(['list', '--json']);
    expect(cacheFiles().some((name) => name.startsWith('east-asian-width-'))).toBe(false);
    await plants(['list', '-o', 'table']);
    expect(cacheFiles().map((name) => name.replace(/-[0-9a-f]{16}-.*-/, '-'))).toContain(
      'east-asian-width-list+env.v8',
    );
  });

  it('follows XDG_CACHE_HOME', async () => {
    const xdg = join(setup.dir.path, 'xdg');
    const r = await plants(['--help'], { XDG_CACHE_HOME: xdg });
    expect(r.code).toBe(0);
    expect(readdirSync(join(xdg, 'plants', 'code')).some((name) => name.startsWith('cli-'))).toBe(true);
    expect(cacheFiles()).toEqual([]);
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG spec says, using ~/.cache', async () => {
    const r = await plants(['--help'], { XDG_CACHE_HOME: 'relative/cache' });
    expect(r.code).toBe(0);
    expect(cacheFiles().some((name) => name.startsWith('cli-'))).toBe(true);
  });

  it('is not made or read with PLANTS_CODE_CACHE=0', async () => {
    const r = await plants(['list', '--json'], { PLANTS_CODE_CACHE: '0' });
    expect(r.code).toBe(0);
    expect(existsSync(join(setup.dir.path, '.cache'))).toBe(false);
  });

  it("leaves the bundles to node's own compile cache with PLANTS_CODE_CACHE=0 and NODE_COMPILE_CACHE", async () => {
    const nodeCache = join(setup.dir.path, 'node-compile-cache');
    const r = await plants(['list', '--json'], { PLANTS_CODE_CACHE: '0', NODE_COMPILE_CACHE: nodeCache });
    expect(r.code).toBe(0);
    expect(existsSync(join(setup.dir.path, '.cache'))).toBe(false);
    // One directory per node version, one file per module compiled: the entry point, the command tree, undici.
    const [versionDir] = readdirSync(nodeCache);
    expect(readdirSync(join(nodeCache, versionDir!)).length).toBeGreaterThanOrEqual(3);
  });

  it('data that V8 rejects is compiled afresh and replaced', async () => {
    const good = await plants(['list', '--json']);
    const files = cacheFiles();
    for (const name of files) writeFileSync(join(cacheDir(), name), 'not V8 data');
    const r = await plants(['list', '--json']);
    expect(r).toEqual(good);
    for (const name of files) expect(readFileSync(join(cacheDir(), name), 'utf8')).not.toBe('not V8 data');
  });

  it('a directory that others may write to is neither read nor written', async () => {
    await plants(['--help']);
    const [name] = cacheFiles();
    writeFileSync(join(cacheDir(), name!), 'planted');
    chmodSync(cacheDir(), 0o777);
    const r = await plants(['list', '--json']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(cacheDir(), name!), 'utf8')).toBe('planted');
    expect(cacheFiles()).toEqual([name]);
  });

  it('an unusable place (HOME is a file) only means compiling as usual', async () => {
    const home = join(setup.dir.path, 'not-a-dir');
    writeFileSync(home, '');
    const r = await plants(['list', '--json'], { HOME: home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(5);
    expect(r.stderr).toBe('');
  });
});

/** Evaluate a stand-in's source as CommonJS; `loads` lists what it required. */
function evaluate(source: string): {
  exports: Record<string, unknown> & ((...args: unknown[]) => unknown);
  loads: string[];
} {
  const loads: string[] = [];
  const realRequire = createRequire(import.meta.url);
  const module = { exports: {} as never };
  // Evaluating the built source is the point: it is what `require` would run.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const wrapped = new Function('module', 'require', source) as (
    module: unknown,
    require: (id: string) => unknown,
  ) => void;
  wrapped(module, (id: string): unknown => {
    loads.push(id);
    return realRequire(id);
  });
  return { exports: module.exports, loads };
}

describe('lazily loaded built-in modules', () => {
  it("the HTTP/2 constants undici reads on load are node's own", () => {
    for (const [key, value] of Object.entries(HTTP2_CONSTANTS)) {
      expect(http2Constants[key as keyof typeof http2Constants], key).toBe(value);
    }
  });

  it("node:http's stand-in: this CLI's header limit (node's default), a class that no stream is, the rest from node:http", () => {
    const { exports: http, loads } = evaluate(standIn('node:http', HTTP1_STAND_INS));
    expect(http.maxHeaderSize).toBe(RESPONSE_HEADER_LIMIT);
    expect(RESPONSE_HEADER_LIMIT).toBe(16 * 1024);
    // Node's own default, unless NODE_OPTIONS changed it for this test run.
    if (
      !process.execArgv.join(' ').includes('max-http-header-size') &&
      !process.env.NODE_OPTIONS?.includes('max-http-header-size')
    ) {
      expect(maxHeaderSize).toBe(RESPONSE_HEADER_LIMIT);
    }
    expect(http.IncomingMessage).not.toBe(IncomingMessage);
    expect(typeof http.IncomingMessage).toBe('function');
    expect(loads).toEqual([]);
    expect(http.STATUS_CODES).toBe(STATUS_CODES);
    expect(loads).toEqual(['node:http']);
  });

  it("node:assert's stand-in passes what holds without loading node:assert, and throws its AssertionError otherwise", () => {
    const { exports: assert, loads } = evaluate(LAZY_ASSERT.contents);
    assert(true);
    assert(1, 'a message');
    expect(loads).toEqual([]);
    expect(() => assert(false, 'disturbed')).toThrow(AssertionError);
    expect(() => assert(false, 'disturbed')).toThrow(/^disturbed$/);
    expect(() => assert(0)).toThrow(AssertionError);
    expect(loads).toEqual(['node:assert']);
    expect(() => (assert.strictEqual as (a: unknown, b: unknown) => void)(1, 2)).toThrow(AssertionError);
    expect(Object.getPrototypeOf(assert)).not.toBe(Function.prototype);
    expect(typeof assert).toBe('function');
  });

  it('help loads no stream, node:net or node:tty when its output is not a terminal (a file, /dev/null, a pipe)', async () => {
    const report = { NODE_OPTIONS: `--require ${join(ROOT, 'test', 'helpers', 'report-builtins.cjs')}` };
    for (const args of [['--help'], ['list', '--help'], []]) {
      // The helper's report goes to stderr; stdout is the pipe the test reads.
      const r = await plants(args, report);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: plants/);
      const loaded = r.stderr.trim().split('\n').at(-1)!.split(',');
      expect(loaded).toContain('NativeModule vm');
      for (const name of ['stream', 'net', 'tty', 'internal/streams/readable']) {
        expect(loaded, args.join(' ')).not.toContain(`NativeModule ${name}`);
      }
    }
  });

  it('a list loads none of node:http2, node:http, node:assert, node:child_process, node:timers/promises or crypto', async () => {
    const r = await plants(['list', '--json'], {
      NODE_OPTIONS: `--require ${join(ROOT, 'test', 'helpers', 'report-builtins.cjs')}`,
    });
    expect(r.code).toBe(0);
    const loaded = r.stderr.trim().split('\n').at(-1)!.split(',');
    expect(loaded).toContain('NativeModule net');
    for (const name of ['http2', 'http', 'assert', 'child_process', 'timers/promises']) {
      expect(loaded).not.toContain(`NativeModule ${name}`);
    }
    // Its request id comes from src/shared/random.ts, not node:crypto or Web Crypto (4.5 ms).
    expect(loaded.filter((name) => name.includes('crypto'))).toEqual([]);
  });
});

describe('what conf calls only when asked for a schema, migrations, its own writes or encryption (a bundle of their own, build/start-up.ts)', () => {
  /** The profile's base URL and token in config.json; none from the environment. */
  const fromFile = { PLANTS_BASE_URL: undefined, PLANTS_TOKEN: undefined };
  const report = (what: string) => ({ NODE_OPTIONS: `--require ${join(ROOT, 'test', 'helpers', what)}` });
  const lastLine = (stderr: string) => stderr.trim().split('\n').at(-1)!.split(',');

  it('is not loaded by a run that reads its settings from the config file, with the code cache or without', async () => {
    expect((await plants(['config', 'set', 'base-url', setup.store.url], fromFile)).code).toBe(0);
    const login = await setup.plants(['auth', 'login', '--with-token', '--insecure-storage', '--no-verify'], {
      env: fromFile,
      input: TOKEN,
    });
    expect(login.code).toBe(0);
    for (const cache of [{}, { PLANTS_CODE_CACHE: '0' }]) {
      // Twice: the first run of a command makes its code cache, the second reads it.
      for (let run = 0; run < 2; run += 1) {
        const r = await plants(['list', '--json'], { ...fromFile, ...cache, ...report('report-bundles.cjs') });
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toHaveLength(5);
        // conf-lazy.cjs (ajv, ajv-formats, fast-uri, semver, atomically, uint8array-extras) is the bundle left out.
        expect(lastLine(r.stderr)).toEqual(['cli.cjs', 'plants.cjs', 'vendor/conf.cjs', 'vendor/undici.cjs']);
      }
    }
    expect(cacheFiles().map((name) => name.replace(/-.*-/, '-'))).toEqual([
      'cli-auth.v8',
      'cli-config.v8',
      'cli-list.v8',
      'conf-auth.v8',
      'conf-config.v8',
      'conf-list.v8',
      'undici-list.v8',
    ]);
    // Nor node:crypto, which conf uses for an encrypted file; nor node:os (env-paths, for a store without a cwd).
    const r = await plants(['list', '--json'], { ...fromFile, ...report('report-builtins.cjs') });
    expect(r.code).toBe(0);
    expect(lastLine(r.stderr)).toContain('NativeModule fs');
    for (const name of ['crypto', 'os']) {
      expect(lastLine(r.stderr)).not.toContain(`NativeModule ${name}`);
    }
  });

  it('still works when conf is asked: a schema (ajv, its formats, fast-uri), migrations (semver), its own writes (atomically), encryption (node:crypto, uint8array-extras), no cwd (env-paths)', () => {
    const dir = setup.dir.path;
    const script = `
      const dist = ${JSON.stringify(join(ROOT, 'dist'))};
      const { Conf } = require(dist + '/plants.cjs').requireBundle(dist + '/vendor/conf.cjs');
      const cwd = ${JSON.stringify(dir)};
      const results = {};
      const plain = new Conf({ cwd, configName: 'plain' });
      plain.set('name', 'Monstera');
      results.written = JSON.parse(require('node:fs').readFileSync(plain.path, 'utf8'));
      // atomically, now loaded, with its exit hook but no signal handler (see the exit hook below).
      results.signals = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => process.listenerCount(signal));
      const secret = new Conf({ cwd, configName: 'secret', encryptionKey: 'a key' });
      secret.set('token', 'hidden');
      results.encrypted = !require('node:fs').readFileSync(secret.path).includes('hidden');
      results.decrypted = new Conf({ cwd, configName: 'secret', encryptionKey: 'a key' }).get('token');
      const schema = new Conf({ cwd, configName: 'schema', schema: { url: { type: 'string', format: 'uri' } } });
      try {
        schema.set('url', 'not a URL');
      } catch (err) {
        results.refused = err.message;
      }
      schema.set('url', 'https://plants.example.com/');
      results.url = schema.get('url');
      const migrated = new Conf({
        cwd,
        configName: 'migrated',
        projectVersion: '2.1.0',
        migrations: { '>=2.0.0 <3': (store) => store.set('moved', true) },
      });
      results.moved = migrated.get('moved');
      const placed = new Conf({ projectName: 'plants-build-test' });
      placed.set('placed', true);
      results.placed = require('node:path').relative(cwd, placed.path);
      console.log(JSON.stringify(results));
    `;
    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      XDG_CACHE_HOME: join(dir, '.cache'),
      XDG_CONFIG_HOME: join(dir, '.config'),
    };
    // Twice: the first run makes the code cache, the second reads it.
    for (let run = 0; run < 2; run += 1) {
      // A file of a version before the migration.
      writeFileSync(join(dir, 'migrated.json'), JSON.stringify({ __internal__: { migrations: { version: '1.0.0' } } }));
      for (const name of ['schema', 'plain', 'secret']) rmSync(join(dir, `${name}.json`), { force: true });
      const out = runCommand(process.execPath, ['-e', script], { env });
      expect(JSON.parse(out)).toEqual({
        written: { name: 'Monstera' },
        signals: [0, 0, 0],
        encrypted: true,
        decrypted: 'hidden',
        refused: 'Config schema violation: `url` must match format "uri"',
        url: 'https://plants.example.com/',
        moved: true,
        placed: join('.config', 'plants-build-test-nodejs', 'config.json'),
      });
    }
    // Each bundle keeps its own data: conf's and conf-lazy's do not remove each other's.
    expect(cacheFiles().map((name) => name.replace(/-[0-9a-f]+-v.*-/, '-'))).toEqual([
      'conf-main.v8',
      'conf-lazy-main.v8',
    ]);
  });
});

describe("conf's exit hook", () => {
  it('runs what conf gives it at exit, but what was taken back, and hooks no signal', () => {
    const script = `${EXIT_HOOK_ONLY.contents}
      whenExit(() => console.log('removed the temporary files'));
      const takeBack = whenExit(() => console.log('taken back'));
      whenExit(() => console.log('and another'));
      takeBack();
      console.log(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'].map((signal) => process.listenerCount(signal)).join(','));`;
    const out = runCommand(process.execPath, ['--input-type=module', '-e', script]);
    expect(out).toBe('0,0,0,0\nremoved the temporary files\nand another\n');
  });
});

describe('default imports of built-in modules', () => {
  it('are told apart from named and namespace imports and re-exports, which keep a copy of the module', () => {
    expect(onlyDefaultImports("import fs from 'node:fs';\nfs.readFileSync('x');", 'node:fs')).toBe(true);
    expect(onlyDefaultImports('import process from "node:process"', 'node:process')).toBe(true);
    expect(onlyDefaultImports("import fs from 'node:fs';\nimport { readFileSync } from 'node:fs';", 'node:fs')).toBe(
      false,
    );
    expect(onlyDefaultImports("import fs, { readFileSync } from 'node:fs';", 'node:fs')).toBe(false);
    expect(onlyDefaultImports("import * as fs from 'node:fs';", 'node:fs')).toBe(false);
    expect(onlyDefaultImports("import fs from 'node:fs';\nexport { constants } from 'node:fs';", 'node:fs')).toBe(
      false,
    );
    expect(onlyDefaultImports("import fs from 'node:fs/promises';", 'node:fs')).toBe(false);
    expect(onlyDefaultImports("import path from 'node:path';", 'node:fs')).toBe(false);
  });

  it('are the module itself in every bundle: none is copied property by property as a bundle loads', () => {
    const dist = join(ROOT, 'dist');
    const bundles = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.cjs'));
    expect(bundles).toContain('vendor/conf.cjs');
    // esbuild's interop helper (minified) around a require of a built-in module.
    for (const name of bundles) {
      expect(readFileSync(join(dist, name), 'utf8'), name).not.toMatch(/[\w$]+\(require\("node:[\w/]+"\),1\)/);
    }
  });
});

describe('the bundles', () => {
  it('are ASCII, which V8 holds one byte a character; the notices of bundled code are in THIRD-PARTY-LICENSES.md', () => {
    const bundles: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else bundles.push(join(dir, entry.name));
      }
    };
    walk(join(ROOT, 'dist'));
    // esbuild's <bundle>.LEGAL.txt files are moved into the notices by scripts/licenses.js.
    expect(bundles.filter((file) => file.endsWith('.LEGAL.txt'))).toEqual([]);
    const scripts = bundles.filter((file) => /\.c?js$/.test(file));
    expect(scripts.length).toBeGreaterThan(5);
    for (const file of scripts) {
      const bytes = readFileSync(file);
      const at = bytes.findIndex((byte) => byte > 0x7f);
      const text = bytes.toString('latin1');
      expect(
        at === -1 ? 'ASCII' : `a byte above 127 at ${at}: ${JSON.stringify(text.slice(at - 40, at + 10))}`,
        file,
      ).toBe('ASCII');
    }
    const notices = readFileSync(join(ROOT, 'dist', 'THIRD-PARTY-LICENSES.md'), 'utf8');
    expect(notices).toContain('### In dist/vendor/undici.cjs');
    expect(notices).toContain('formdata-polyfill. MIT License. Jimmy Wärting');
  });
});
