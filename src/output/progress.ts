import type { IOStreams } from './iostreams.js';

export interface Progress {
  update(done: number): void;
  /** Erase the bar, leaving the line free for what follows. */
  end(): void;
}

const WIDTH = 30;
const REDRAW_MS = 100;

/** A one-line progress bar on stderr, redrawn at most ten times a second. Only for a terminal. */
export function progressBar(io: IOStreams, label: string, total: number): Progress {
  let drawnAt = 0;
  let latest = 0;
  let pending: NodeJS.Timeout | undefined;
  const draw = () => {
    clearTimeout(pending);
    pending = undefined;
    drawnAt = Date.now();
    const filled = Math.round((latest / total) * WIDTH);
    io.stderr.write(`\r\u001b[2K${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${latest}/${total}`);
  };
  draw();
  return {
    update(done) {
      latest = done;
      const wait = REDRAW_MS - (Date.now() - drawnAt);
      if (done === total || wait <= 0) draw();
      // A throttled update is drawn when the interval is up, so the bar never goes stale.
      else pending ??= setTimeout(draw, wait);
    },
    end() {
      clearTimeout(pending);
      io.stderr.write('\r\u001b[2K');
    },
  };
}
