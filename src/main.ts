import { VERSION } from './version.js';

// `plants --version` is run by scripts to check what is installed: answer
// before loading the command tree.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  // The command tree loads through the code cache (see tsup.config.ts).
  // run() reports every error itself; nothing reaches this promise.
  void import('./cli.js').then(({ run }) => run());
}
