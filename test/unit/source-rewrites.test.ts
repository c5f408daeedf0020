import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewriteSource, SOURCE_REWRITES } from '../../build/start-up.js';
import { ROOT } from '../helpers/cli.js';

/** The value an assignment `this.x = <expression>;` gives, as a function of `flags`. */
function assigned(statement: string): (flags: string) => unknown {
  const expression = statement.slice(statement.indexOf('=') + 1).replace(/;\s*$/, '');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('flags', `return ${expression};`) as (flags: string) => unknown;
}

describe("exact rewrites of dependencies' sources (SOURCE_REWRITES in build/start-up.ts)", () => {
  it('finds each one in the installed package, and rewrites it once', () => {
    for (const { file, from, to } of SOURCE_REWRITES) {
      const path = join(ROOT, 'node_modules', file);
      const source = readFileSync(path, 'utf8');
      const rewritten = rewriteSource(path, source);
      expect(rewritten).not.toContain(from);
      expect(rewritten.split(to)).toHaveLength(2);
      expect(rewritten.length - source.length).toBe(to.length - from.length);
    }
  });

  it("commander's variadic test answers as before for any flags", () => {
    const [variadic] = SOURCE_REWRITES.filter(({ file }) => file === 'commander/lib/option.js');
    const before = assigned(variadic!.from);
    const after = assigned(variadic!.to);
    const ending = fc.constantFrom('', '...', '...>', '...]', '..>', '....>', 'é...>', '_...]', ' ...>', '-...]');
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), ending, (start, end) => {
        expect(after(start + end)).toBe(before(start + end));
      }),
      { numRuns: 2000 },
    );
    for (const flags of ['-f, --file <path...>', '--tag [tags...]', '--name <glob>', '-l, --limit <n>', '--x <a...']) {
      expect(after(flags)).toBe(before(flags));
    }
    expect(after('--tag [tags...]')).toBe(true);
  });

  it("fails the build naming the package's version when the text is gone", () => {
    const path = join(ROOT, 'node_modules', 'commander', 'lib', 'option.js');
    const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'commander', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(() => rewriteSource(path, 'class Option {}')).toThrow(
      new RegExp(`^commander ${version.replaceAll('.', '\\.')}: commander/lib/option\\.js no longer has`),
    );
  });
});
