import { writeToFd } from './output/write-now.js';
import { VERSION } from './shared/version.js';
import { asksVersionOnly } from './startup/argv.js';

// The first bundle a run loads (bin/plants.js calls start()). It also
// carries the code cache, through which it and the command tree load the
// other bundles (see build/start-up.ts): one file fewer to load.
export { requireBundle } from './startup/code-cache.js';

/** Run the CLI with process.argv. Loading this bundle does nothing by itself. */
export function start(): void {
  // `plants --version` is run by scripts to check what is installed: answered
  // before the command tree loads, and without process.stdout (which loads
  // node's streams). Saves 10 CPU ms (33 ms of wall time) of each such run;
  // the bench's row "plants --debug --version" shows it.
  const args = process.argv.slice(2);
  // A write that failed (a full disk) is left to the full run, which reports it as every command's.
  if (asksVersionOnly(args) && !writeToFd(1, `${VERSION}\n`)) return;
  // The command tree loads through the code cache (see build/start-up.ts).
  // run() reports every error itself; nothing reaches this promise.
  void import('./cli.js').then(({ run }) => run());
}
