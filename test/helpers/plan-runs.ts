import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import type { PlanDocument } from '../../src/deletion/plan/document.js';
import type { StoredPlant } from '../../src/server/store.js';
import { runCli, tempDir, type CliResult } from './cli.js';
import { plantStore, TOKEN } from './servers.js';

type Store = Awaited<ReturnType<typeof plantStore>>;

/**
 * The set-up of the plan tests (docs/plans.md): a directory of each test's
 * own (config, state, the plan file) and, once `start` is called, a local
 * store made for that test; `plants` runs the CLI against it.
 */
export function planRuns() {
  let store: Store | undefined;
  let dir: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    dir?.remove();
  });
  const path = () => dir!.path;
  const planFile = () => join(path(), 'plan.json');
  const env = (more: Record<string, string> = {}) => ({
    PLANTS_BASE_URL: store?.url ?? '',
    PLANTS_TOKEN: TOKEN,
    PLANTS_STATE_DIR: join(path(), 'state'),
    ...more,
  });
  const plants = (args: string[], more: Record<string, string> = {}, input?: string) =>
    runCli(args, { configDir: path(), env: env(more), input });
  const readPlan = () => JSON.parse(readFileSync(planFile(), 'utf8')) as PlanDocument;
  const ok = (r: CliResult) => {
    expect(r.code, r.stderr).toBe(0);
    return r;
  };
  return {
    /** This test's store; start() makes it. */
    get store(): Store {
      return store!;
    },
    get dir(): string {
      return path();
    },
    start: async (plants: StoredPlant[]) => {
      store = await plantStore({ plants });
    },
    planFile,
    env,
    plants,
    readPlan,
    editPlan: (edit: (plan: PlanDocument) => unknown) => writeFileSync(planFile(), JSON.stringify(edit(readPlan()))),
    /** A run's --json results as [id, result] pairs. */
    results: (r: CliResult) => (JSON.parse(r.stdout) as { id: string; result: string }[]).map((x) => [x.id, x.result]),
    /** The paths of the DELETEs the store was sent. */
    deletes: () => store!.requests.filter((r) => r.method === 'DELETE').map((r) => r.path),
    /** The run exited 0 (else its stderr says why). */
    ok,
    /** Make a plan with these arguments and --plan. */
    plan: async (args: string[]) => ok(await plants([...args, '--plan', planFile()])),
  };
}
