import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JsonError } from '../helpers/cli.js';
import { againstStore } from '../helpers/against-store.js';

// stdout that cannot be written (docs/scripting.md): /dev/full
// fails every write with ENOSPC, as a full disk does. One line naming the
// failure, exit 1, code `output`; never "unexpected error" (a bug) nor exit 0.

const setup = againstStore(
  {
    plants: [
      { id: 1, name: 'Fern', tag: 'green' },
      { id: 2, name: 'Weed', tag: 'weed' },
      { id: 3, name: 'Moss', tag: 'weed' },
    ],
  },
  { perTest: true },
);
const toFull = { stdoutTo: '/dev/full' };
const FAILED = 'plants: could not write to standard output: no space left on device (ENOSPC)';
const jsonError = (stderr: string) => JSON.parse(stderr.trimEnd().split('\n').at(-1)!) as JsonError;

describe.runIf(existsSync('/dev/full'))('a write to stdout that fails (a full disk)', () => {
  it('list: one line naming the failure, exit 1, code output', async () => {
    const r = await setup.plants(['list', '-o', 'csv'], toFull);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${FAILED}\n`);
    const json = await setup.plants(['list', '--json'], toFull);
    expect(json.code).toBe(1);
    expect(jsonError(json.stderr).error).toEqual({
      code: 'output',
      status: null,
      message: 'could not write to standard output: no space left on device (ENOSPC)',
      request_id: null,
    });
  });

  it('delete: says the DELETEs were sent, and names the journal run that lists them', async () => {
    const r = await setup.plants(['delete', '--yes', '--json', '1', '2'], toFull);
    expect(r.code).toBe(1);
    const [line, last, ...rest] = r.stderr.trimEnd().split('\n');
    expect(rest).toEqual([]);
    const named = new RegExp(
      `^${FAILED.replace(/[()]/g, '\\$&')}; the DELETEs were sent \\(2 deleted\\): plants history ([0-9a-f-]{36}) lists them$`,
    ).exec(line!);
    expect(named, line).not.toBeNull();
    expect(jsonError(last!).error).toMatchObject({ code: 'output', message: line!.replace(/^plants: /, '') });
    // They were deleted, and the run named has them.
    expect(setup.store.store.list().map((p) => p.id)).toEqual([3]);
    const history = await setup.plants(['history', named![1]!, '--json']);
    expect(history.code).toBe(0);
    expect(
      (JSON.parse(history.stdout) as { id: string; result: string }[]).map(({ id, result }) => [id, result]),
    ).toEqual([
      ['1', 'deleted'],
      ['2', 'deleted'],
    ]);
  });

  it('prune and api -X DELETE say so too; a dry run, which deleted nothing, does not', async () => {
    const prune = await setup.plants(['prune', '--tag', 'weed', '--yes', '--json'], toFull);
    expect(prune.code).toBe(1);
    expect(prune.stderr).toMatch(/; the DELETEs were sent \(2 deleted\): plants history [0-9a-f-]{36} lists them\n/);
    const api = await setup.plants(['api', '-X', 'DELETE', '/plants/1'], toFull);
    expect(api.code).toBe(1);
    expect(api.stderr).toMatch(
      new RegExp(
        `^${FAILED.replace(/[()]/g, '\\$&')}; the DELETE was sent \\(1 deleted\\): plants history [0-9a-f-]{36} lists it\n$`,
      ),
    );
    expect(setup.store.store.list()).toEqual([]);
    const dryRun = await setup.plants(['delete', '--dry-run', '7'], toFull);
    expect(dryRun.code).toBe(1);
    expect(dryRun.stderr).toMatch(new RegExp(`\n${FAILED.replace(/[()]/g, '\\$&')}\n$`));
  });

  const words = (line: string) => line.split(' ').filter(Boolean);

  it.each(['--help', '', '--version', '-V', 'list --help'])(
    "help and the version ('plants %s') fail too, as GNU tools do",
    async (line) => {
      const r = await setup.plants(words(line), toFull);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`${FAILED}\n`);
    },
  );

  it.each(['history -o csv', 'config path', 'config profiles', 'completion bash', 'api /plants'])(
    'every command alike: plants %s',
    async (line) => {
      const r = await setup.plants(words(line), toFull);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`${FAILED}\n`);
    },
  );
});
