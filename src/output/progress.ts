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
  let last = 0;
  const draw = (done: number) => {
    const filled = Math.round((done / total) * WIDTH);
    io.stderr.write(`\r\u001b[2K${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done}/${total}`);
  };
  draw(0);
  return {
    update(done) {
      const now = Date.now();
      if (done < total && now - last < REDRAW_MS) return;
      last = now;
      draw(done);
    },
    end() {
      io.stderr.write('\r\u001b[2K');
    },
  };
}
