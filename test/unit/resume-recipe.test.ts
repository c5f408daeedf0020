import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { inProcess } from '../helpers/in-process.js';
import { docFiles } from '../helpers/markdown.js';

// The recipe that resumes a stopped run is given wherever a page speaks of
// resuming; each gives the same form: the run's plants read back as JSON (an
// id holding a line break would split in a line-per-id form), piped straight
// into delete, which must take a 404 for success (--ignore-missing), since an
// `unknown` plant may have been deleted already.

const { plants } = inProcess('resume-recipe-test-token');

/**
 * Every `plants history … | … plants delete …` pipeline in `text`: each line
 * of a fenced block (or of help text), and each inline code span of the
 * prose, whose line breaks are made single spaces. From `plants history` on,
 * a trailing `# comment` left out.
 */
function pipelines(text: string): string[] {
  const blocks: string[] = [];
  const prose = text.replace(/^ *```[^\n]*\n([\s\S]*?)^ *```/gm, (_, body: string) => {
    blocks.push(...body.replace(/\\\n/g, ' ').split('\n'));
    return '';
  });
  const spans = [...prose.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\s+/g, ' '));
  return [...blocks, ...spans]
    .map((snippet) =>
      /plants history .*/
        .exec(snippet)?.[0]
        .replace(/\s+#.*$/, '')
        .trim(),
    )
    .filter((snippet): snippet is string => snippet !== undefined && /\|.*\bplants delete\b/.test(snippet));
}

/** What is wrong with a resume recipe, in words; empty when it has the right form. */
function wrongWith(recipe: string): string[] {
  const wrong: string[] = [];
  const [history, ...rest] = recipe.split('|').map((part) => part.trim());
  if (rest.length !== 1) wrong.push('pipes plants history straight into plants delete');
  if (!/^plants history \S+ --result [\w,]+ --json$/.test(history!)) {
    wrong.push('reads one run, --result <results> --json');
  }
  const results = / --result ([\w,]+)/.exec(history!)?.[1]!.split(',') ?? [];
  if (!results.includes('skipped') || !results.includes('unknown')) wrong.push('--result takes skipped and unknown');
  const words = (rest.at(-1) ?? '').split(' ');
  if (words[0] !== 'plants' || words[1] !== 'delete') wrong.push('ends in plants delete');
  for (const flag of ['--stdin', '--yes', '--ignore-missing']) if (!words.includes(flag)) wrong.push(`has ${flag}`);
  return wrong;
}

const RIGHT =
  'plants history 3f2a9c1e --result skipped,unknown,failed --json | plants delete --stdin --yes --ignore-missing';

describe('finding and judging recipes', () => {
  it('finds recipes in blocks, in help text and in code spans broken across lines', () => {
    const text = [
      '```sh',
      `${RIGHT}   # resume`,
      'plants history --json | jq length',
      '```',
      'Resume: `plants history <run> --result skipped,unknown',
      '  --json | plants delete --stdin --yes --ignore-missing`.',
    ].join('\n');
    expect(pipelines(text)).toEqual([
      RIGHT,
      'plants history <run> --result skipped,unknown --json | plants delete --stdin --yes --ignore-missing',
    ]);
  });

  it('holds the right form right, and says what each wrong one lacks', () => {
    expect(wrongWith(RIGHT)).toEqual([]);
    expect(wrongWith(RIGHT.replace(' --ignore-missing', ''))).toEqual(['has --ignore-missing']);
    expect(wrongWith(RIGHT.replace('--json', '-o tsv'))).toEqual(['reads one run, --result <results> --json']);
    expect(wrongWith(RIGHT.replace('skipped,', ''))).toEqual(['--result takes skipped and unknown']);
    expect(wrongWith(RIGHT.replace('| plants', "| jq -r '.[].id' | plants"))).toEqual([
      'pipes plants history straight into plants delete',
    ]);
  });
});

describe('the recipe that resumes a run', () => {
  it.each(docFiles(ROOT))('in %s, every one reads JSON and takes a 404 for success', (file) => {
    for (const recipe of pipelines(readFileSync(join(ROOT, file), 'utf8'))) {
      expect(wrongWith(recipe), `${file}: ${recipe}`).toEqual([]);
    }
  });

  it('docs/scripting.md gives it, with skipped, unknown and failed', () => {
    const found = pipelines(readFileSync(join(ROOT, 'docs', 'scripting.md'), 'utf8'));
    expect(found.some((recipe) => recipe.includes('--result skipped,unknown,failed '))).toBe(true);
  });

  it('in plants history --help, the same', async () => {
    const r = await plants(['history', '--help']);
    // A pipeline broken after its `|` to fit 80 columns is one recipe.
    const found = pipelines(`\`\`\`\n${r.stdout().replace(/\|\n\s*/g, '| ')}\`\`\`\n`);
    expect(found).toHaveLength(1);
    expect(wrongWith(found[0]!)).toEqual([]);
  });

  it('docs/scripting.md says that --result failed resumes the plant whose answer stopped the run', () => {
    expect(readFileSync(join(ROOT, 'docs', 'scripting.md'), 'utf8').replace(/\s+/g, ' ')).toContain(
      '`--result skipped,unknown,failed` resumes everything not deleted',
    );
  });
});
