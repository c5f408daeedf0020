import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { BEGIN, END, markdownBlock, ratioText, replaceBlock, type BenchRow } from '../../scripts/bench-markdown.js';

const row = (fields: Partial<BenchRow>): BenchRow => ({
  name: 'plants --help',
  baseline: 'node -e 0',
  target: '≤ 1.45x',
  ratio: { median: 1.28, q1: 1.17, q3: 1.34 },
  limit: 1.45,
  rssMb: 48.4,
  ok: true,
  ...fields,
});

const rows = [
  row({}),
  row({ name: 'plants list -o json (100,000)', baseline: 'curl | jq -c .', target: '≤ 0.8x, < 250 MB', ok: false }),
  row({ name: 'plants --help, no code cache', target: '', limit: undefined, ratio: { median: 1.3, q1: 1, q3: 2 } }),
];

describe('the bench as Markdown', () => {
  it('says met, missed, or nothing for a row without a target, and escapes a | in a cell', () => {
    const lines = markdownBlock(['Measured on a test.'], rows).split('\n');
    expect(lines[0]).toBe(BEGIN);
    expect(lines.at(-1)).toBe(END);
    expect(lines).toContain('Measured on a test.');
    const body = lines.filter((line) => line.startsWith('| plants'));
    expect(body.map((line) => line.split(' | ').at(-1)!.replace(/ *\|$/, ''))).toEqual(['met', 'missed', '']);
    expect(body[1]).toContain('curl \\| jq -c .');
    expect(body[0]).toContain('| 1.28x (1.17–1.34) | 48 | met |');
  });

  it('gives a third decimal where two would round the median onto its limit', () => {
    expect(ratioText({ ratio: { median: 1.0504, q1: 0.9861, q3: 1.0862 }, limit: 1.05 })).toBe('1.050x (0.986–1.086)');
    expect(ratioText({ ratio: { median: 1.0504, q1: 1, q3: 1.1 }, limit: undefined })).toBe('1.05x (1.00–1.10)');
  });

  it('leaves a page that prettier --check passes as written', async () => {
    const page = `# Performance\n\n${markdownBlock(['Measured on a test.', 'Left out: the keyring rows.'], rows)}\n\nAfter.\n`;
    const options = (await resolveConfig('docs/performance.md')) ?? {};
    expect(await format(page, { ...options, parser: 'markdown' })).toBe(page);
  });

  it('replaces what is between the markers, and only that', () => {
    const page = `before\n${BEGIN}\nold table\n${END}\nafter\n`;
    expect(replaceBlock(page, 'NEW')).toBe('before\nNEW\nafter\n');
  });

  it('refuses a page without its markers once each, in order', () => {
    expect(() => replaceBlock('no markers', 'NEW')).toThrow(/once each/);
    expect(() => replaceBlock(`${END}\n${BEGIN}\n`, 'NEW')).toThrow(/once each/);
    expect(() => replaceBlock(`${BEGIN}\n${END}\n${BEGIN}\n${END}\n`, 'NEW')).toThrow(/once each/);
  });
});
