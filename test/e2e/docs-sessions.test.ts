import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { againstStore } from '../helpers/against-store.js';
import { TOKEN } from '../helpers/servers.js';

// The sessions the README and docs/commands.md show, replayed in an
// 80-column pseudo-terminal against the local store with its eight sample
// plants: what each command prints must be what the page says.
const setup = againstStore({ seed: 8 }, { perTest: true });

const EXAMPLE_URL = 'https://plants.example.com/api';
const EXAMPLE_CONFIG = '/home/ana/.config/plants/config.json';
const EXAMPLE_TARGET = 'plants.example.com/api';

interface Step {
  args: string[];
  expected: string[];
}

/** The first ```console block after `heading` (or the first in the file): its commands and what each prints. */
function session(file: string, heading?: string): Step[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const from = heading === undefined ? 0 : text.indexOf(`\n${heading}\n`);
  expect(from, `${heading} in ${file}`).toBeGreaterThanOrEqual(0);
  const block = /```console\n([\s\S]*?)```/.exec(text.slice(from));
  expect(block, `a console block in ${file}`).not.toBeNull();
  const steps: Step[] = [];
  for (const line of block![1]!.trimEnd().split('\n')) {
    if (line.startsWith('$ ')) {
      const words = line.slice(2).split(/ +/);
      // Plain words only, so splitting at spaces is what a shell would do.
      expect(
        words.every((word) => /^[\w./:@=-]+$/.test(word)),
        line,
      ).toBe(true);
      expect(words[0]).toBe('plants');
      steps.push({ args: words.slice(1), expected: [] });
    } else {
      steps.at(-1)!.expected.push(line);
    }
  }
  return steps;
}

/**
 * The lines a terminal shows for `output`: carriage return, line feed and
 * the cursor moves and erasures a line editor writes (CSI n G, n C, K, J)
 * applied; other escape sequences (colour) dropped; trailing spaces trimmed.
 */
function screen(output: string): string[] {
  const lines: string[][] = [[]];
  let column = 0;
  // eslint-disable-next-line no-control-regex -- escape sequences are what is being read
  const csi = /^\u001b\[([0-9;?]*)([ -/]*[@-~])/;
  for (let i = 0; i < output.length;) {
    const line = lines.at(-1)!;
    const sequence = csi.exec(output.slice(i, i + 32));
    if (sequence) {
      const n = Number(sequence[1] || '1');
      if (sequence[2] === 'G') column = n - 1;
      else if (sequence[2] === 'C') column += n;
      else if (sequence[2] === 'K' || sequence[2] === 'J') line.length = Math.min(line.length, column);
      i += sequence[0].length;
      continue;
    }
    const char = String.fromCodePoint(output.codePointAt(i)!);
    i += char.length;
    if (char === '\r') column = 0;
    else if (char === '\n') [column] = [0, lines.push([])];
    else {
      while (line.length < column) line.push(' ');
      line[column++] = char;
    }
  }
  return lines.map((line) => line.join('').trimEnd());
}

/** What the terminal showed, with the test's own URL and config path put back as the page has them. */
function shown(output: string): string[] {
  return (
    screen(output)
      .join('\n')
      // The origin a token is stored for, which has no path.
      .replaceAll(`, for ${new URL(setup.store.url).origin}\n`, `, for ${new URL(EXAMPLE_URL).origin}\n`)
      .replaceAll(setup.store.url, EXAMPLE_URL)
      // Where a delete would go, as its prompt and dry run name it.
      .replaceAll(`${new URL(setup.store.url).host} (profile`, `${EXAMPLE_TARGET} (profile`)
      .replaceAll(join(setup.dir.path, 'config.json'), EXAMPLE_CONFIG)
      .trimEnd()
      .split('\n')
  );
}

async function replay(steps: Step[], env: Record<string, string | undefined>) {
  for (const step of steps) {
    const args = step.args.map((arg) => arg.replaceAll(EXAMPLE_URL, setup.store.url));
    const r = await setup.plants(args, {
      tty: true,
      columns: 80,
      env,
      // Typed only where the page shows a prompt: the token (hidden, so not on the page), or y.
      answers: step.expected.flatMap((line) =>
        line === 'Paste your token:'
          ? [{ when: line, send: `${TOKEN}\r` }]
          : line.endsWith('[y/N] y')
            ? [{ when: '[y/N]', send: 'y\r' }]
            : [],
      ),
    });
    expect(r.code, `plants ${step.args.join(' ')}: ${r.stdout}`).toBe(0);
    expect(shown(r.stdout), `plants ${step.args.join(' ')}`).toEqual(step.expected);
  }
}

describe('the sessions shown in the documentation are what a terminal shows', () => {
  it('README.md, at the top', async () => {
    const steps = session('README.md');
    expect(steps.length).toBeGreaterThan(1);
    await replay(steps, {});
  });

  it('docs/commands.md, "A typical session"', async () => {
    const steps = session('docs/commands.md', '## A typical session');
    expect(steps.map((step) => step.args[0])).toContain('auth');
    // From nothing: the session itself sets the base URL and logs in.
    await replay(steps, { PLANTS_BASE_URL: undefined, PLANTS_TOKEN: undefined });
  });
});
