import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StopSignal } from '../../src/shared/errors.js';
import { main } from '../../src/cli.js';
import { inProcess, ORIGIN } from '../helpers/in-process.js';
import { fakeIO, scriptedPrompter } from '../helpers/io.js';
import { withoutRequestIds } from '../helpers/results.js';

// Ctrl-C during a bulk delete, driven without timing: the interrupt is
// triggered from inside the MockAgent reply to a chosen DELETE, so what is
// in flight, settled and not yet started at that moment is fixed. Never the
// first DELETE: it is dispatched before the command registers its handler
// (a real signal arrives asynchronously, so this only matters here).

const TOKEN = 'delete-interrupt-test-token';
const { service, agent, configDir } = inProcess(TOKEN);

/** What a command registered with ctx.onInterrupt, as the signal handler of src/cli.ts holds it. */
interface Registered {
  onFirst: (signal: StopSignal) => void;
  onQuit?: () => string;
}

function plantsWithSignals(args: string[], options: { tty?: boolean } = {}) {
  const fake = fakeIO({ tty: options.tty ?? false });
  const registered = new Set<Registered>();
  const codePromise = main(args, {
    io: fake.io,
    env: {
      PLANTS_CONFIG_DIR: configDir(),
      PLANTS_STATE_DIR: join(configDir(), 'state'),
      PLANTS_BASE_URL: ORIGIN,
      PLANTS_TOKEN: TOKEN,
      PLANTS_RETRIES: '0',
    },
    dispatcher: () => agent(),
    prompter: scriptedPrompter(),
    onInterrupt(onFirst, onQuit) {
      const entry = { onFirst, onQuit };
      registered.add(entry);
      return () => registered.delete(entry);
    },
  });
  return {
    ...fake,
    /** The first Ctrl-C (or another stop signal), as src/cli.ts delivers it. */
    interrupt: (signal: StopSignal = 'SIGINT') => {
      expect(registered.size).toBe(1);
      for (const { onFirst } of registered) onFirst(signal);
    },
    /** The second Ctrl-C: what the quit handler writes at once, and the summary it returns. */
    quit: () => [...registered].map(({ onQuit }) => onQuit!()),
    registered: () => registered.size,
    code: async () => {
      const code = await codePromise;
      expect(fake.stdout() + fake.stderr()).not.toContain(TOKEN);
      return code;
    },
  };
}

describe('Ctrl-C during the deletes', () => {
  it.each([
    ['SIGTERM', 143, 'SIGTERM'],
    ['SIGHUP', 129, 'SIGHUP'],
  ] as const)('%s is handled as Ctrl-C is, and the run exits %i', async (signal, code, again) => {
    service().intercept({ path: '/plants/1', method: 'DELETE' }).reply(204, '');
    service()
      .intercept({ path: '/plants/2', method: 'DELETE' })
      .reply(() => {
        run.interrupt(signal);
        return { statusCode: 204, data: '' };
      });
    const run = plantsWithSignals(['delete', '1', '2', '3', '--yes', '--json', '--concurrency', '1']);
    expect(await run.code()).toBe(code);
    expect(withoutRequestIds(JSON.parse(run.stdout()))).toEqual([
      { id: '1', result: 'deleted', status: 204 },
      { id: '2', result: 'deleted', status: 204 },
      { id: '3', result: 'skipped', status: null },
    ]);
    expect(run.stderr()).toBe(
      `Stopping: finishing the requests in flight (${again} again to quit now)\n` +
        'plants: interrupted: 2 deleted, 1 skipped\n' +
        '{"error":{"code":"interrupted","status":null,"message":"interrupted: 2 deleted, 1 skipped","request_id":null}}\n',
    );
  });

  it('the first stops starting requests; the one in flight finishes; the rest are skipped; exit 130', async () => {
    service().intercept({ path: '/plants/1', method: 'DELETE' }).reply(204, '');
    service()
      .intercept({ path: '/plants/2', method: 'DELETE' })
      .reply(() => {
        run.interrupt();
        return { statusCode: 204, data: '' };
      });
    const run = plantsWithSignals(['delete', '1', '2', '3', '4', '--yes', '--json', '--concurrency', '1']);
    expect(await run.code()).toBe(130);
    expect(run.registered()).toBe(0);
    expect(withoutRequestIds(JSON.parse(run.stdout()))).toEqual([
      { id: '1', result: 'deleted', status: 204 },
      { id: '2', result: 'deleted', status: 204 },
      { id: '3', result: 'skipped', status: null },
      { id: '4', result: 'skipped', status: null },
    ]);
    expect(run.stderr()).toBe(
      'Stopping: finishing the requests in flight (Ctrl-C again to quit now)\n' +
        'plants: interrupted: 2 deleted, 2 skipped\n' +
        '{"error":{"code":"interrupted","status":null,"message":"interrupted: 2 deleted, 2 skipped","request_id":null}}\n',
    );
  });

  it('stops the progress bar at once on a terminal', async () => {
    const ids = Array.from({ length: 11 }, (_, i) => String(i + 1));
    service().intercept({ path: '/plants/1', method: 'DELETE' }).reply(204, '');
    service()
      .intercept({ path: '/plants/2', method: 'DELETE' })
      .reply(() => {
        run.interrupt();
        return { statusCode: 204, data: '' };
      });
    const run = plantsWithSignals(['delete', ...ids, '--yes', '--concurrency', '1'], { tty: true });
    expect(await run.code()).toBe(130);
    expect(run.stderr()).toContain(
      '\r\u001b[2KStopping: finishing the requests in flight (Ctrl-C again to quit now)\n' +
        'Deleted: 1, 2\n' +
        'plants: interrupted: 2 deleted, 9 skipped\n',
    );
    expect(run.stderr().split('Stopping')[1]).not.toContain('Deleting');
  });

  it('the second writes at once what the service confirmed, in-flight ids as unknown, and returns the count', async () => {
    let atQuit: { stdout: string; stderr: string; summaries: string[] } | undefined;
    service().intercept({ path: '/plants/1', method: 'DELETE' }).reply(204, '');
    service().intercept({ path: '/plants/2', method: 'DELETE' }).reply(500, 'boom');
    service()
      .intercept({ path: '/plants/3', method: 'DELETE' })
      .reply(() => {
        const summaries = run.quit();
        atQuit = { stdout: run.stdout(), stderr: run.stderr(), summaries };
        return { statusCode: 204, data: '' };
      });
    // Past the quit the process would end; here the run goes on, so ids 4 and 5 are sent.
    service().intercept({ path: '/plants/4', method: 'DELETE' }).reply(204, '');
    service().intercept({ path: '/plants/5', method: 'DELETE' }).reply(204, '');
    const run = plantsWithSignals(['delete', '1', '2', '3', '4', '5', '--yes', '--json', '--concurrency', '1']);
    await run.code();
    expect(atQuit!.summaries).toEqual(['interrupted: 1 deleted, 1 unknown, 1 failed, 2 skipped']);
    expect(withoutRequestIds(JSON.parse(atQuit!.stdout))).toEqual([
      { id: '1', result: 'deleted', status: 204 },
      { id: '2', result: 'failed', status: 500, error: { error: null, message: 'boom' } },
      {
        id: '3',
        result: 'unknown',
        status: null,
        error: { error: null, message: 'stopped before the service answered; the plant may have been deleted' },
      },
      { id: '4', result: 'skipped', status: null },
      { id: '5', result: 'skipped', status: null },
    ]);
    expect(atQuit!.stderr.split('\n').filter((line) => line.startsWith('plants:'))).toEqual([
      expect.stringMatching(/^plants: DELETE .*\/plants\/2 → 500/),
      'plants: 3: stopped before the service answered; the plant may have been deleted',
    ]);
  });

  it('the second, without --json, writes nothing on stdout: a line per id in flight or failed', async () => {
    let atQuit: { stdout: string; stderr: string; summaries: string[] } | undefined;
    service().intercept({ path: '/plants/1', method: 'DELETE' }).reply(204, '');
    service()
      .intercept({ path: '/plants/a%3Fb', method: 'DELETE' })
      .reply(() => {
        const summaries = run.quit();
        atQuit = { stdout: run.stdout(), stderr: run.stderr(), summaries };
        return { statusCode: 204, data: '' };
      });
    service().intercept({ path: '/plants/2', method: 'DELETE' }).reply(204, '');
    const run = plantsWithSignals(['delete', '1', 'a?b', '2', '--yes', '--concurrency', '1']);
    expect(await run.code()).toBe(0);
    expect(atQuit).toEqual({
      stdout: '',
      stderr: 'Deleted: 1\nplants: a?b: stopped before the service answered; the plant may have been deleted\n',
      summaries: ['interrupted: 1 deleted, 1 unknown, 1 skipped'],
    });
  });
});
