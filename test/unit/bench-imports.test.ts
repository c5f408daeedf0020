import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// scripts/bench.js runs on plain Node.js, which strips the types of the
// .ts files it imports but does not turn their .js specifiers into .ts: a
// value import of src/ from one of them stops the bench at its start. The
// bench is not part of npm test, so this is where such an import shows.
describe('the files scripts/bench.js imports', () => {
  it.each(['scripts/bench-markdown.ts', 'test/helpers/secret-service.ts'])('%s loads under plain Node.js', (file) => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `await import('./${file}')`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect({ status: r.status, signal: r.signal, stderr: r.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
  });
});
