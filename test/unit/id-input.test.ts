import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseIdInput, readBackFormats } from '../../src/deletion/id-input.js';
import { READ_BACK_FORMATS } from '../../src/deletion/id-text.js';
import { formatsWhere } from '../../src/output/format-writers.js';
import { parseCsv } from '../../src/shared/csv.js';
import { UsageError } from '../../src/shared/errors.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';

describe('parseCsv', () => {
  it.each([
    [
      'a,b\r\n1,2\r\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'a,b\n1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'a,b\r1,2\r',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    ['"x, y","say ""hi""",\n', [['x, y', 'say "hi"', '']]],
    ['"two\nlines",1', [['two\nlines', '1']]],
    ['"",a', [['', 'a']]],
    // a quote inside an unquoted field is part of it; only a field's first character opens a quoted one
    ['a"b,c', [['a"b', 'c']]],
    // two line feeds are two line ends (a blank record between), not one CRLF
    ['a\n\nb', [['a'], [''], ['b']]],
    ['a\r\rb', [['a'], [''], ['b']]],
    // a last record of one quoted empty field is a record, with or without a line end
    ['id\r\n""', [['id'], ['']]],
    ['id\r\n""\r\n', [['id'], ['']]],
  ])('reads %j', (text, records) => {
    expect(parseCsv(text)).toEqual(records);
  });

  it.each([
    ['"5"7', /text follows a closing quote on line 1/],
    ['a\n"open', /quoted field starting on line 2 is never closed/],
  ])('refuses %j', (text, error) => {
    expect(() => parseCsv(text)).toThrow(error);
  });
});

describe('parseIdInput: only ids, never names', () => {
  it.each([
    ['the CSV plants prints', 'id,name,tag\r\n2,"Weed, common",weed\r\n7,Rose,\r\n', ['2', '7']],
    ['CSV with spaces after the commas', 'id, name\n7, Ficus 7\n', ['7']],
    ['CSV with a trailing empty header field', 'id,name,\n7,Ficus 7,\n', ['7']],
    ['CSV with a quoted header', '"id","common name"\n7,"Ficus 7"\n', ['7']],
    ['CSV with a column name that is not ASCII', 'id,extra.höhe\n7,Ficus 7\n', ['7']],
    ['CSV with CR line ends', 'name,id\rFicus 7,7\r', ['7']],
    ['one-column CSV of ids', 'id\r\n7\r\n"a,b"\r\n', ['7', 'a,b']],
    ['a one-column table of ids', 'ID\n7\nwith space\n', ['7', 'with space']],
    ['CSV with the id column twice, alike', 'id,name,id\n5,Fern,5\n7,Rose,7\n', ['5', '7']],
    ['a BOM before JSON', '\uFEFF[{"id":1,"name":"Ficus 7"}]', ['1']],
    ['a BOM before NDJSON', '\uFEFF{"id":"a","name":"Ficus 7"}\n', ['a']],
    ['a BOM before CSV', '\uFEFFid,name\r\n1,Ficus 7\r\n', ['1']],
    ['plain ids', '42\n43\n44\n', ['42', '43', '44']],
    ['an upper-case id alone', 'ABC\n', ['ABC']],
  ])('reads %s', (_what, text, ids) => {
    expect(parseIdInput(text)).toEqual(ids);
  });

  it.each([
    ['CSV without an id column', 'name,tag\nFicus 7,tree\n', /CSV without an id column \(its header is name,tag\)/],
    ['CSV whose column names hold spaces, no id', 'extra.common name,name\nx,Ficus 7\n', /CSV without an id column/],
    [
      'a row with more fields than the header',
      'name,id\nLily,7,13\n',
      /line 2 of standard input has 3 fields, but the CSV header has 2/,
    ],
    ['a row with fewer fields', 'id,name\n7\n', /line 2 .* has 1 fields, but the CSV header has 2/],
    ['a row without an id', 'id,name\n,Ficus 7\n', /line 2 of standard input has no id/],
    ['text after a closing quote', 'id,name\n"5"7,x\n', /cannot be read: text follows a closing quote/],
    ['a one-column CSV of names', 'name\r\nFicus 7\r\n', /starts with the header name and has no id column/],
    ['a one-column table of tags', 'TAG\ntree\n', /starts with the header TAG and has no id column/],
    ['a one-column table of a nested field', 'EXTRA.HEIGHT\n12\n', /starts with the header EXTRA.HEIGHT/],
    ['a one-column CSV of a nested field', 'extra.height\r\n12\r\n', /starts with the header extra.height/],
    ['the default table', 'ID  NAME     TAG\n1   Ficus 7  tree\n', /looks like a table/],
    ['a table without ID', 'NAME     TAG\nFicus 7  tree\n', /looks like a table/],
    ['a table of other columns', 'EXTRA.HEIGHT  COLOR\n12            red\n', /looks like a table/],
    ['a table of upper-case columns two spaces apart', 'SIZE  COLOR\n12    red\n', /looks like a table/],
    ['a coloured table header', '\u001b[1mID\u001b[22m  \u001b[1mNAME\u001b[22m\n7   Rose\n', /looks like a table/],
    ['a BOM before a table', '\uFEFFID  NAME\n1   Ficus 7\n', /looks like a table/],
    ['tab-separated rows', '1\tFicus 7\ttree\n', /tab-separated lines/],
    ['tab-separated rows with a comma in a name', '2\tWeed, common\tweed\n', /tab-separated lines/],
    // One row of TSV whose tabs are at its ends: a plant with no id and no tag, an id and an empty column.
    ['the one row of a plant with no id', '\tMonstera\t\n', /tab-separated lines/],
    [
      'CSV whose two id columns disagree',
      'id,name,ID\n5,Fern,5\n7,Rose,6\n',
      /^line 3 of standard input has different values in its 2 id columns, so which is the id cannot be told \(write id once in --columns\); nothing was deleted$/,
    ],
    ['an id with an empty column after it', '5\t\n', /tab-separated lines/],
    ['an empty column, then an id', '\t5\n', /tab-separated lines/],
    ['a tab after the last id', '5\n6\t', /tab-separated lines/],
    ['control characters', '7\u001b[0m\n', /control characters/],
    ['quoted ids', '"42"\n', /quoted id "42"/],
  ])('refuses %s', (_what, text, error) => {
    expect(() => parseIdInput(text)).toThrow(error);
  });
});

describe('positions in messages count from 1, from the first line of standard input', () => {
  it.each([
    [
      'the second item of a JSON array',
      '[{"id":1},{"name":"Fern"}]',
      'item 2 of the JSON on standard input has no usable "id"',
    ],
    ['the first item of a JSON array', '[{"name":"Fern"}]', 'item 1 of the JSON on standard input has no usable "id"'],
    ['NDJSON after two blank lines', '\n\n{"id":1}\nnot json\n', 'line 4 of standard input is not a JSON object'],
    [
      'NDJSON after a BOM and two blank lines',
      '\uFEFF\n\n{"id":1}\nnot json\n',
      'line 4 of standard input is not a JSON object',
    ],
    [
      'NDJSON after a BOM (no line of its own)',
      '\uFEFF{"id":1}\n{"name":"Fern"}\n',
      'line 2 of standard input has no usable "id"',
    ],
    [
      'a CSV row with a field too many',
      'id,name\n7,Fern,x\n',
      'line 2 of standard input has 3 fields, but the CSV header has 2',
    ],
    ['a CSV row without an id', 'id,name\r\n1,Aloe\r\n,Fern\r\n', 'line 3 of standard input has no id'],
    ['a CSV row after a name on two lines', 'id,name\n1,"two\nlines"\n,Fern\n', 'line 4 of standard input has no id'],
    ['CSV after blank lines', '\r\n\r\nid,name\n,Fern\n', 'line 4 of standard input has no id'],
    ['a CSV row after a blank line', 'id,name\n1,Aloe\n\n,Fern\n', 'line 4 of standard input has no id'],
    [
      'NDJSON after a line holding a vertical tab',
      '\v\n{"id":1}\nnot json\n',
      'line 3 of standard input is not a JSON object',
    ],
    ['an unclosed quote in CSV', 'id,name\n1,Aloe\n2,"open\n', 'a quoted field starting on line 3 is never closed'],
    ['text after a closing quote in CSV', '\nid,name\n"5"7,x\n', 'text follows a closing quote on line 3'],
    ['text after a closing quote on the first line', '"5"7\n8\n', 'text follows a closing quote on line 1'],
  ])('%s', (_what, text, message) => {
    expect(() => parseIdInput(text)).toThrow(message);
  });
});

describe('parseIdInput: what counts as an id', () => {
  it.each([
    ['a one-column CSV with a quoted header', '"id"\r\n7\r\n', ['7']],
    ['upper-case ids one a line', 'ABC\nDEF\n', ['ABC', 'DEF']],
    ['ids one a line, blank lines and lines of spaces skipped', '7\n\n  \n8\r\n9\r10\n', ['7', '8', '9', '10']],
    ['ids holding Unicode spaces (part of an id)', 'a\u00a0b\nc\u3000d\n', ['a\u00a0b', 'c\u3000d']],
    ['dotted ids one a line', 'v1.2\nv1.3\n', ['v1.2', 'v1.3']],
    ['dotted ids one a line, CRLF, not starting like a column name', '1a.b\r\n2c.d\r\n', ['1a.b', '2c.d']],
    ['dotted ids one a line, CRLF, with more than a column name holds', 'a.b/c\r\nd\r\n', ['a.b/c', 'd']],
    ['ids with quotes inside (only a whole quoted id is refused)', '7\nsay"hi"\n"x"y\n', ['7', 'say"hi"', '"x"y']],
    ['CSV with a blank line between records', 'id,name\n1,Aloe\n\n2,Fern\n', ['1', '2']],
    ['one-column CSV with a blank line between records', 'id\n7\n\n8\n', ['7', '8']],
    ['NDJSON with CRLF and a blank line', '{"id":1}\r\n\r\n{"id":2}\r\n', ['1', '2']],
    ['a byte order mark that does not start the input (part of an id)', '7\n\uFEFF8\n', ['7', '\uFEFF8']],
    // Only a whole line that is jq's null is refused; the text null in JSON is an id.
    ['ids that only hold null', 'nulls\nNULL\nnull7\n', ['nulls', 'NULL', 'null7']],
    ['the string "null" in a JSON array', '["null", 7]', ['null', '7']],
    ['blank lines and lines of spaces before and after the ids', '  \r\n\n7\n8\r\n \n  \n', ['7', '8']],
    // In CSV a space is part of a field, in the last record as in any other.
    ['a one-column CSV whose last id ends in a space', 'id\nrose \ntulip \n\n', ['rose ', 'tulip ']],
    ['CSV whose first record starts with a space', '\n id,name\n rose,Rose\n', [' rose']],
  ])('reads %s', (_what, text, ids) => {
    expect(parseIdInput(text)).toEqual(ids);
  });

  /** The error parseIdInput throws for `text`: a usage error (exit 2) that says nothing was deleted. */
  function refusal(text: string): string {
    let thrown: unknown;
    try {
      parseIdInput(text);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    const { message } = thrown as UsageError;
    return message;
  }

  it.each([
    ['a table header with ID, one space apart', 'ID COLOR\n7 red\n', /looks like a table/],
    ['a one-column CSV of a deeper nested field', 'extra.size.cm\r\n12\r\n', /starts with the header extra.size.cm/],
    ['a tab after the first line', '1\n2\tFern\n', /tab-separated lines/],
    ['tab-separated rows', '1\tFern\n', /tab-separated lines/],
    ['a quoted id after the first line', '42\n"43"\n', /quoted id "43"/],
    ['a quoted id on the first line', '"42"\n43\n', /quoted id "42"/],
    [
      'null, as jq -r prints a missing id',
      '7\nnull\n8\n',
      /^line 2 of standard input is null, as jq prints a field that is missing: .*; nothing was deleted$/,
    ],
    ['null on the first line, after blank lines', '\n\nnull\n', /^line 3 of standard input is null/],
    ['an unclosed quote at the start', '"7\n8\n', /looks like CSV but cannot be read: .*never closed/],
    ['an empty string in a JSON array', '["7",""]', /item 2 of the JSON on standard input has no usable "id"/],
    ['a table', 'ID  NAME\n7   Fern\n', /looks like a table/],
    ['a one-column CSV of names', 'name\r\nFern\r\n', /starts with the header name/],
    ['control characters', '7\u0007\n', /control characters/],
    [
      'ids on one line',
      '1 2 3\n',
      /^line 1 of standard input holds a space \("1 2 3"\), so it may be one id or several: put each id on a line/,
    ],
    ['mixed-case ids two spaces apart', 'xA  yB\n', /^line 1 of standard input holds a space/],
    // Not a table: header words, but none a column plants prints, nor dotted, nor two spaces apart; or not all header words.
    ['upper-case ids one space apart', 'AB CD\n', /^line 1 of standard input holds a space \("AB CD"\)/],
    ['ID and a word that is no header', 'ID foo\n7\n', /^line 1 of standard input holds a space \("ID foo"\)/],
    [
      'an id with a space, as cut -f1 prints it',
      '3\nFicus 7\n',
      /^line 2 of standard input holds a space \("Ficus 7"\)/,
    ],
    ['an id with a space at its end', '\n7\n8 \n9\n', /^line 3 of standard input holds a space/],
    ['an id with a space at its start, after a first line', '7\n 8\n', /^line 2 of standard input holds a space/],
    ['a form feed within a line', '7\f8\n', /^line 1 of standard input holds a space/],
    // The first and last lines are lines like any other: their spaces are not trimmed away, making `rose ` rose.
    [
      'an id with a space at its end, on the only line',
      'rose \n',
      /^line 1 of standard input holds a space \("rose "\)/,
    ],
    ['an id with a space at its end, on the last line', 'a\nrose \n\n', /^line 2 of standard input holds a space/],
    ['an id with a space at its end, without a line end', 'a\r\nrose ', /^line 2 of standard input holds a space/],
    ['an id with a space at its start, on the first line', '\n\n rose\nb\n', /^line 3 of standard input holds a space/],
    ['an id after a form feed, on the first line', '\frose\n', /^line 1 of standard input holds a space \("\\frose"\)/],
    ['an id before a vertical tab, on the last line', '7\nrose\v\n', /^line 2 of standard input holds a space/],
    [
      'an id with a backslash, as cut -f1 escapes a tab',
      '7\nb\\tc\n',
      /^line 2 of standard input holds a backslash \(b\\tc\): plants list -o tsv writes a tab in an id as \\t and jq -r writes it as it is/,
    ],
  ])('refuses %s as a usage error that says nothing was deleted', (_what, text, pattern) => {
    const message = refusal(text);
    expect(message).toMatch(pattern);
    expect(message).toMatch(/; nothing was deleted$/);
  });

  it('says what to pipe instead of a table', () => {
    expect(refusal('ID  NAME\n7   Fern\n')).toBe(
      'standard input looks like a table (its first line is the header ID NAME); its cells are not ids: pipe plants list --json, -o ndjson or -o csv instead; nothing was deleted',
    );
  });
});

describe('a key written twice in one object is refused: JSON keeps only the last', () => {
  it.each([
    ['the id twice, NDJSON', '{"id":"7","id":"8"}\n', /^line 1 of standard input has the key "id" twice in one object/],
    ['the id twice, after a blank line', '\n{"id":7}\n{"id":"7","name":"x","id":"8"}\n', /^line 3 of standard input/],
    ['the id twice, a JSON object alone', '{"id":"7","id":"8"}', /^line 1 of standard input has the key "id" twice/],
    [
      'the id twice, an array item',
      '[{"id":1},{"id":"7","id":"8"}]',
      /^item 2 of the JSON on standard input has the key "id" twice/,
    ],
    ['the id spelt with an escape', '[{"id":"7","\\u0069d":"8"}]', /^item 1 of the JSON .* the key "id" twice/],
    ['the id spelt with escapes both times', '{"i\\u0064":"7","\\u0069\\u0064":"8"}', /the key "id" twice/],
    ['another key twice', '[{"id":"7","name":"a","name":"b"}]', /^item 1 of the JSON .* the key "name" twice/],
    [
      'a key twice deeper in an item',
      '[{"id":1},{"id":2},{"id":3,"extra":{"a":1,"a":2}}]',
      /^item 3 .* the key "a" twice/,
    ],
    [
      'a key twice in an NDJSON line',
      '{"id":1}\r\n{"extra":{"x":[{"k":1,"k":1}]},"id":2}',
      /^line 2 .* the key "k" twice/,
    ],
  ])('%s', (_what, text, error) => {
    expect(() => parseIdInput(text)).toThrow(UsageError);
    expect(() => parseIdInput(text)).toThrow(error);
    expect(() => parseIdInput(text)).toThrow(/which value is meant cannot be told; nothing was deleted$/);
  });

  it.each([
    ['keys alike in different objects', '[{"id":"7"},{"id":"8"}]', ['7', '8']],
    ['a key that is in a string', '[{"id":"7","name":"\\"id\\":\\"id\\""}]', ['7']],
    ['keys that differ in case', '{"id":"7","ID":"8","Id":"9"}', ['7']],
    ['a key and a value alike', '{"id":"id"}', ['id']],
    ['an escaped quote before a key', '[{"name":"a\\\\","id":"7"}]', ['7']],
  ])('%s are no repeat', (_what, text, ids) => {
    expect(parseIdInput(text)).toEqual(ids);
  });

  it('whatever two values a key holds, a second spelling of it is refused', () => {
    const spelling = fc.constantFrom('id', '\\u0069d', 'i\\u0064', '\\u0069\\u0064');
    fc.assert(
      fc.property(spelling, spelling, fc.string(), fc.string(), (a, b, first, second) => {
        const line = `{"${a}":${JSON.stringify(first)},"name":"x","${b}":${JSON.stringify(second)}}`;
        expect(() => parseIdInput(`${line}\n`)).toThrow(/the key "id" twice/);
        expect(() => parseIdInput(`[${line}]`)).toThrow(/the key "id" twice/);
      }),
    );
  });
});

describe('input that names no plant is no empty selection', () => {
  it.each([
    ['nothing at all', ''],
    ['a byte order mark alone', '\uFEFF'],
    ['an empty JSON array', '[]'],
    ['an empty JSON array and a line end', '[]\n'],
    ['the CSV header alone', 'id,name,tag\r\n'],
    ['the one-column CSV header alone', 'id\r\n'],
    ['a header without a line end', 'id'],
  ])('%s is an empty selection', (_what, text) => {
    expect(parseIdInput(text)).toEqual([]);
  });

  it.each([
    ['a line end', '\n', /^standard input has 1 line, all blank: it names no plant/],
    ['spaces', '   ', /^standard input has 1 line, all blank/],
    ['blank lines', '\n\n\n', /^standard input has 3 lines, all blank/],
    ['CRLF blank lines', '\r\n\r\n', /^standard input has 2 lines, all blank/],
    ['CR blank lines and tabs', '\t\r\r', /^standard input has 2 lines, all blank/],
    ['a BOM and blank lines', '\uFEFF\n \n', /^standard input has 2 lines, all blank/],
    [
      'CSV of blank rows',
      'id\n\n',
      /^standard input is CSV whose one row after the header is blank: it names no plant/,
    ],
    ['CSV of blank rows, CRLF', 'id\r\n\r\n\r\n\r\n', /^standard input is CSV whose 3 rows after the header are blank/],
    ['CSV of a row of spaces', 'id\r\n  \r\n', /^standard input is CSV whose one row after the header is blank/],
    ['CSV of a quoted empty id', 'id\r\n""\r\n', /^standard input is CSV whose one row after the header is blank/],
    ['CSV whose rows have no id', 'id,name\r\n,Fern\r\n', /^line 2 of standard input has no id/],
    ['JSON items without ids', '[{"name":"Fern"},{"name":"Ivy"}]', /^item 1 .* has no usable "id"/],
    ['JSON null items', '[null]', /^item 1 .* has no usable "id"/],
    ['NDJSON without ids', '{"name":"Fern"}\n{"name":"Ivy"}\n', /^line 1 .* has no usable "id"/],
  ])('%s is refused, saying what was read', (_what, text, error) => {
    expect(() => parseIdInput(text)).toThrow(UsageError);
    expect(() => parseIdInput(text)).toThrow(error);
    expect(() => parseIdInput(text)).toThrow(/nothing was deleted$/);
  });

  it('blank lines among ids are still skipped', () => {
    expect(parseIdInput('\n7\n\n8\n\n')).toEqual(['7', '8']);
    expect(parseIdInput('id\r\n7\r\n\r\n8\r\n\r\n')).toEqual(['7', '8']);
  });
});

describe('READ_BACK_FORMATS: the formats parseIdInput reads back', () => {
  it('are those output/format-writers.ts marks readBack, in its order, each with the flag that asks for it', () => {
    const readBack = formatsWhere((writer) => writer.readBack);
    expect(READ_BACK_FORMATS.map(({ format }) => format)).toEqual(readBack);
    // As plants list asks for each: --json for json, -o <format> for the others.
    expect(READ_BACK_FORMATS.map(({ flag }) => flag)).toEqual(
      readBack.map((format) => (format === 'json' ? '--json' : `-o ${format}`)),
    );
  });

  it('are named in help as JSON, NDJSON or CSV, and in a refusal by their flags', () => {
    expect(readBackFormats()).toBe('JSON, NDJSON or CSV');
    expect(() => parseIdInput('ID  NAME\n7   Ficus\n')).toThrow(/pipe plants list --json, -o ndjson or -o csv instead/);
  });
});

describe('parseIdInput: a line quoted in a refusal is masked before it is cut', () => {
  const token = 'Qok_' + 'A1b2C3d4'.repeat(8);
  const refusal = (text: string) => {
    registerSecret(token);
    try {
      parseIdInput(text);
    } catch (err) {
      return (err as Error).message;
    } finally {
      forgetSecrets();
    }
    throw new Error('not refused');
  };

  it('a line with a space: no part of a secret shows', () => {
    const message = refusal(`Bearer ${token}\n7\n`);
    expect(message).toMatch(/^line 1 of standard input holds a space \("Bearer \*\*\*"\), so it may be one id/);
    expect(message).not.toContain(token.slice(0, 8));
  });

  it('a line with a backslash: no part of a secret shows', () => {
    const message = refusal(`\\${token}${'x'.repeat(40)}\n`);
    expect(message).toBe(
      `line 1 of standard input holds a backslash (\\***${'x'.repeat(40)}): plants list -o tsv writes a tab in an id as \\t and jq -r writes it as it is, so which id is meant cannot be told; pipe plants list --json, -o ndjson or -o csv instead; nothing was deleted`,
    );
  });
});
