import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { consoleSteps, pageBlocks, runsDeletion, setsBaseUrl } from '../helpers/doc-blocks.js';

// How the docs-sessions and docs-recipes tests read the pages' code blocks
// (docs conventions 2 and 3): what a console session is made of, and which
// shell blocks are recipes that delete.

describe('consoleSteps: a console block read as commands, output and exit statuses', () => {
  it('commands with their output; echo $? gives the status of the command before it; 0 otherwise', () => {
    const block = [
      '$ plants list --tag fern,succulent',
      'ID  NAME',
      '',
      '$ plants delete 9',
      'plants: no plant 9',
      '$ echo $?',
      '2',
      '$ plants config set base-url https://plants.example.com/api',
      '',
    ].join('\n');
    expect(consoleSteps(block, 11)).toEqual([
      { args: ['list', '--tag', 'fern,succulent'], expected: ['ID  NAME', ''], status: 0, line: 11 },
      { args: ['delete', '9'], expected: ['plants: no plant 9'], status: 2, line: 14 },
      { args: ['config', 'set', 'base-url', 'https://plants.example.com/api'], expected: [], status: 0, line: 18 },
    ]);
  });

  it.each([
    ['', /no command/],
    ['ID  NAME\n$ plants list', /line 1 .*output before the first command/],
    ['$ plants list | head', /line 1 .*plain words/],
    ['$ plants list --name "Aloe vera"', /plain words/],
    ['$ plants list $TAG', /plain words/],
    ['$ ls', /a command is `plants`/],
    ['$ echo $?\n0', /must follow a plants command/],
    ['$ plants list\n$ echo $?', /exit status is missing/],
    ['$ plants list\n$ echo $?\nzero', /line 3 .*the exit status \(a number\)/],
    ['$ plants list\n$ echo $?\n0\nmore', /line 4 .*output after the exit status/],
    ['$ plants list\n$ echo $?\n0\n$ echo $?\n0', /must follow a plants command/],
  ])('%j fails: %s', (block, message) => {
    expect(() => consoleSteps(block)).toThrow(message);
  });

  it('a session that sets the base URL logs in from nothing', () => {
    expect(setsBaseUrl(consoleSteps('$ plants --profile ci config set base-url https://x'))).toBe(true);
    expect(setsBaseUrl(consoleSteps('$ plants config get base-url'))).toBe(false);
  });
});

describe('runsDeletion: the shell blocks the recipes test runs', () => {
  it.each([
    'plants delete 3 --yes',
    'plants prune --tag seedling --yes',
    'plants apply plan.json --yes',
    'plants --profile staging delete 1',
    'plants --base-url "$URL" --json prune --tag fern',
    'plants history --result unknown --json | plants delete --stdin --yes --ignore-missing',
    'plants list --json \\\n  | jq -r ".[].id" | xargs plants delete --yes',
    'ids=$(plants list --tag fern --json | jq -r ".[].id")\nplants \\\n  delete $ids',
  ])('%j does', (block) => {
    expect(runsDeletion(block)).toBe(true);
  });

  it.each([
    'npm install -g plant-store-cli\nplants list',
    '# then plants delete 3\nplants list',
    'plants history --result deleted',
    'plants config set base-url https://x # before delete',
    'plants-store-server --seed 8',
  ])('%j does not', (block) => {
    expect(runsDeletion(block)).toBe(false);
  });
});

describe('pageBlocks: the blocks of README.md, CHANGELOG.md and docs/**, named by file and line', () => {
  it('reads every page, docs/ at any depth, and keeps the languages asked for', () => {
    const dir = tempDir('plants-blocks-');
    try {
      mkdirSync(join(dir.path, 'docs', 'decisions'), { recursive: true });
      writeFileSync(join(dir.path, 'README.md'), '# plants\n\n```console\n$ plants list\n```\n');
      writeFileSync(join(dir.path, 'CHANGELOG.md'), '```sh\nplants delete 1 --yes\n```\n');
      writeFileSync(join(dir.path, 'docs', 'decisions', '0001-x.md'), 'x\n\n```bash\nplants prune --tag fern\n```\n');
      writeFileSync(join(dir.path, 'docs', 'notes.txt'), '```sh\nplants delete 2\n```\n');
      expect(pageBlocks(dir.path, ['sh', 'bash']).map((block) => [block.name, block.body])).toEqual([
        ['CHANGELOG.md:1', 'plants delete 1 --yes'],
        ['docs/decisions/0001-x.md:3', 'plants prune --tag fern'],
      ]);
      expect(pageBlocks(dir.path, ['console']).map((block) => block.name)).toEqual(['README.md:3']);
    } finally {
      dir.remove();
    }
  });
});
