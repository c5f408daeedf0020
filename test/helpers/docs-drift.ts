import type { Command, Option } from 'commander';
import { codeBlocks } from './markdown.js';

// What docs/commands.md and the other pages say of the command tree, read
// back and held against it (test/unit/docs-reference.test.ts): every command
// and flag --help shows is in the reference, and no page names a command or
// flag that does not exist.

/** The subcommands --help lists, `help` aside. */
function shown(command: Command): Command[] {
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((sub) => sub.name() !== 'help');
}

/** The flags of the options --help lists for `command` (its own; the program's for the program): `-l`, `--limit`. */
function shownFlags(command: Command): string[] {
  return command
    .createHelp()
    .visibleOptions(command)
    .filter((option) => command.parent === null || option.long !== '--help')
    .flatMap((option) => [option.short, option.long].filter((flag): flag is string => flag !== undefined));
}

/** The `## ` sections of a page, by heading. */
export function pageSections(page: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of page.split(/^## /m).slice(1)) {
    const newline = part.indexOf('\n');
    found.set(part.slice(0, newline).trim(), part.slice(newline + 1));
  }
  return found;
}

const names = (flag: string) => new RegExp(`(?<![\\w-])${flag}(?![\\w-])`);

/** (a) The commands and flags --help shows that the reference leaves out, each under its command's heading. */
export function missingFromPage(page: string, program: Command): string[] {
  const sections = pageSections(page);
  const missing: string[] = [];
  const global = sections.get('Global options');
  if (global === undefined) missing.push('the heading ## Global options');
  for (const flag of shownFlags(program)) {
    if (global !== undefined && !names(flag).test(global)) missing.push(`${flag} under ## Global options`);
  }
  for (const top of shown(program)) {
    const heading = `\`plants ${top.name()}\``;
    const text = sections.get(heading);
    if (text === undefined) {
      missing.push(`the heading ## ${heading}`);
      continue;
    }
    const walk = (command: Command, path: string): void => {
      if (command !== top && !text.includes(path)) missing.push(`${path} under ## ${heading}`);
      for (const flag of shownFlags(command)) {
        if (!names(flag).test(text)) missing.push(`${path} ${flag} under ## ${heading}`);
      }
      for (const sub of shown(command)) walk(sub, `${path} ${sub.name()}`);
    };
    walk(top, `plants ${top.name()}`);
  }
  return missing;
}

/** Every option `command` takes, hidden ones too, with --help (and the program's --version). */
function options(command: Command): Option[] {
  const help = command.createHelp();
  return [...command.options, ...help.visibleOptions(command).filter((option) => !command.options.includes(option))];
}

/** The option `flag` names on `command` or, as global options go anywhere, on one of its parents. */
function findOption(command: Command, flag: string): Option | undefined {
  for (let at: Command | null = command; at !== null; at = at.parent) {
    const found = options(at).find((option) => option.long === flag || option.short === flag);
    if (found) return found;
  }
  return undefined;
}

/** The words of a shell command line up to where the command ends (a pipe, `;`, `&`, a redirect, `)`). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (/[|;&<>)`]/.test(char) || (char === '#' && word === undefined)) {
      break;
    } else if (char === "'" || char === '"') {
      const end = line.indexOf(char, i + 1);
      word = (word ?? '') + line.slice(i + 1, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
    } else {
      word = (word ?? '') + (char === '\\' ? (line[++i] ?? '') : char);
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** A placeholder a page writes for a word: `<file>`, `[options]`, `…`. */
const placeholder = (word: string) => /^[<[]|…|\.\.\./.test(word);

/** What is wrong with one `plants …` command line (its words after `plants`): an unknown command or flag. */
export function commandLineProblems(program: Command, words: string[]): string[] {
  let command = program;
  let path = 'plants';
  let positional = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') break;
    if (/^--?[A-Za-z]/.test(word)) {
      const flag = word.startsWith('--') ? word.split('=')[0]! : word.slice(0, 2);
      const option = findOption(command, flag);
      if (option === undefined) return [`${path} has no option ${flag}`];
      const inline = word.startsWith('--') ? word.includes('=') : word.length > 2;
      if ((option.required || option.optional) && !inline) i++;
    } else if (placeholder(word)) {
      if (!positional && command.commands.length > 0) return [];
      positional = true;
    } else if (!positional && command.commands.length > 0) {
      const sub = command.commands.find((candidate) => candidate.name() === word || candidate.aliases().includes(word));
      if (sub === undefined || (sub as Command & { _hidden?: boolean })._hidden)
        return [`${path} has no command ${word}`];
      command = sub;
      path = `${path} ${word}`;
    } else {
      positional = true;
    }
  }
  return [];
}

/** The `plants …` command lines in a line of a shell script or a YAML file, each as its words after `plants`. */
function commandLines(line: string): string[][] {
  const code = line.replace(/(^|\s)#.*$/, '');
  return [...code.matchAll(/(?:^|[\s|;&(`])plants(?=\s|$)/g)].map((match) =>
    shellWords(code.slice(match.index + match[0].length)),
  );
}

/** The fenced code blocks of a page: their language and lines, continuation lines joined. */
function shellBlocks(page: string): { language: string; lines: string[] }[] {
  return codeBlocks(page).map(({ lang, body }) => ({ language: lang, lines: body.replace(/\\\n/g, ' ').split('\n') }));
}

const SHELL = new Set(['console', 'sh', 'bash', 'shell', 'zsh', 'fish', 'yaml', 'yml']);

/** (b) The commands and flags named in a page's shell and console blocks that do not exist. */
export function unknownInBlocks(page: string, program: Command): string[] {
  const problems: string[] = [];
  for (const { language, lines } of shellBlocks(page)) {
    if (!SHELL.has(language)) continue;
    for (const line of lines) {
      // In a session, what follows `$ ` is typed; the rest is output.
      if (language === 'console' && !line.startsWith('$ ')) continue;
      const typed = language === 'console' ? line.slice(2) : line;
      for (const words of commandLines(typed)) {
        problems.push(...commandLineProblems(program, words).map((problem) => `${problem}: ${line.trim()}`));
      }
    }
  }
  return problems;
}

/** The flags of `command`'s own options. */
const ownFlags = (command: Command): string[] =>
  options(command).flatMap((option) => [option.short, option.long].filter((flag): flag is string => !!flag));

/** The flags of every option in the tree below `command`, and of its parents' (the global ones). */
function flagsAround(command: Command): Set<string> {
  const flags = new Set<string>();
  const down = (at: Command): void => {
    for (const flag of ownFlags(at)) flags.add(flag);
    at.commands.forEach(down);
  };
  down(command);
  for (let at = command.parent; at !== null; at = at.parent) for (const flag of ownFlags(at)) flags.add(flag);
  return flags;
}

/**
 * (b) The reference's inline code, read strictly: a span that is a command
 * line (`plants list --json`) must be one, and a span that names flags
 * (`--max-deletes <n>`, `-o, --output <format>`) must name flags of the
 * command whose section it is in (or global ones).
 */
export function unknownInSpans(page: string, program: Command): string[] {
  const problems: string[] = [];
  const withoutBlocks = page.replace(/^```[\s\S]*?^```$/gm, '');
  const sections = [['', withoutBlocks.split(/^## /m)[0]!], ...pageSections(withoutBlocks)];
  for (const [heading, text] of sections) {
    const top = /^`plants (\S+)`$/.exec(heading!)?.[1];
    const command = top === undefined ? program : program.commands.find((sub) => sub.name() === top);
    const flags = heading === 'Global options' ? new Set(ownFlags(program)) : flagsAround(command ?? program);
    for (const [, span] of text!.matchAll(/`([^`\n]+)`/g)) {
      if (span!.startsWith('plants ')) {
        problems.push(...commandLineProblems(program, shellWords(span!.slice(7))).map((p) => `${p}: ${span}`));
      } else if (/^--?[A-Za-z]/.test(span!)) {
        for (const [flag] of span!.matchAll(/(?<![^\s,])--?[A-Za-z][\w-]*/g)) {
          if (!flags.has(flag)) problems.push(`${flag} is no option here, under ## ${heading}: ${span}`);
        }
      }
    }
  }
  return problems;
}
