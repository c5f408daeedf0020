import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/cli.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

async function open(configDir: string, warn: (text: string) => void = () => undefined) {
  const { openConfigStore } = await import('../../src/config/open.js');
  return openConfigStore({ PLANTS_CONFIG_DIR: configDir }, warn);
}

describe('openConfigStore: where the token lives', () => {
  it('makes each missing directory 0700, without warnings', async () => {
    const config = join(dir.path, 'a', 'b', 'plants');
    const warnings: string[] = [];
    const store = await open(config, (text) => warnings.push(text));
    store.set('default', 'token', 't0ken');
    for (const d of [join(dir.path, 'a'), join(dir.path, 'a', 'b'), config]) {
      expect(statSync(d).mode & 0o777).toBe(0o700);
    }
    expect(statSync(join(config, 'config.json')).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([]);
  });

  it('warns, naming the fix, when others may read the directory or the file, and still opens it', async () => {
    const config = join(dir.path, 'plants');
    const file = join(config, 'config.json');
    mkdirSync(config);
    chmodSync(config, 0o755);
    writeFileSync(file, '{"profiles":{"default":{"token":"t0ken","token-origin":"https://plants.test"}}}');
    chmodSync(file, 0o604);
    const warnings: string[] = [];
    const store = await open(config, (text) => warnings.push(text));
    expect(warnings).toEqual([
      `the config holds the token, but ${config} has mode 0755; run chmod 700 ${config}`,
      `the config holds the token, but ${file} has mode 0604; run chmod 600 ${file}`,
    ]);
    expect(store.get('default', 'token')).toBe('t0ken');
  });

  it('names no token in the warning when the file holds none', async () => {
    const config = join(dir.path, 'plants');
    const file = join(config, 'config.json');
    mkdirSync(config, { mode: 0o700 });
    writeFileSync(file, '{"profiles":{"default":{"base-url":"https://plants.example.com"},"ci":{"token":""}}}');
    chmodSync(file, 0o644);
    const warnings: string[] = [];
    await open(config, (text) => warnings.push(text));
    expect(warnings).toEqual([`${file} has mode 0644; run chmod 600 ${file}`]);
  });

  it('does not warn about modes that only the owner has', async () => {
    const config = join(dir.path, 'plants');
    mkdirSync(config, { mode: 0o700 });
    chmodSync(config, 0o500);
    writeFileSync(join(config, 'config.json'), '{}', { mode: 0o400 });
    const warn = vi.fn();
    await open(config, warn);
    expect(warn).not.toHaveBeenCalled();
    chmodSync(config, 0o700);
  });
});
