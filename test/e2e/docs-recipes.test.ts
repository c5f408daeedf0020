import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { againstStore } from '../helpers/against-store.js';
import { NO_KEYRING, PLANTS_BIN, ROOT, tokenLeak } from '../helpers/cli.js';
import { pageBlocks, runsDeletion } from '../helpers/doc-blocks.js';
import { TOKEN } from '../helpers/servers.js';

// Every shell recipe of README.md, CHANGELOG.md and docs/ that deletes
// (`plants delete`, `prune` or `apply`) runs as written (docs convention 3):
// `bash -e` in a pseudo-terminal, against a fresh local store with its
// eight sample plants, in an empty directory, and exits 0.
const setup = againstStore({ seed: 8 }, { perTest: true });

const EXAMPLE_URL = 'https://plants.example.com/api';
/** How long one recipe may take: a few CLI runs. */
const DEADLINE_MS = 60_000;

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

interface RecipeRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  /** All the terminal showed (stdout and stderr of the recipe). */
  stdout: string;
  /** `script`'s own. */
  stderr: string;
  timedOut: boolean;
}

/**
 * Run `script` with `bash -e -c` under `script` (so plants sees a
 * terminal and asks what it would ask a person), answering y to each
 * `[y/N]`; killed at the deadline. Spawned, not spawnSync: the store
 * answers from this process.
 */
function runRecipe(script: string, cwd: string, env: Record<string, string>): Promise<RecipeRun> {
  const command = `stty cols 80 rows 30; exec bash -e -c ${quote(script)}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env });
  const run: RecipeRun = { status: null, signal: null, stdout: '', stderr: '', timedOut: false };
  let answered = 0;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    run.stdout += chunk;
    // Each prompt once it is on screen: earlier input would be echoed, or read by another command.
    for (const asked = run.stdout.split('[y/N]').length - 1; answered < asked; answered++) child.stdin.write('y\r');
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (run.stderr += chunk));
  child.stdin.on('error', () => {});
  const timer = setTimeout(() => {
    run.timedOut = true;
    child.kill('SIGKILL');
  }, DEADLINE_MS);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      Object.assign(run, { status, signal });
      const leak = tokenLeak(run);
      if (leak) reject(leak);
      else resolve(run);
    });
  });
}

/** The last lines of what the terminal showed, escape sequences (a spinner's redraws) dropped. */
function tail(output: string): string {
  return (
    output
      // eslint-disable-next-line no-control-regex -- escape sequences are what is removed
      .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
      .replace(/\r\n?/g, '\n')
      .slice(-4000)
  );
}

const recipes = pageBlocks(ROOT, ['sh', 'bash', 'shell']).filter((block) => runsDeletion(block.body));

describe('the recipes in the documentation that delete run as written', () => {
  it('there is one at least (the CI job, resuming a run)', () => {
    expect(recipes.length).toBeGreaterThan(0);
  });

  it.each(recipes.map((block) => [block.name, block] as const))(
    '%s',
    async (_name, block) => {
      // The working directory is empty and is HOME; plants' own files go inside it, made by plants.
      const cwd = join(setup.dir.path, 'home');
      const bin = join(setup.dir.path, 'bin');
      mkdirSync(cwd);
      mkdirSync(bin);
      writeFileSync(join(bin, 'plants'), `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(PLANTS_BIN)} "$@"\n`, {
        mode: 0o755,
      });
      const run = await runRecipe(block.body.replaceAll(EXAMPLE_URL, setup.store.url), cwd, {
        PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
        HOME: cwd,
        PLANTS_CONFIG_DIR: join(cwd, '.config', 'plants'),
        PLANTS_STATE_DIR: join(cwd, '.local', 'state', 'plants'),
        PLANTS_BASE_URL: setup.store.url,
        PLANTS_TOKEN: TOKEN,
        NO_COLOR: '1',
        // npx and npm may not fetch from the registry: a recipe runs against this store and nothing else.
        npm_config_offline: 'true',
        ...NO_KEYRING,
      });
      expect(
        { status: run.status, signal: run.signal, timedOut: run.timedOut },
        `${block.name} (\`bash -e\`) ended so; the end of what it showed:\n${tail(run.stdout)}\nscript's stderr:\n${run.stderr}`,
      ).toEqual({ status: 0, signal: null, timedOut: false });
    },
    DEADLINE_MS + 10_000,
  );
});
