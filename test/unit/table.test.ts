import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// cli-table3's own measure, for the layout cli-table3 itself would make.
import utils from 'cli-table3/src/utils.js';
import { Table } from '../../src/vendor/table.js';
import { columnFloor, fitColumns } from '../../src/output/fit.js';
import { renderTable, type TableFit } from '../../src/output/table.js';
import { displayMeasure } from '../../src/output/width.js';
import { LARGE_TEXT } from '../../src/shared/large-values.js';

const { strlen } = utils;
const { width: displayWidth } = await displayMeasure();

async function render(headers: string[], rows: unknown[][], fit?: TableFit, color = false): Promise<string> {
  let text = '';
  for await (const block of renderTable(headers, rows, color, fit)) text += block;
  return text;
}

/** The table's lines as a terminal shows them: colour codes take no columns. */
function shownLines(text: string): string[] {
  return (
    text
      .slice(0, -1)
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
  );
}

/** cli-table3's border characters, each of which the tables here leave empty. */
const BORDER_PARTS = [
  'top',
  'top-mid',
  'top-left',
  'top-right',
  'bottom',
  'bottom-mid',
  'bottom-left',
  'bottom-right',
  'left',
  'left-mid',
  'mid',
  'mid-mid',
  'right',
  'right-mid',
];

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
    // Not printable ASCII, so laid out here whole; the same data further down must look identical.
    for (let i = 1; i <= 15; i += 1)
      expect(lines[i + 300]).toBe(lines[i]!.replace(/^\d+ */, (m) => `${Number(m) + 300}`.padEnd(m.length)));
  });

  it('lays out the rows past those cli-table3 lays out as it would: numbers, empty cells, trailing spaces', async () => {
    // Past the first 20 rows each line is padded here; a line is trimmed only when its last cell may leave spaces.
    const text = fc
      .array(fc.constantFrom('a', 'Z', ' ', '-', 'ü', '植'), { maxLength: 12 })
      .map((parts) => parts.join(''));
    const value = fc.oneof(text, fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
    const shown = (cell: string | number | boolean | null) => (cell === null ? '' : String(cell));
    const headers = ['ID', 'NAME', 'TAG'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(value, value, value), { minLength: 21, maxLength: 30 }), async (rows) => {
        const lines = (await render(headers, rows)).slice(0, -1).split('\n');
        const cells = rows.map((row) => row.map(shown));
        const table = new Table({
          head: headers,
          colWidths: headers.map((_, i) => Math.max(...[headers, ...cells].map((row) => strlen(row[i]!)))),
          style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
          chars: { ...Object.fromEntries(BORDER_PARTS.map((part) => [part, ''])), middle: '  ' },
        });
        table.push(...cells);
        expect(lines).toEqual(
          table
            .toString()
            .split('\n')
            .map((line) => line.replace(/ +$/, '')),
        );
      }),
      { numRuns: 100 },
    );
  });
});

describe('renderTable of printable ASCII, past the rows cli-table3 lays out itself', () => {
  it('pads every later row exactly as cli-table3 pads its own, empty cells and a long last column included', async () => {
    const names = ['Fern', 'Sansevieria trifasciata', 'Ficus lyrata', 'x', ''];
    const rows = Array.from({ length: 600 }, (_, i) => [i, names[i % names.length], i % 3 ? 'tag' : undefined]);
    const lines = (await render(['ID', 'NAME', 'TAG'], rows)).trimEnd().split('\n');
    expect(lines[0]).toBe('ID   NAME                     TAG');
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

describe('fitColumns', () => {
  it('leaves columns that fit, to the last column', () => {
    expect(fitColumns([2, 18, 8], [2, 8, 8], 32)).toEqual([2, 18, 8]);
    expect(fitColumns([2, 18, 8], [2, 8, 8], 80)).toEqual([2, 18, 8]);
  });

  it('cuts the widest column first, down to the next widest', () => {
    expect(fitColumns([2, 18, 8], [2, 8, 8], 31)).toEqual([2, 17, 8]);
    expect(fitColumns([2, 40, 9], [2, 8, 8], 30)).toEqual([2, 15, 9]);
    // Two equally wide columns share the cut; the spare column goes left.
    expect(fitColumns([2, 40, 40], [2, 8, 8], 40)).toEqual([2, 17, 17]);
    expect(fitColumns([2, 40, 40], [2, 8, 8], 41)).toEqual([2, 18, 17]);
  });

  it('stops at the floors; a column kept whole has its own width as floor', () => {
    expect(fitColumns([30, 40, 40], [30, 8, 8], 40)).toEqual([30, 8, 8]);
    expect(fitColumns([30, 40, 5], [30, 8, 5], 45)).toEqual([30, 8, 5]);
  });

  it('floors: a header stays whole, 8 columns at least, a narrow column as it is', () => {
    expect(columnFloor(40, 12, false)).toBe(12);
    expect(columnFloor(40, 4, false)).toBe(8);
    expect(columnFloor(5, 4, false)).toBe(5);
    expect(columnFloor(40, 2, true)).toBe(40);
  });
});

describe('renderTable with a column wider than a large text', () => {
  /** The table as one text, each line padded and trimmed the plain way. */
  function expected(headers: string[], rows: string[][]): string {
    const widths = headers.map((header, i) =>
      Math.max(displayWidth(header), ...rows.map((row) => displayWidth(row[i]!))),
    );
    const line = (row: string[]) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - displayWidth(cell))))
        .join('  ')
        .trimEnd(); // no other white space in these cells
    return [headers, ...rows].map((row) => `${line(row)}\n`).join('');
  }

  it('pads and trims each line as a short table does, writing no line or cell whole', async () => {
    const wide = `${'x'.repeat(2.5 * LARGE_TEXT)}植 `;
    const rows = [
      ['1', 'short', 'a'],
      ['2', wide, 'b'],
      ['3', 'trailing  ', ''],
      ['4', '', '  '],
      ['5', '🌱', 'c'],
    ];
    const pieces: string[] = [];
    for await (const piece of renderTable(['ID', 'NAME', 'TAG'], rows, false)) pieces.push(piece);
    expect(pieces.join('')).toBe(expected(['ID', 'NAME', 'TAG'], rows));
    // Padding comes in slices, and the large cell as it is: nothing larger was made.
    expect(Math.max(...pieces.map((piece) => piece.length))).toBe(wide.length);
  });
});

describe('renderTable on a terminal of a given width', () => {
  const rows = [
    [1, 'Monstera deliciosa', 'tropical'],
    [22, 'Ficus', undefined],
  ];
  const whole = ['ID  NAME                TAG', '1   Monstera deliciosa  tropical', '22  Ficus', ''].join('\n');

  it('leaves a table exactly as wide as the terminal as it is; one column less cuts the widest column', async () => {
    expect(await render(['ID', 'NAME', 'TAG'], rows)).toBe(whole);
    expect(await render(['ID', 'NAME', 'TAG'], rows, { width: 32, whole: [0] })).toBe(whole);
    expect(await render(['ID', 'NAME', 'TAG'], rows, { width: 31, whole: [0] })).toBe(
      ['ID  NAME               TAG', '1   Monstera delicio…  tropical', '22  Ficus', ''].join('\n'),
    );
  });

  it('never cuts the id; when even the floors do not fit, lines are as long as they must be', async () => {
    const id = 'f'.repeat(50);
    const text = await render(['ID', 'NAME', 'TAG'], [[id, 'Monstera deliciosa', 'tropical']], {
      width: 40,
      whole: [0],
    });
    expect(text.split('\n')).toEqual([`ID${' '.repeat(50)}NAME      TAG`, `${id}  Monster…  tropical`, '']);
  });

  it('does not count the colour of the header', async () => {
    const text = await render(['ID', 'NAME', 'TAG'], rows, { width: 32, whole: [0] }, true);
    expect(text).toContain('\u001b[1mNAME\u001b[22m');
    expect(shownLines(text).join('\n')).toBe(whole.slice(0, -1));
    const cut = shownLines(await render(['ID', 'NAME', 'TAG'], rows, { width: 25, whole: [0] }, true));
    expect(cut.map((line) => displayWidth(line))).toEqual([20, 25, 9]);
  });

  it('keeps escapes of hostile text whole', async () => {
    const text = await render(['ID', 'NAME'], [[7, 'Sal\u202evia officinalis']], { width: 12, whole: [0] });
    expect(text.split('\n')).toEqual(['ID  NAME', '7   Sal…', '']);
    const wider = await render(['ID', 'NAME'], [[7, 'Sal\u202evia officinalis']], { width: 20, whole: [0] });
    expect(wider.split('\n')).toEqual(['ID  NAME', '7   Sal\\u202evia of…', '']);
  });

  it('measures emoji newer than cli-table3 knows as the terminal shows them', async () => {
    // cli-table3 takes 🪴 for one column; the rows would not line up.
    expect(
      await render(
        ['NAME', 'TAG'],
        [
          ['🪴 pot', 'x'],
          ['ab', 'y'],
        ],
      ),
    ).toBe(['NAME    TAG', '🪴 pot  x', 'ab      y', ''].join('\n'));
  });

  it('measures by the same measure as every column: ☰ (Wide since Unicode 16, narrow to cli-table3)', async () => {
    expect(
      await render(
        ['NAME', 'TAG'],
        [
          ['☰ heaven', 'x'],
          ['ab', 'y'],
        ],
      ),
    ).toBe(['NAME       TAG', '☰ heaven  x', 'ab         y', ''].join('\n'));
  });

  it('escapes control characters and joiners before measuring: what is measured is what is shown', async () => {
    expect(
      await render(
        ['NAME', 'TAG'],
        [
          ['a\u0007b', 'x'],
          ['👩\u200d🌾', 'y'],
        ],
      ),
    ).toBe(['NAME        TAG', 'a\\u0007b    x', '👩\\u200d🌾  y', ''].join('\n'));
  });

  it('fits a 1 MiB name with wide characters', async () => {
    const huge = 'Ficus 植物 🌱 '.repeat(Math.ceil(2 ** 20 / 12)).slice(0, 2 ** 20);
    const table = [
      [1, huge, 'tag'],
      [2, 'Monstera', 'tropical'],
    ];
    const lines = (await render(['ID', 'NAME', 'TAG'], table, { width: 60, whole: [0] })).slice(0, -1).split('\n');
    expect(lines.map((line) => displayWidth(line))).toEqual([55, 55, 60]);
    expect(lines).toEqual([
      `ID  NAME${' '.repeat(42)}  TAG`,
      `1   Ficus 植物 🌱 Ficus 植物 🌱 Ficus 植物 🌱 Fic…  tag`,
      `2   Monstera${' '.repeat(38)}  tropical`,
    ]);
  });

  it('fits every row past those cli-table3 lays out too', async () => {
    const many = Array.from({ length: 600 }, (_, i) => [i, `plant ${'植'.repeat(i % 40)}`, 'tag']);
    const lines = (await render(['ID', 'NAME', 'TAG'], many, { width: 60, whole: [0] })).slice(0, -1).split('\n');
    expect(lines).toHaveLength(601);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(lines[40]).toBe(`39   plant ${'植'.repeat(21)}…   tag`);
    expect(lines[600]).toBe(`599  plant ${'植'.repeat(21)}…   tag`);
  });

  it('fits any table: within the width unless the floors are wider, ids whole, aligned', async () => {
    const cell = fc
      .array(fc.constantFrom('a', 'Z', ' ', 'ü', '植', '🌱', '🪴', 'e\u0301', '\u202e', '\n'), { maxLength: 60 })
      .map((parts) => parts.join(''));
    const id = fc.stringMatching(/^[0-9a-f]{1,12}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(id, cell, cell), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 10, max: 120 }),
        async (table, width) => {
          const lines = (await render(['ID', 'NAME', 'TAG'], table, { width, whole: [0] })).slice(0, -1).split('\n');
          const idWidth = Math.max(2, ...table.map(([id]) => id.length));
          for (const [i, line] of lines.entries()) {
            expect(displayWidth(line)).toBeLessThanOrEqual(Math.max(width, idWidth + 2 + 8 + 2 + 8));
            if (i > 0) expect(`${line} `.startsWith(`${table[i - 1]![0]} `)).toBe(true);
            // The NAME column starts at the same place on every line.
            if (line.length > idWidth) expect(line.slice(idWidth, idWidth + 2)).toBe('  ');
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
