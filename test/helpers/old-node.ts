import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The oldest Node.js the CLI runs on; anything before it gets one line and exit 1. */
const SUPPORTED = [22, 19] as const;

/** The version a `node` binary reports, or undefined when it does not run. */
function versionOf(node: string): string | undefined {
  const r = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function older(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major < SUPPORTED[0] || (major === SUPPORTED[0] && minor < SUPPORTED[1]);
}

export type OldNode = { bin: string; version: string } | { missing: string };

/**
 * A Node.js older than the project supports, as the system's Node.js of a
 * newcomer's machine: the bin directory in PLANTS_TEST_OLD_NODE (`.ci/run`
 * sets it), else the directory of the Node.js that runs npm when it is older.
 * `missing` says why there is none.
 */
export function oldNode(): OldNode {
  const candidates = [
    process.env.PLANTS_TEST_OLD_NODE,
    process.env.npm_node_execpath && dirname(process.env.npm_node_execpath),
  ];
  for (const bin of candidates) {
    if (!bin || !existsSync(join(bin, 'node'))) continue;
    const version = versionOf(join(bin, 'node'));
    if (version && older(version)) return { bin, version };
  }
  return {
    missing: 'no Node.js older than 22.19 here: set PLANTS_TEST_OLD_NODE to the bin directory of one (.ci/run does)',
  };
}

/** Skip a test that needs an old Node.js when there is none, except on CI (CI=true), where it fails instead. */
export function withoutOldNode(node: OldNode): boolean {
  return 'missing' in node && process.env.CI !== 'true';
}

/** The old Node.js, or the test fails saying why there is none. */
export function present(node: OldNode): { bin: string; version: string } {
  if ('missing' in node) throw new Error(node.missing);
  return node;
}

/**
 * PATH as a newcomer's shell has it, with `bin` first: without the
 * node_modules/.bin directories (and npm's node-gyp-bin) that npm puts first
 * for the scripts it runs, this test's own among them.
 */
export function pathWithout(bin: string): string {
  const outer = (process.env.PATH ?? '/usr/bin:/bin')
    .split(':')
    .filter((dir) => dir && !dir.includes('node_modules') && !dir.includes('node-gyp-bin'));
  return [bin, ...outer].join(':');
}
