import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

// A file of its own: conf's exit hook (when-exit) is set up once per process,
// on the first import, so this must be the first test here to import conf.

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

it('leaves Ctrl-C and SIGTERM to plants: conf adds no signal handlers, other handlers stay', async () => {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const mine = () => undefined;
  process.on('SIGINT', mine);
  try {
    const before = signals.map((s) => process.listeners(s));
    const exitBefore = process.listeners('exit').length;
    const { openConfigStore } = await import('../../src/config/open.js');
    await openConfigStore({ PLANTS_CONFIG_DIR: dir.path });
    expect(signals.map((s) => process.listeners(s))).toEqual(before);
    expect(process.listeners('SIGINT')).toContain(mine);
    // conf's exit hook (removing temporary files) stays.
    expect(process.listeners('exit').length).toBeGreaterThan(exitBefore);
  } finally {
    process.off('SIGINT', mine);
  }
});
