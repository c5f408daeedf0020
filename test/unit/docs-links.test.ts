import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';
import { allLinkProblems, linkProblems } from '../helpers/doc-checks.js';
import { anchors, codeBlocks, links, slug } from '../helpers/markdown.js';

// Every relative link of README.md, CHANGELOG.md and docs/ resolves, and
// every anchor is a heading of its page as GitHub makes anchors (docs
// convention 1); first, that the reading of Markdown behind it is right.

describe('slug: the anchor GitHub makes for a heading', () => {
  it.each([
    ['`plants list`', 'plants-list'],
    ['Exit codes of a bulk run', 'exit-codes-of-a-bulk-run'],
    ['`plants apply <file>`', 'plants-apply-file'],
    ['`plants completion <bash|zsh|fish>`', 'plants-completion-bashzshfish'],
    ['`--max-deletes <n>`', '--max-deletes-n'],
    ['Lists & tables', 'lists--tables'],
    ['Input/output', 'inputoutput'],
    ['The `PLANTS_TOKEN` variable', 'the-plants_token-variable'],
    ['Übersicht der Größen', 'übersicht-der-größen'],
    ['Café, naïve: résumé', 'café-naïve-résumé'],
    ['What *is* kept, __really__', 'what-is-kept-really'],
    ['snake_case_name stays', 'snake_case_name-stays'],
    ['A [linked](other.md) word', 'a-linked-word'],
    ['Version 1.2 (2026)', 'version-12-2026'],
    ['Area in m² – about ½', 'area-in-m--about-'],
    ['Ⅻ chapters', 'ⅻ-chapters'],
    ['Trailing spaces   ', 'trailing-spaces'],
  ])('%s → #%s', (heading, expected) => {
    expect(slug(heading)).toBe(expected);
  });

  it('anchors: headings outside code, the repeated ones -1, -2, setext ones, and explicit ids', () => {
    const page = [
      '# Title',
      '## Usage',
      '```sh',
      '# not a heading',
      '```',
      '## Usage',
      '### Usage',
      'Setext heading',
      '--------------',
      '<a id="kept-here"></a> and <a name="old-name"></a>',
      '#not-a-heading',
    ].join('\n');
    expect([...anchors(page)].sort()).toEqual(
      ['title', 'usage', 'usage-1', 'usage-2', 'setext-heading', 'kept-here', 'old-name'].sort(),
    );
  });
});

describe('reading links and code blocks', () => {
  it('finds inline links, images, reference definitions and href, with their lines; none in code', () => {
    const page = [
      'See [plans](plans.md) and ![shot](img/a.png "A title").', // 1
      '`[not](a-link.md)` and',
      '```md',
      '[not](either.md)',
      '```',
      '[ref]: ../README.md#install', // 6
      '<a href="commands.md#plants-list">x</a> [x](<with space.md>) [y](a_(b).md)', // 7
      '<!-- [hidden](comment.md) -->',
      '[^1]: A footnote, no link.',
    ].join('\n');
    expect(links(page)).toEqual([
      { target: 'plans.md', line: 1 },
      { target: 'img/a.png', line: 1 },
      { target: '../README.md#install', line: 6 },
      { target: 'with space.md', line: 7 },
      { target: 'a_(b).md', line: 7 },
      { target: 'commands.md#plants-list', line: 7 },
    ]);
  });

  it('code blocks: language, body without the fence indentation, lines; ~~~ and longer fences', () => {
    const page = [
      'text',
      '- item',
      '',
      '  ```console',
      '  $ plants list',
      '  ```',
      '````sh',
      '```',
      '````',
      '~~~',
    ].join('\n');
    expect(codeBlocks(page)).toEqual([
      { lang: 'console', body: '$ plants list', line: 4, end: 6 },
      { lang: 'sh', body: '```', line: 7, end: 9 },
      { lang: '', body: '', line: 10, end: 10 },
    ]);
  });
});

describe('linkProblems, on a small repository', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('plants-links-');
    mkdirSync(join(dir.path, 'docs', 'decisions'), { recursive: true });
    writeFileSync(join(dir.path, 'README.md'), '# plants\n\n## Quick start\n\n## `plants list`\n');
    writeFileSync(join(dir.path, 'docs', 'a.md'), '# A\n\n## Exit codes\n');
  });
  afterEach(() => dir.remove());

  const page = (text: string) => {
    writeFileSync(join(dir.path, 'docs', 'b.md'), text);
    return linkProblems(dir.path, 'docs/b.md');
  };

  it('accepts files, directories, anchors into other pages and its own, external links and links in code', () => {
    expect(
      page(
        [
          '# B',
          '[a](a.md) [a](./a.md#exit-codes) [r](../README.md#plants-list) [d](decisions/) [d](decisions)',
          '[self](#b) [web](https://example.com/x.md) [mail](mailto:a@b.c) `[code](nowhere.md)`',
          '[root](/README.md#quick-start)',
          '[ref]: a.md#a',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('names each missing file, file outside the repository and missing anchor, with its line', () => {
    expect(
      page(
        [
          '# B',
          '[gone](gone.md)',
          '[anchor](a.md#exit-code) [own](#nothing)',
          '[out](../../elsewhere.md)',
          '[case](../README.md#Quick-Start)',
          '[ref]: choices.md',
        ].join('\n'),
      ),
    ).toEqual([
      'docs/b.md:2: gone.md: no such file or directory in the repository',
      'docs/b.md:3: a.md#exit-code: docs/a.md has no heading or anchor #exit-code',
      'docs/b.md:3: #nothing: docs/b.md has no heading or anchor #nothing',
      'docs/b.md:4: ../../elsewhere.md: no such file or directory in the repository',
      'docs/b.md:5: ../README.md#Quick-Start: README.md has no heading or anchor #Quick-Start',
      'docs/b.md:6: choices.md: no such file or directory in the repository',
    ]);
  });

  it('names a link to what git ignores: built here (dist/), but not in a clone', () => {
    expect(spawnSync('git', ['init', '-q'], { cwd: dir.path }).status).toBe(0);
    writeFileSync(join(dir.path, '.gitignore'), 'dist/\n');
    mkdirSync(join(dir.path, 'dist'));
    writeFileSync(join(dir.path, 'dist', 'plants.1'), '.TH PLANTS 1\n');
    expect(page('[man](../dist/plants.1) [a](a.md)')).toEqual([
      'docs/b.md:1: ../dist/plants.1: ignored by git, so not in a clone',
    ]);
  });
});

describe('the pages', () => {
  it('every relative link of README.md, CHANGELOG.md and docs/ resolves, and its anchor is a heading', () => {
    expect(allLinkProblems(ROOT)).toEqual([]);
  });
});
