import { closeSync, constants, openSync, statSync } from 'node:fs';
import { errorCode } from '../../shared/fs-reason.js';

/** How often a journal that is a pipe is tried again for a reader. */
const RETRY_MS = 20;
/** How long a reader may take to come before the run says what it waits for. */
const SAY_AFTER_MS = 1000;

/**
 * Wait until a journal file that is a pipe (a FIFO, a `>(…)`) has a process
 * reading it. Opening one for writing blocks until a reader comes, in a
 * call during which the run hears no Ctrl-C or SIGTERM: a FIFO nobody reads
 * would hold it for ever, past a cancelled CI job's SIGTERM. So the run
 * waits here instead, a little at a time, where a signal stops it, and says
 * once (`onWaiting`) what it waits for when the reader is slow to come.
 *
 * Returns what to call once the journal has opened the file: the descriptor
 * that found the reader is kept open until then, so the reader never sees
 * every writer gone and stops. Nothing to wait for (not a pipe, not there
 * yet, or a platform without O_NONBLOCK): a call that does nothing; a
 * failure other than "no reader" is left to the journal's own open to report.
 */
export async function waitForPipeReader(path: string, onWaiting: () => void): Promise<() => void> {
  const none = () => {};
  const { O_WRONLY, O_NONBLOCK } = constants;
  if (O_NONBLOCK === undefined) return none;
  try {
    if (!statSync(path).isFIFO()) return none;
  } catch {
    return none;
  }
  const since = Date.now();
  let said = false;
  for (;;) {
    let fd: number;
    try {
      // Without a reader, a non-blocking open for writing fails at once (ENXIO) instead of waiting.
      fd = openSync(path, O_WRONLY | O_NONBLOCK);
    } catch (err) {
      if (errorCode(err) !== 'ENXIO') return none;
      if (!said && Date.now() - since >= SAY_AFTER_MS) {
        said = true;
        onWaiting();
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      continue;
    }
    return () => {
      try {
        closeSync(fd);
      } catch {
        // Already closed.
      }
    };
  }
}
