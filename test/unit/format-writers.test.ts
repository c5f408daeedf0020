import { describe, expect, it } from 'vitest';
import type { Plant } from '../../src/api/responses.js';
import { parseIdInput } from '../../src/commands/delete/id-input.js';
import { UsageError } from '../../src/errors.js';
import {
  chosenFormat,
  FORMAT_WRITERS,
  isOutputFormat,
  OUTPUT_FORMATS,
  type OutputFormat,
  type RowView,
} from '../../src/output/format-writers.js';
import { writePlants } from '../../src/output/plants.js';
import { writeRows } from '../../src/output/rows.js';
import { fakeIO } from '../helpers/io.js';

const plants: Plant[] = [
  { id: 7, name: 'Ficus 12', tag: 'tree' },
  { id: 'a-8', name: 'Fern, "Boston"', tag: null },
];
const long: Plant = { id: 1, name: 'Monstera deliciosa '.repeat(8).trim(), tag: 'aroid' };

async function listed(format: OutputFormat, list: Plant[], options: { tty?: boolean; columns?: number } = {}) {
  const fake = fakeIO({ tty: options.tty ?? false, columns: options.columns });
  await writePlants(fake.io, [list], { format });
  return fake.stdout();
}

describe('the table of output formats', () => {
  it('lists the formats in help order, and knows only its own names', () => {
    expect(OUTPUT_FORMATS).toEqual(['table', 'json', 'ndjson', 'tsv', 'csv']);
    expect(OUTPUT_FORMATS.every(isOutputFormat)).toBe(true);
    for (const name of ['constructor', '__proto__', 'toString', 'TSV', '']) expect(isOutputFormat(name)).toBe(false);
  });

  it('picks a table for a terminal and TSV for a pipe when none is asked for', () => {
    expect(chosenFormat(undefined, true)).toBe('table');
    expect(chosenFormat(undefined, false)).toBe('tsv');
    expect(chosenFormat('csv', true)).toBe('csv');
  });

  describe.each(OUTPUT_FORMATS)('-o %s', (format) => {
    const writer = FORMAT_WRITERS[format];

    it(`readBack (${writer.readBack}): delete --stdin reads the ids back, or refuses the text`, async () => {
      const text = await listed(format, plants);
      if (writer.readBack) expect(parseIdInput(text)).toEqual(['7', 'a-8']);
      else expect(() => parseIdInput(text)).toThrow(UsageError);
    });

    it(`shows ${writer.shows}: JSON keeps whole objects; the others show columns`, async () => {
      const text = await listed(format, [{ ...plants[0]!, extra: { height: 3 } }]);
      if (writer.shows === 'json') {
        expect(text).toContain('"extra":{"height":3}');
      } else {
        expect(text).not.toContain('height');
        expect(text).toContain('Ficus 12');
      }
    });

    it(`fitted (${writer.fitted}): cut to the terminal's width, or never cut`, async () => {
      const text = await listed(format, [long], { tty: true, columns: 40 });
      const widest = Math.max(...text.split('\n').map((line) => line.length));
      if (writer.fitted) {
        expect(widest).toBeLessThanOrEqual(40);
      } else {
        expect(text).toContain(long.name);
      }
    });

    it(`showsEmpty (${writer.showsEmpty}): an empty listing is still a value that says so`, async () => {
      const text = await listed(format, []);
      if (writer.showsEmpty) expect(JSON.parse(text)).toEqual([]);
      else expect(text.replace(/^id,name,tag\r\n$/, '')).toBe('');
    });
  });
});

describe('writeRows', () => {
  const view: RowView<number> = {
    table: (rows) => ({ headers: ['N', 'SQUARE'], cells: rows.map((n) => [n, n * n]), whole: [0] }),
    data: { columns: ['n', 'square'], values: (n) => [n, n * n] },
    json: (n) => ({ n }),
  };

  it.each([
    ['json', '[{"n":1},{"n":2},{"n":3}]\n'],
    ['ndjson', '{"n":1}\n{"n":2}\n{"n":3}\n'],
    ['tsv', '1\t1\n2\t4\n3\t9\n'],
    ['csv', 'n,square\r\n1,1\r\n2,4\r\n3,9\r\n'],
    ['table', 'N  SQUARE\n1  1\n2  4\n3  9\n'],
  ] as const)('%s: any rows, through a view, in batches', async (format, expected) => {
    const fake = fakeIO();
    expect(await writeRows(fake.io, format, view, [[1], [], [2, 3]])).toBe(3);
    expect(fake.stdout()).toBe(expected);
  });

  it('asks a view for its table only when there are rows', async () => {
    const fake = fakeIO();
    let asked = 0;
    const counting: RowView<number> = {
      ...view,
      table: (rows) => {
        asked += 1;
        return view.table(rows);
      },
    };
    expect(await writeRows(fake.io, 'table', counting, [[]])).toBe(0);
    expect(asked).toBe(0);
    expect(fake.stdout()).toBe('');
  });
});

describe('a value larger than a megabyte', () => {
  // Astral characters (two UTF-16 units) placed so a 1 MiB slice would end between the halves of one.
  const name = `${'a'.repeat(1024 * 1024 - 1)}😀${'b'.repeat(10)}😀${'é'.repeat(1024 * 1024)}`;
  const big: Plant[] = [plants[0]!, { id: 2, name, tag: 't' }, plants[1]!];

  it.each(['json', 'ndjson', 'tsv', 'csv'] as const)(
    'is written whole and exact in %s, its neighbours too',
    async (format) => {
      const small = await listed(format, [plants[0]!]);
      const text = await listed(format, big);
      expect(text).toContain(name);
      expect(text.startsWith(small.slice(0, small.indexOf('7') + 1))).toBe(true);
      // What the formats make of the same rows when nothing is large.
      const swapped = (await listed(format, [plants[0]!, { id: 2, name: 'NAME', tag: 't' }, plants[1]!])).replace(
        'NAME',
        name,
      );
      expect(text).toBe(swapped);
    },
  );
});
