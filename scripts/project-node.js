// The first step of every script a contributor runs (npm test, npm run demo,
// build, bench, completions). npm puts node_modules/.bin first on a script's
// PATH, so `node` there is the project's own Node.js: the exact version of the
// `node` dev dependency, whatever the system has (docs/decisions/0007). This says
// so in one line when npm itself runs on another Node.js, and stops with one
// line when the project's Node.js is missing (npm ci not run yet, or run with
// --ignore-scripts) and the one found instead is too old.
//
// Syntax Node.js 14 and later parse: an old Node.js must be able to read this file to say so.
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';

const REQUIRED = [22, 19];
const script = process.env.npm_lifecycle_event;
const command = script === 'test' ? 'npm test' : `npm run ${script}`;
const [major, minor] = process.versions.node.split('.').map(Number);

if (major < REQUIRED[0] || (major === REQUIRED[0] && minor < REQUIRED[1])) {
  console.error(
    script
      ? `${command} needs Node.js ${REQUIRED.join('.')} or newer, and the project's own Node.js is not installed ` +
          `(this is ${process.version}): run \`npm ci\` first, without --ignore-scripts.`
      : `The project's scripts need Node.js ${REQUIRED.join('.')} or newer (this is ${process.version}): ` +
          "run them through npm (`npm test`, `npm run demo`), which uses the project's own Node.js after `npm ci`.",
  );
  process.exit(1);
}

// npm names the Node.js it runs on to the scripts it runs. A script's own
// `npm run` (npm test runs npm run build) runs npm on the project's Node.js,
// and stays quiet: the line is said once.
const npmNode = process.env.npm_node_execpath;
const real = (path) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};
if (npmNode && real(npmNode) !== real(process.execPath)) {
  const system = spawnSync(npmNode, ['--version'], { encoding: 'utf8' }).stdout?.trim() || npmNode;
  const pinned = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).devDependencies.node;
  const own = `v${pinned}` === process.version ? "the project's own, from the `node` dev dependency" : 'found on PATH';
  console.error(`Node.js ${process.version} (${own}) runs the project's scripts; the system's Node.js is ${system}.`);
}
