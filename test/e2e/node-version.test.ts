import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLANTS_BIN, ROOT, tempDir } from '../helpers/cli.js';

/** A Node.js that says it is another version, from before anything else runs. */
const dir = tempDir('plants-node-version-');
afterAll(() => dir.remove());
function pretend(version: string): string {
  const file = join(dir.path, `node-${version}.cjs`);
  writeFileSync(
    file,
    `Object.defineProperty(process, 'version', { value: 'v${version}' });\n` +
      `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '${version}' } });\n` +
      // Anything the CLI loads past the check would show here.
      `require('node:module').registerHooks?.({ resolve(s, c, next) { if (s.includes('dist/')) process.stderr.write('loaded ' + s + '\\n'); return next(s, c); } });\n`,
  );
  return file;
}

const run = (bin: string, version: string, args: string[] = ['--version']) =>
  spawnSync(process.execPath, ['--require', pretend(version), bin, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: dir.path, PLANTS_CONFIG_DIR: dir.path },
  });

describe('an older Node.js', () => {
  it.each(['20.20.2', '22.18.0', '18.0.0', '21.99.0'])(
    '%s gets one line and exit 1, loading nothing else',
    (version) => {
      const r = run(PLANTS_BIN, version, ['list']);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`plants requires Node.js 22.19 or newer; this is v${version}\n`);
    },
  );

  it('the local plant store says the same', () => {
    const r = run(join(ROOT, 'bin', 'plant-store-server.js'), '20.20.2', ['--help']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('plant-store-server requires Node.js 22.19 or newer; this is v20.20.2\n');
  });

  it.each(['22.19.0', '23.0.0', '24.1.0', '30.0.0'])('%s runs', (version) => {
    const r = run(PLANTS_BIN, version);
    expect(r.stderr).toBe('loaded ../dist/plants.cjs\n');
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.status).toBe(0);
  });
});
