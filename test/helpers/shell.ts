import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export type ShellName = 'bash' | 'zsh' | 'fish';

/** True when `shell` is not installed and tests of it should be skipped: never on CI, which installs them all. */
export function shellMissing(shell: ShellName): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`]).status !== 0 && process.env.CI !== 'true';
}

/** How long to wait for what the shell should print before failing. */
const DEADLINE_MS = 15_000;

// Prompts carry the shell's count of commands run, so the prompt after a
// command can be told from a repaint of the one before it.
const PROMPT = /\[(\d+)\]ready> /g;

/** Each shell with no user or system config, the checked-in completion script loaded, and PROMPT. */
function startup(shell: ShellName, home: string): { argv: string[]; env: Record<string, string> } {
  const completions = join(ROOT, 'completions');
  if (shell === 'bash') {
    const rc = join(home, '.bashrc');
    writeFileSync(rc, `HISTFILE=\nPS1='[\\#]ready> '\nsource '${completions}/plants.bash'\n`);
    return { argv: ['bash', '--noprofile', '--rcfile', rc, '-i'], env: {} };
  }
  if (shell === 'zsh') {
    const zdotdir = join(home, 'zdotdir');
    mkdirSync(zdotdir, { recursive: true });
    // Read first (after /etc/zsh/zshenv): skip the other system-wide files.
    writeFileSync(join(zdotdir, '.zshenv'), 'unsetopt global_rcs\n');
    writeFileSync(
      join(zdotdir, '.zshrc'),
      [
        "PROMPT='[%h]ready> '",
        'unsetopt beep',
        `fpath=('${completions}' $fpath)`,
        'autoload -Uz compinit',
        'compinit -u -D',
        "zstyle ':completion:*' list-prompt ''",
        '',
      ].join('\n'),
    );
    return { argv: ['zsh', '-i'], env: { ZDOTDIR: zdotdir } };
  }
  const rc = join(home, 'config.fish');
  writeFileSync(
    rc,
    [
      'function fish_greeting; end',
      // A suggestion drawn after the cursor could be taken for a completion.
      'set -g fish_autosuggestion_enabled 0',
      'function fish_prompt; echo -n "[$status_generation]ready> "; end',
      `source '${completions}/plants.fish'`,
      '',
    ].join('\n'),
  );
  // --no-config: no system or user config; -C loads this one.
  return { argv: ['fish', '--no-config', '-i', '-C', `source '${rc}'`], env: { XDG_DATA_HOME: join(home, 'data') } };
}

/** What a terminal shows, without the escape sequences that move the cursor or set colours. */
function visible(output: string): string {
  // eslint-disable-next-line no-control-regex -- escape sequences are what is being removed
  return output.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-Za-z]|\u001b[=>]|[\r\b]/g, '');
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

interface InteractiveShell {
  /** Everything the terminal received, escape sequences and all. */
  readonly output: string;
  /** Type keys (`\t` is Tab); later waits look only at what the terminal shows after this. */
  type(keys: string): void;
  /** Wait until what the terminal shows since the last `type` matches; fails at the deadline, showing it. */
  waitFor(expected: RegExp | ((shown: string) => boolean), what?: string): Promise<string>;
  /** Press Enter and wait for the prompt that follows the command. */
  enter(): Promise<string>;
  /**
   * Empty the command line (Ctrl-U, the cursor being at its end). A key, not
   * Ctrl-C: a signal could arrive while the shell is still busy drawing.
   */
  clearLine(): void;
  /** Exit the shell (whatever is on the command line) and wait for it to end; killed after 5 s. */
  close(): Promise<void>;
}

/**
 * An interactive shell in a pseudo-terminal (util-linux `script`), 200
 * columns wide, in `cwd`, with `env` as its whole environment (plus what
 * the shell needs to skip user config, under `home`). Resolves once the
 * first prompt is on screen. Every wait is for something the terminal
 * shows, never a fixed time.
 */
export async function interactiveShell(
  shell: ShellName,
  options: { cwd: string; home: string; env: Record<string, string> },
): Promise<InteractiveShell> {
  const { argv, env } = startup(shell, options.home);
  const command = `stty cols 200 rows 50; exec ${argv.map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd,
    env: { TERM: 'xterm', ...options.env, HOME: options.home, ...env },
  });
  let output = '';
  let mark = 0;
  let listeners: (() => void)[] = [];
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));

  const shownSinceMark = () => visible(output.slice(mark));
  const lastPrompt = (text: string) => Math.max(-1, ...[...text.matchAll(PROMPT)].map((m) => Number(m[1])));

  function waitFor(expected: RegExp | ((shown: string) => boolean), what = String(expected)): Promise<string> {
    const matches = typeof expected === 'function' ? expected : (shown: string) => expected.test(shown);
    return new Promise((resolve, reject) => {
      const listener = () => {
        const shown = shownSinceMark();
        if (!matches(shown)) return;
        stop();
        resolve(shown);
      };
      const timer = setTimeout(() => {
        stop();
        reject(
          new Error(
            `${shell} did not show ${what} within ${DEADLINE_MS} ms; it showed:\n${JSON.stringify(shownSinceMark())}`,
          ),
        );
      }, DEADLINE_MS);
      const stop = () => {
        clearTimeout(timer);
        listeners = listeners.filter((l) => l !== listener);
      };
      listeners.push(listener);
      listener();
    });
  }

  const type = (keys: string) => {
    mark = output.length;
    child.stdin.write(keys);
  };

  await waitFor((shown) => lastPrompt(shown) >= 0, 'its first prompt');
  return {
    get output() {
      return output;
    },
    type,
    waitFor,
    async enter() {
      const before = lastPrompt(visible(output));
      type('\r');
      return waitFor((shown) => lastPrompt(shown) > before, 'the prompt after the command');
    },
    clearLine() {
      type('\u0015');
    },
    async close() {
      type('\u0015exit\r');
      const timer = setTimeout(() => child.kill(), 5_000);
      await closed;
      clearTimeout(timer);
    },
  };
}
