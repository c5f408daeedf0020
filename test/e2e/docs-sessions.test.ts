import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { againstStore } from '../helpers/against-store.js';
import { consoleSteps, pageBlocks, setsBaseUrl, type Step } from '../helpers/doc-blocks.js';
import { TOKEN } from '../helpers/servers.js';

// Every console session of README.md, CHANGELOG.md and docs/ (docs
// convention 2), replayed in an 80-column pseudo-terminal against a fresh
// local store with its eight sample plants and an empty config directory:
// what each command prints must be what the page says, and its exit status
// what `echo $?` shows (0 where the page does not ask).
const setup = againstStore({ seed: 8 }, { perTest: true });

const EXAMPLE_URL = 'https://plants.example.com/api';
const EXAMPLE_CONFIG = '/home/ana/.config/plants/config.json';
const EXAMPLE_TARGET = 'plants.example.com/api';

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
    const command = `line ${step.line}: plants ${step.args.join(' ')}`;
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
    // Together, so a failure shows both: the exit status and the screen.
    expect({ status: r.code, screen: shown(r.stdout) }, `${command} (signal ${r.signal}; stderr: ${r.stderr})`).toEqual(
      {
        status: step.status,
        screen: step.expected,
      },
    );
  }
}

const blocks = pageBlocks(ROOT, ['console']);

describe('the sessions shown in the documentation are what a terminal shows', () => {
  it('README.md has one at least (its quick start)', () => {
    expect(blocks.map((block) => block.file)).toContain('README.md');
  });

  it.each(blocks.map((block) => [block.name, block] as const))(
    '%s',
    async (_name, block) => {
      const steps = consoleSteps(block.body, block.line + 1);
      // A session that logs in from nothing starts with neither the base URL nor the token.
      await replay(steps, setsBaseUrl(steps) ? { PLANTS_BASE_URL: undefined, PLANTS_TOKEN: undefined } : {});
    },
    60_000,
  );
});
