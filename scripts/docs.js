// `npm run docs`: rewrite the generated parts of docs/commands.md (each
// command's usage, arguments and options, and the global options)
// from the command tree that prints --help. `--check` changes nothing and
// exits 1 when a part is missing or stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { builtProgram, root } from './command-tree.js';
import { fill, staleParts } from './docs-reference.js';

const file = `${root}docs/commands.md`;
const page = readFileSync(file, 'utf8');
const program = builtProgram();
const problems = staleParts(page, program).filter((problem) => !problem.includes('stale'));

if (problems.length > 0) {
  for (const problem of problems) console.error(`docs/commands.md: ${problem}`);
  process.exit(1);
}
if (process.argv.includes('--check')) {
  const stale = staleParts(page, program);
  for (const problem of stale) console.error(`docs/commands.md: ${problem}`);
  process.exit(stale.length > 0 ? 1 : 0);
}
const fresh = fill(page, program);
if (fresh !== page) writeFileSync(file, fresh);
