import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { anchors, docFiles, links, readPage } from './markdown.js';

/** Links that leave the repository, which the link check does not follow. */
const EXTERNAL = /^(https?|mailto):/i;

/** Of `paths` (relative to `root`), those git ignores: they exist here but not in a clone. */
function ignored(root: string, paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  const r = spawnSync('git', ['check-ignore', '--stdin'], { cwd: root, input: paths.join('\n'), encoding: 'utf8' });
  // Status 1: none ignored; 128: not a git work tree (nothing to tell apart).
  return new Set(r.status === 0 ? r.stdout.split('\n').filter(Boolean) : []);
}

function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with the relative links of `file` (relative to `root`), one
 * message each: a target that is not in the repository (missing, outside
 * it, or ignored by git, so not in a clone), or an anchor that is no
 * heading or explicit anchor of the Markdown page it points into.
 */
export function linkProblems(root: string, file: string): string[] {
  const problems: string[] = [];
  const pages = new Map<string, Set<string>>();
  const anchorsOf = (page: string) => {
    if (!pages.has(page)) pages.set(page, anchors(readPage(root, page)));
    return pages.get(page)!;
  };
  const checked: { line: number; target: string; path: string }[] = [];
  for (const { target, line } of links(readPage(root, file))) {
    if (target === '' || EXTERNAL.test(target)) continue;
    const hash = target.indexOf('#');
    const [pathPart, anchor] = hash === -1 ? [target, undefined] : [target.slice(0, hash), target.slice(hash + 1)];
    const decoded = percentDecoded(pathPart);
    if (decoded === undefined) {
      problems.push(`${file}:${line}: ${target}: not a valid URL (a stray %)`);
      continue;
    }
    // A leading slash is the repository's root, as GitHub reads it.
    const absolute =
      decoded === ''
        ? join(root, file)
        : resolve(decoded.startsWith('/') ? root : dirname(join(root, file)), `.${sep}${decoded}`);
    const path = relative(root, absolute);
    const where = `${file}:${line}: ${target}`;
    if (path.startsWith('..') || !existsSync(absolute)) {
      problems.push(`${where}: no such file or directory in the repository`);
      continue;
    }
    checked.push({ line, target, path });
    if (anchor !== undefined && path.endsWith('.md') && statSync(absolute).isFile()) {
      if (!anchorsOf(path).has(percentDecoded(anchor) ?? anchor)) {
        problems.push(`${where}: ${path} has no heading or anchor #${anchor}`);
      }
    }
  }
  const notInClone = ignored(
    root,
    checked.map((c) => c.path),
  );
  for (const c of checked) {
    if (notInClone.has(c.path)) problems.push(`${file}:${c.line}: ${c.target}: ignored by git, so not in a clone`);
  }
  return problems;
}

/** Every page's link problems: README.md, CHANGELOG.md and docs/**\/*.md. */
export function allLinkProblems(root: string): string[] {
  return docFiles(root).flatMap((file) => linkProblems(root, file));
}

const KB = 1024;
/** The issue's caps (bytes): each page alone, and docs/ in all. */
export const CAPS = { 'README.md': 12 * KB, 'CHANGELOG.md': 12 * KB, docsFile: 25 * KB, docsTotal: 100 * KB };

function filesUnder(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(root, join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Each cap `root`'s pages exceed, naming the file (or docs/) and its size in bytes. */
export function sizeProblems(root: string): string[] {
  const problems: string[] = [];
  const size = (file: string) => statSync(join(root, file)).size;
  for (const file of ['README.md', 'CHANGELOG.md'] as const) {
    if (size(file) > CAPS[file]) problems.push(`${file} is ${size(file)} bytes, over ${CAPS[file]}`);
  }
  let total = 0;
  for (const file of filesUnder(root, 'docs')) {
    total += size(file);
    if (size(file) > CAPS.docsFile) problems.push(`${file} is ${size(file)} bytes, over ${CAPS.docsFile}`);
  }
  if (total > CAPS.docsTotal) problems.push(`docs/ is ${total} bytes in all, over ${CAPS.docsTotal}`);
  return problems;
}
