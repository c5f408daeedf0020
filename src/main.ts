import { VERSION } from './version.js';

// `plants --version` is run by scripts to check what is installed: answer
// before loading the command tree.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const { run } = await import('./cli.js');
  await run();
}
