import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, type RunOptions } from '../helpers/cli.js';
import { rawServer, TOKEN, type RawServer } from '../helpers/servers.js';

/** A service whose list is whatever the test says. */
let list = '[]';
let server: RawServer;
let dir: ReturnType<typeof tempDir>;
beforeAll(async () => {
  server = await rawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(list));
});
afterAll(() => server.close());
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

const plants = (args: string[], options: Omit<RunOptions, 'configDir'> = {}) =>
  runCli(args, { ...options, configDir: dir.path, env: { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: TOKEN, ...options.env } });

describe('a table with a huge name', () => {
  it('plants list -o table lays out a 1 MiB name (wide characters too) in time', async () => {
    const huge = 'Ficus 植物 '.repeat(Math.ceil(2 ** 20 / 9)).slice(0, 2 ** 20);
    const width = huge.length + (huge.match(/[植物]/g)?.length ?? 0);
    list = JSON.stringify([{ id: 1, name: huge, tag: 'fern' }, { id: 2, name: 'Monstera', tag: 'tropical' }]);
    // Coloured, as on a terminal: the header goes through the same layout.
    const r = await plants(['list', '-o', 'table'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      `\u001b[1mID\u001b[22m  \u001b[1mNAME\u001b[22m${' '.repeat(width - 4)}  \u001b[1mTAG\u001b[22m`,
      `1   ${huge}  fern`,
      `2   Monstera${' '.repeat(width - 8)}  tropical`,
      '',
    ]);
  });
});
