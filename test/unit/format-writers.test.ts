import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plant } from '../../src/api/responses.js';
import { parseIdInput } from '../../src/deletion/id-input.js';
import { UsageError } from '../../src/shared/errors.js';
import { JsonNumber } from '../../src/shared/json.js';
import {
  chosenFormat,
  FORMAT_WRITERS,
  isOutputFormat,
  OUTPUT_FORMATS,
  type OutputFormat,
} from '../../src/output/format-writers.js';
import type { RowView } from '../../src/output/row-encoder.js';
import { csvLine, tsvLine } from '../../src/output/formats.js';
import { createIOStreams } from '../../src/output/iostreams.js';
import { writePlants } from '../../src/output/plants.js';
import { writeRows } from '../../src/output/rows.js';
import { LARGE_TEXT, markHoldsLarge } from '../../src/shared/large-values.js';
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
    table: {
      values: (n) => [n, n * n],
      layout: () => ({ headers: ['N', 'SQUARE'], shown: [0, 1], whole: [0] }),
    },
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

  it('a table keeps each value in its row when a row gives fewer values than the others', async () => {
    const fake = fakeIO();
    const ragged: RowView<number[]> = {
      table: { values: (row) => row, layout: () => ({ headers: ['A', 'B', 'C'], shown: [0, 1, 2], whole: [] }) },
      data: { columns: ['a'], values: (row) => row },
      json: (row) => row,
    };
    await writeRows(fake.io, 'table', ragged, [[[1, 2, 3], [4], [5, 6, 7]]]);
    expect(fake.stdout()).toBe('A  B  C\n1  2  3\n4\n5  6  7\n');
  });

  it('asks a view for its table only when there are rows', async () => {
    const fake = fakeIO();
    let asked = 0;
    const counting: RowView<number> = {
      ...view,
      table: {
        values: view.table.values,
        layout: (columns) => {
          asked += 1;
          return view.table.layout(columns);
        },
      },
    };
    expect(await writeRows(fake.io, 'table', counting, [[]])).toBe(0);
    expect(asked).toBe(0);
    expect(fake.stdout()).toBe('');
  });
});

describe('TSV of rows read from JSON text without a backslash (PlainRows)', () => {
  // What such rows can hold: no backslash, no C0 control and no quote in a string (JSON escapes each).
  const plainText = fc
    .string({
      unit: fc.oneof(
        fc.constantFrom(
          'a',
          'Z',
          ' ',
          '7',
          ',',
          '\u007f',
          '\u0085',
          '\u009b',
          '\u2028',
          '\u2029',
          '\u202e',
          '\u200b',
          'é',
          '🌱',
        ),
        fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
      ),
      maxLength: 12,
    })
    .map((text) => text.replace(/["\\]/g, ''));
  const value = fc.oneof(
    plainText,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(null, undefined, true, new JsonNumber('9007199254740993'), new JsonNumber('1.50')),
    fc.dictionary(plainText, fc.oneof(plainText, fc.integer()), { maxKeys: 2 }),
    fc.array(plainText, { maxLength: 2 }),
  );
  const view: RowView<unknown[]> = {
    table: { values: (row) => row, layout: () => ({ headers: [], shown: [], whole: [] }) },
    data: { columns: ['a', 'b', 'c'], values: (row) => row },
    json: (row) => row,
  };
  const tsv = async (rows: unknown[][], plain: boolean) => {
    const fake = fakeIO();
    await writeRows(fake.io, 'tsv', view, [plain ? Object.assign([...rows], { plain: true }) : rows]);
    return fake.stdout();
  };

  it('are the same lines as without the mark, escapes included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(value, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 5 }),
        async (rows) => {
          expect(await tsv(rows, true)).toBe(await tsv(rows, false));
        },
      ),
      { numRuns: 500 },
    );
    // A character singleLine escapes, in the last row only: the lines are searched whole.
    const rows = [
      ['1', 'Fern', 'x'],
      ['2', 'Ivy\u2028', '\u0085'],
    ];
    expect(await tsv(rows, true)).toBe('1\tFern\tx\n2\tIvy\\u2028\t\\u0085\n');
  });

  it('still writes a large value in pieces, not joined with the rest', () => {
    const large = 'x'.repeat(LARGE_TEXT + 1);
    const encoder = FORMAT_WRITERS.tsv.encoder(view, { terminal: false, color: () => false, width: () => undefined });
    const pieces = encoder.rows(
      Object.assign(
        [
          [1, 'Ivy', 'a'],
          [2, large, 'b'],
        ],
        { plain: true as const },
      ),
    );
    expect(typeof pieces).not.toBe('string');
    const parts = [...(pieces as Iterable<string | Iterable<string>>)];
    // The large field is made in pieces of its own, never joined with its line.
    expect(parts.filter((part) => typeof part !== 'string')).toHaveLength(1);
    expect(parts.every((part) => typeof part !== 'string' || part.length < LARGE_TEXT)).toBe(true);
    const text = parts.map((part) => (typeof part === 'string' ? part : [...part].join(''))).join('');
    expect(text).toBe(`1\tIvy\ta\n2\t${large}\tb\n`);
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

describe('a plant with large values, as read from a body in pieces (marked to be written in pieces)', () => {
  // Slices end next to an astral character, a quote, a backslash, a tab, a bidi control and a line break.
  const name = `${'a'.repeat(LARGE_TEXT - 1)}😀"\\\t\u202e${'b'.repeat(LARGE_TEXT - 3)}"\n`;
  const note = `${'n'.repeat(LARGE_TEXT + 3)}\r\n"😀\u2028`;
  const whole = (): Plant[] => [
    plants[0]!,
    { id: 2, name, tag: 't', extra: { note, h: new JsonNumber('1.50'), list: [note, 1] } },
    plants[1]!,
  ];
  const built = (): Plant[] => {
    const rows = whole();
    const extra = rows[1]!.extra as { list: unknown[] };
    for (const holder of [rows[1]!, extra, extra.list]) markHoldsLarge(holder);
    return rows;
  };

  it.each([
    ['json', false],
    ['json', true],
    ['ndjson', false],
    ['ndjson', true],
  ] as const)('%s (terminal: %s): the text JSON.stringify gives', async (format, tty) => {
    const text = await listed(format, built(), { tty });
    expect(text).toBe(await listed(format, whole(), { tty }));
    expect(text).toContain(tty ? JSON.stringify(note).replace('\u2028', '\\u2028') : JSON.stringify(note));
  });

  it.each([
    ['tsv', false],
    ['tsv', true],
    ['csv', false],
    ['csv', true],
  ] as const)('%s (terminal: %s): each field escaped as the whole value is', async (format, tty) => {
    const columns = ['id', 'name', 'extra', 'tag'];
    const fake = fakeIO({ tty });
    await writePlants(fake.io, [built()], { format, columns });
    const line = format === 'tsv' ? tsvLine : csvLine;
    const expected = [
      ...(format === 'csv' ? [line(columns, tty)] : []),
      ...whole().map((plant) => line([plant.id, plant.name, plant.extra, plant.tag], tty)),
    ].join('');
    expect(fake.stdout()).toBe(expected);
  });
});

describe('writing to a file descriptor', () => {
  it('writes large pieces through one reused buffer, each slice written before the next is made', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plants-rows-'));
    try {
      const name = `${'é'.repeat(LARGE_TEXT - 1)}😀${'植'.repeat(LARGE_TEXT)}`;
      const rows: Plant[] = [...plants, { id: 3, name, tag: 't' }, ...plants];
      for (const format of ['json', 'tsv', 'csv'] as const) {
        const file = join(dir, format);
        const stdout = createWriteStream(file);
        await once(stdout, 'open');
        const io = createIOStreams(
          { stdin: new PassThrough(), stdout, stderr: new PassThrough() },
          { stdin: false, stdout: false, stderr: false },
          { stdout: false, stderr: false },
          () => undefined,
        );
        await writePlants(io, [rows.slice(0, 2), rows.slice(2)], { format });
        await new Promise<void>((resolve) => stdout.end(resolve));
        expect(await readFile(file, 'utf8')).toBe(await listed(format, rows));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
