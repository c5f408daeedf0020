import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One fenced code block: its language (first word of the info string), text and the line of its opening fence. */
export interface CodeBlock {
  lang: string;
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** 1-based line of the closing fence (the last line when there is none). */
  end: number;
}

/** The Markdown pages whose links, sessions and recipes the tests check: README.md, CHANGELOG.md, docs/**\/*.md. */
export function docFiles(root: string): string[] {
  const found = ['README.md', 'CHANGELOG.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found.sort();
}

const FENCE = /^( *)(`{3,}|~{3,})\s*([^`\s]*)/;

/**
 * Every fenced code block of `text`, as CommonMark reads them: a fence of
 * three or more backticks or tildes, closed by a fence of the same character
 * at least as long (or the end of the file). The opening fence's indentation
 * (a block in a list item) is removed from the lines inside, as far as they
 * have it.
 */
export function codeBlocks(text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^ *(`{3,}|~{3,})\s*$/.exec(lines[j]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      body.push(lines[j]!.replace(new RegExp(`^ {0,${indent.length}}`), ''));
    }
    blocks.push({ lang: lang.toLowerCase(), body: body.join('\n'), line: i + 1, end: Math.min(j + 1, lines.length) });
    i = j;
  }
  return blocks;
}

/**
 * `text` as prose: code blocks, inline code and HTML comments blanked out
 * (each character but line breaks made a space), so what is left keeps its
 * line numbers and holds no example that merely looks like a link.
 */
export function prose(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  const lines = text.split('\n');
  for (const block of codeBlocks(text)) {
    for (let i = block.line - 1; i < block.end; i++) lines[i] = blank(lines[i]!);
  }
  return (
    lines
      .join('\n')
      .replace(/<!--[\s\S]*?-->/g, blank)
      // A code span: a run of backticks, closed by a run of the same length.
      .replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank)
  );
}

/** A link's target and the line it is on. */
export interface Link {
  target: string;
  line: number;
}

/**
 * The links of `text` outside code: inline links and images
 * `[text](target "title")`, reference definitions `[label]: target`, and
 * `href`/`src` attributes of HTML.
 */
export function links(text: string): Link[] {
  const bare = prose(text);
  const lineOf = (index: number) => bare.slice(0, index).split('\n').length;
  const found: Link[] = [];
  const patterns = [
    // Balanced parentheses one deep inside the target, as CommonMark allows.
    /\]\(\s*(<[^>\n]*>|(?:[^\s()]|\([^\s()]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g,
    // Not a footnote (`[^1]: text`).
    /^ {0,3}\[(?!\^)[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gm,
    /<[a-z][^>]*?\s(?:href|src)\s*=\s*["']([^"']*)["']/gi,
  ];
  for (const pattern of patterns) {
    for (const match of bare.matchAll(pattern)) {
      found.push({ target: match[1]!.replace(/^<(.*)>$/, '$1'), line: lineOf(match.index) });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

/** A heading's text as GitHub renders it, Markdown removed: code spans' backticks, emphasis, links, HTML tags. */
function headingText(markdown: string): string {
  return markdown
    .split(/(`+)([\s\S]*?[^`])\1(?!`)/)
    .map((part, i) => {
      // split() gives [text, backticks, code, text, …]: code is kept as it is.
      if (i % 3 === 2) return part.trim() === '' ? part : part.replace(/^ (.*) $/, '$1');
      if (i % 3 === 1) return '';
      return part
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/<[^>]*>/g, '')
        .replace(/(^|[^\p{L}\p{N}_])(_{1,2})(?=\S)(.*?\S)\2(?![\p{L}\p{N}_])/gu, '$1$3');
    })
    .join('');
}

/**
 * The anchor GitHub makes for a heading (as github-slugger makes it):
 * lowercase; everything but letters (and other alphabetic characters),
 * marks, digits, letter numbers, connector punctuation (`_`), `-` and
 * spaces removed; each space a `-`.
 */
export function slug(heading: string): string {
  return headingText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\p{Alphabetic} -]/gu, '')
    .replace(/ /g, '-');
}

/** An ATX heading (`## text`, closing `#`s optional); its text is group 1. */
const ATX = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/;

/**
 * Every anchor of a page: its headings' slugs (ATX `## x`, and setext
 * `x` over `===`/`---`), the second of two alike `-1`, the third `-2`; and
 * explicit `id`/`name` attributes of HTML.
 */
export function anchors(text: string): Set<string> {
  const lines = prose(text).split('\n');
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const add = (heading: string) => {
    const base = slug(heading);
    let anchor = base;
    // As github-slugger: count on until a free one (`a-1` may be a heading of its own).
    while (result.has(anchor)) {
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      anchor = `${base}-${n}`;
    }
    result.add(anchor);
  };
  const raw = text.split('\n');
  lines.forEach((line, i) => {
    // Headings are read from the text itself (their code spans are blanked in `lines`).
    if (ATX.test(line)) add(ATX.exec(raw[i]!)![1] ?? '');
    else if (
      /^ {0,3}(=+|-+)\s*$/.test(line) &&
      i > 0 &&
      lines[i - 1]!.trim() !== '' &&
      !/^\s*[-*+>#|]/.test(raw[i - 1]!)
    ) {
      add(raw[i - 1]!.trim());
    }
  });
  for (const match of prose(text).matchAll(/<[a-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']/gi)) result.add(match[1]!);
  return result;
}

/** A page read from `root`. */
export function readPage(root: string, file: string): string {
  return readFileSync(join(root, file), 'utf8');
}
