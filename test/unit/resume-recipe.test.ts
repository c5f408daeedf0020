import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { inProcess } from '../helpers/in-process.js';

// The recipe that resumes a stopped run is given in four places; each gives
// the same one: an `unknown` plant may have been deleted already, so the
// resumed run must take a 404 for success (--ignore-missing).

const { plants } = inProcess('resume-recipe-test-token');

/** Every `plants history … | plants delete …` pipeline in `text`, white space (line breaks in prose) made single. */
function recipes(text: string): string[] {
  const flat = text.replace(/\s+/g, ' ');
  return [...flat.matchAll(/plants history \S+ --result [\w,]+ --json \| plants delete [^`#\n]*/g)].map((m) =>
    m[0].trim(),
  );
}

describe('the recipe that resumes a run', () => {
  it.each(['README.md', 'docs/commands.md', 'CHANGELOG.md'])(
    'in %s, reads JSON and takes a 404 for success',
    (file) => {
      const found = recipes(readFileSync(join(ROOT, file), 'utf8'));
      expect(found.length).toBeGreaterThan(0);
      for (const recipe of found) expect(recipe).toMatch(/ --stdin --yes --ignore-missing$/);
    },
  );

  it('in plants history --help, the same', async () => {
    const r = await plants(['history', '--help']);
    const found = recipes(r.stdout());
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/ --stdin --yes --ignore-missing$/);
  });

  it('README and docs/commands.md say that --result failed resumes the plant whose answer stopped the run', () => {
    for (const file of ['README.md', 'docs/commands.md']) {
      expect(readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ')).toContain(
        '`--result skipped,unknown,failed` resumes everything not deleted',
      );
    }
  });
});
