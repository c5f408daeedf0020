import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { constants as http2Constants } from 'node:http2';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HTTP2_CONSTANTS } from '../../tsup.config.js';
import { ROOT, runCli, tempDir } from '../helpers/cli.js';
import { plantStore, TOKEN } from '../helpers/servers.js';

// What the build does to start fast (see tsup.config.ts and src/code-cache.ts).

type Store = Awaited<ReturnType<typeof plantStore>>;
let store: Store;
let dir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  store = await plantStore({ seed: 5 });
});
afterAll(() => store.close());
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const plants = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, { configDir: dir.path, env: { PLANTS_BASE_URL: store.url, PLANTS_TOKEN: TOKEN, ...env } });
const cacheDir = () => join(dir.path, '.cache', 'plants', 'code');
const cacheFiles = () => (existsSync(cacheDir()) ? readdirSync(cacheDir()).sort() : []);

describe('the code cache', () => {
  it('is made by the first run, private, and gives the same output on the next', async () => {
    const first = await plants(['list', '--json']);
    expect(first.code).toBe(0);
    const files = cacheFiles();
    // The command tree (before the flags change), then undici (after).
    expect(files.some((name) => /^cli-.*-default\.v8$/.test(name))).toBe(true);
    expect(files.some((name) => /^undici-.*-liftoff\.v8$/.test(name))).toBe(true);
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    for (const name of files) expect(statSync(join(cacheDir(), name)).mode & 0o777).toBe(0o600);
    // Compiled code only: nothing the service sent.
    for (const name of files) expect(readFileSync(join(cacheDir(), name)).includes('Monstera')).toBe(false);

    const second = await plants(['list', '--json']);
    expect(second).toEqual(first);
    expect(cacheFiles()).toEqual(files);
  });

  it('follows XDG_CACHE_HOME', async () => {
    const xdg = join(dir.path, 'xdg');
    const r = await plants(['--help'], { XDG_CACHE_HOME: xdg });
    expect(r.code).toBe(0);
    expect(readdirSync(join(xdg, 'plants', 'code')).some((name) => name.startsWith('cli-'))).toBe(true);
    expect(cacheFiles()).toEqual([]);
  });

  it('is not made or read with PLANTS_CODE_CACHE=0', async () => {
    const r = await plants(['list', '--json'], { PLANTS_CODE_CACHE: '0' });
    expect(r.code).toBe(0);
    expect(existsSync(join(dir.path, '.cache'))).toBe(false);
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
    const home = join(dir.path, 'not-a-dir');
    writeFileSync(home, '');
    const r = await plants(['list', '--json'], { HOME: home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(5);
    expect(r.stderr).toBe('');
  });
});

describe('lazily loaded built-in modules', () => {
  it("the HTTP/2 constants undici reads on load are node's own", () => {
    for (const [key, value] of Object.entries(HTTP2_CONSTANTS)) {
      expect(http2Constants[key as keyof typeof http2Constants], key).toBe(value);
    }
  });

  it('neither node:http2 nor node:child_process is loaded by a list', async () => {
    const r = await plants(['list', '--json'], {
      NODE_OPTIONS: `--require ${join(ROOT, 'test', 'helpers', 'report-builtins.cjs')}`,
    });
    expect(r.code).toBe(0);
    const loaded = r.stderr.trim().split('\n').at(-1)!.split(',');
    expect(loaded).toContain('NativeModule net');
    expect(loaded).not.toContain('NativeModule http2');
    expect(loaded).not.toContain('NativeModule child_process');
  });
});
