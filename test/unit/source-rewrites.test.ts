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
    for (const file of new Set(SOURCE_REWRITES.map((rewrite) => rewrite.file))) {
      const rewrites = SOURCE_REWRITES.filter((rewrite) => rewrite.file === file);
      const path = join(ROOT, 'node_modules', file);
      const source = readFileSync(path, 'utf8');
      const rewritten = rewriteSource(path, source);
      for (const { from, to } of rewrites) {
        expect(source.split(from), `${file}: ${from}`).toHaveLength(2);
        expect(rewritten.split(to), `${file}: ${to}`).toHaveLength(2);
      }
      const grown = rewrites.reduce((sum, { from, to }) => sum + to.length - from.length, 0);
      expect(rewritten.length - source.length).toBe(grown);
    }
  });

  it("leaves no performance.now() in undici's HTTP/1 client: its idle clock reads the same monotonic clock", () => {
    const path = join(ROOT, 'node_modules', 'undici', 'lib', 'dispatcher', 'client-h1.js');
    const rewritten = rewriteSource(path, readFileSync(path, 'utf8'));
    expect(rewritten).not.toContain('performance.');
    const clock = rewritten.slice(
      rewritten.indexOf('function idleClock () {'),
      rewritten.indexOf('function isIdleSocketExpired'),
    );
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const makeClock = new Function(`${clock}; return idleClock;`) as () => () => number;
    const idleClock = makeClock();
    const [before, beforePerformance] = [idleClock(), performance.now()];
    // Until performance.now() has moved on 5 ms: the time between two readings agrees with its own.
    while (performance.now() - beforePerformance < 5);
    const [after, afterPerformance] = [idleClock(), performance.now()];
    expect(Math.abs(after - before - (afterPerformance - beforePerformance))).toBeLessThan(0.5);
    expect(after - before).toBeGreaterThan(4.5);
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
