import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { strlen, Table } from '../../src/vendor/table.js';
import { renderTable } from '../../src/output/table.js';

async function render(headers: string[], rows: unknown[][]): Promise<string> {
  let text = '';
  for await (const block of renderTable(headers, rows, false)) text += block;
  return text;
}

describe('renderTable', () => {
  it('aligns columns two spaces apart without borders or trailing spaces', async () => {
    expect(
      await render(
        ['ID', 'NAME', 'TAG'],
        [
          [1, 'Fern', 'green'],
          [22, 'Cactus', undefined],
        ],
      ),
    ).toBe(['ID  NAME    TAG', '1   Fern    green', '22  Cactus', ''].join('\n'));
  });

  it('measures wide characters as the terminal shows them', async () => {
    expect(
      await render(
        ['NAME', 'TAG'],
        [
          ['🌱🌱', 'x'],
          ['ab', 'y'],
        ],
      ),
    ).toBe(['NAME  TAG', '🌱🌱  x', 'ab    y', ''].join('\n'));
  });

  it('keeps columns aligned across the blocks it renders in', async () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => [i, `plant ${i}`, i % 2 ? 'odd' : '']);
    const lines = (await render(['ID', 'NAME', 'TAG'], rows)).trimEnd().split('\n');
    expect(lines).toHaveLength(2_501);
    expect(lines[0]).toBe('ID    NAME        TAG');
    expect(lines[1]).toBe('0     plant 0');
    expect(lines[1002]).toBe('1001  plant 1001  odd');
    expect(lines[2_500]).toBe('2499  plant 2499  odd');
  });
});

describe('renderTable past the rows cli-table3 lays out itself', () => {
  it('pads every later row exactly as cli-table3 does, wide characters included', async () => {
    const names = ['Fern', '🌱 sprout', 'Ficus lyrata', 'ü', ''];
    const rows = Array.from({ length: 600 }, (_, i) => [i, names[i % names.length], i % 3 ? 'tag' : undefined]);
    const lines = (await render(['ID', 'NAME', 'TAG'], rows)).trimEnd().split('\n');
    // Rows 1-200 come from cli-table3; the same data again further down must look identical.
    for (let i = 1; i <= 15; i += 1)
      expect(lines[i + 300]).toBe(lines[i]!.replace(/^\d+ */, (m) => `${Number(m) + 300}`.padEnd(m.length)));
  });
});

describe('renderTable with a huge cell', () => {
  // Wide characters too: cli-table3 measures those a character at a time.
  const huge = 'Ficus 植物 '.repeat(Math.ceil(2 ** 20 / 9)).slice(0, 2 ** 20);
  const hugeWidth = huge.length + (huge.match(/[植物]/g)?.length ?? 0);

  it('lays out a 1 MiB name with wide characters, aligned and trimmed', async () => {
    const lines = (
      await render(
        ['ID', 'NAME', 'TAG'],
        [
          [1, huge, 'fern'],
          [2, 'Monstera', 'tropical'],
          [3, 'Cactus', undefined],
        ],
      )
    ).split('\n');
    expect(lines).toEqual([
      `ID  NAME${' '.repeat(hugeWidth - 4)}  TAG`,
      `1   ${huge}  fern`,
      `2   Monstera${' '.repeat(hugeWidth - 8)}  tropical`,
      '3   Cactus',
      '',
    ]);
  });

  it('lays out a 1 MiB plain ASCII name too', async () => {
    const ascii = 'x'.repeat(2 ** 20);
    const lines = (
      await render(
        ['NAME', 'TAG'],
        [
          ['short', 'a'],
          [ascii, 'b'],
        ],
      )
    ).split('\n');
    expect(lines).toEqual([
      `NAME${' '.repeat(2 ** 20 - 4)}  TAG`,
      `short${' '.repeat(2 ** 20 - 5)}  a`,
      `${ascii}  b`,
      '',
    ]);
  });

  it('looks as cli-table3 would lay it out, header colour included', async () => {
    // Tables with cells on both sides of the length at which cli-table3 is no longer used, laid out both ways.
    const cell = fc
      .array(fc.constantFrom('a', 'Z', ' ', '-', 'ü', '植', '🌱', 'e\u0301'), { maxLength: 150 })
      .map((parts) => parts.join(''));
    const headers = ['ID', 'NAME', 'TAG'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(cell, cell, cell), { minLength: 1, maxLength: 5 }), async (rows) => {
        let text = '';
        for await (const block of renderTable(headers, rows, true)) text += block;
        const [header, ...lines] = text.slice(0, -1).split('\n');
        const table = new Table({
          head: headers.map((h) => `\u001b[1m${h}\u001b[22m`),
          colWidths: headers.map((_, i) => Math.max(...[headers, ...rows].map((row) => strlen(row[i]!)))),
          style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
          chars: {
            top: '',
            'top-mid': '',
            'top-left': '',
            'top-right': '',
            bottom: '',
            'bottom-mid': '',
            'bottom-left': '',
            'bottom-right': '',
            left: '',
            'left-mid': '',
            mid: '',
            'mid-mid': '',
            right: '',
            'right-mid': '',
            middle: '  ',
          },
        });
        table.push(...rows.map((row) => [...row]));
        expect([header, ...lines]).toEqual(
          table
            .toString()
            .split('\n')
            .map((line) => line.replace(/ +$/, '')),
        );
      }),
      { numRuns: 200 },
    );
  });
});
