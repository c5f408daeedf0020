import { codeBlocks, docFiles, readPage, type CodeBlock } from './markdown.js';

/** A code block of a page, named by file and line for the test that runs it. */
export interface PageBlock extends CodeBlock {
  file: string;
  name: string;
}

/** Every block of README.md, CHANGELOG.md and docs/**\/*.md whose language is one of `langs`. */
export function pageBlocks(root: string, langs: string[]): PageBlock[] {
  return docFiles(root).flatMap((file) =>
    codeBlocks(readPage(root, file))
      .filter((block) => langs.includes(block.lang))
      .map((block) => ({ ...block, file, name: `${file}:${block.line}` })),
  );
}

/** One command of a console session: the words after `plants`, what the terminal shows, the exit status. */
export interface Step {
  args: string[];
  expected: string[];
  /** What `echo $?` after it shows; 0 when the session does not ask. */
  status: number;
  /** Its line: in the page when `firstLine` was given, else in the block (1-based). */
  line: number;
}

/** Plain words only, so splitting at spaces is what a shell would do. */
const WORD = /^[\w./:@=,-]+$/;

/**
 * The steps of a console block (docs convention 2): `$ plants <plain words>`
 * lines are commands and the lines up to the next `$ ` what each shows;
 * `$ echo $?` is followed by one line, the exit status of the command
 * before it. Anything else is an error naming the line (`firstLine` is the
 * page's line of the block's first line).
 */
export function consoleSteps(body: string, firstLine = 1): Step[] {
  const steps: Step[] = [];
  // The step whose `echo $?` was just read: the next line is its status.
  let awaitingStatus: Step | undefined;
  let statusShown = false;
  if (body.trim() === '') throw new Error('no command: a console block shows at least one `$ plants …`');
  const lines = body.replace(/\n+$/, '').split('\n');
  lines.forEach((line, i) => {
    const at = `line ${firstLine + i} (${JSON.stringify(line)})`;
    if (awaitingStatus) {
      if (!/^\d+$/.test(line)) throw new Error(`${at}: after \`$ echo $?\`, the exit status (a number)`);
      awaitingStatus.status = Number(line);
      [awaitingStatus, statusShown] = [undefined, true];
      return;
    }
    if (!line.startsWith('$ ')) {
      if (steps.length === 0) throw new Error(`${at}: output before the first command`);
      if (statusShown) throw new Error(`${at}: output after the exit status; start a new command with \`$ \``);
      steps.at(-1)!.expected.push(line);
      return;
    }
    const command = line.slice(2).trim();
    if (command === 'echo $?') {
      if (steps.length === 0 || statusShown) throw new Error(`${at}: \`echo $?\` must follow a plants command`);
      awaitingStatus = steps.at(-1);
      return;
    }
    const words = command.split(/ +/);
    if (words[0] !== 'plants' || !words.every((word) => WORD.test(word))) {
      throw new Error(
        `${at}: a command is \`plants\` and plain words (letters, digits, _ . / : @ = , -), or \`echo $?\`; ` +
          'show pipes, quotes and variables in an sh block',
      );
    }
    steps.push({ args: words.slice(1), expected: [], status: 0, line: firstLine + i });
    statusShown = false;
  });
  if (awaitingStatus) throw new Error(`the block ends after \`$ echo $?\`: the exit status is missing`);
  if (steps.length === 0) throw new Error('no command: a console block shows at least one `$ plants …`');
  return steps;
}

/** Whether a session logs in from nothing (then it starts without PLANTS_BASE_URL and PLANTS_TOKEN). */
export function setsBaseUrl(steps: Step[]): boolean {
  return steps.some((step) => step.args.join(' ').includes('config set base-url'));
}

/**
 * Whether a shell block runs a deletion (`plants delete`, `prune` or
 * `apply`, global options allowed between), comments aside, lines joined
 * where a backslash continues them: such blocks are run by a test.
 */
export function runsDeletion(body: string): boolean {
  return body
    .replace(/\\\n/g, ' ')
    .split('\n')
    .some((line) => {
      const code = line.replace(/(^|\s)#.*$/, '');
      return /\bplants\b(\s+-\S+(\s+[^\s|;&-]\S*)?)*\s+(delete|prune|apply)\b/.test(code);
    });
}
