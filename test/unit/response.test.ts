import { describe, expect, it } from 'vitest';
import { headerBlock, indentJson, isJsonType, MAX_INDENTED_DEPTH, terminalText } from '../../src/output/response.js';

const tags: Parameters<typeof indentJson>[1] = {
  blue: (text: string) => `<k>${text}</k>`,
  green: (text: string) => `<s>${text}</s>`,
  yellow: (text: string) => `<n>${text}</n>`,
  gray: (text: string) => `<z>${text}</z>`,
};

describe('indentJson', () => {
  it('indents by two, one member per line, every token as written', () => {
    expect(indentJson('{"a":1,"b":[true,null,"x"],"c":{},"d":[],"e":12345678901234567890,"f":1.50e+0}')).toBe(
      '{\n  "a": 1,\n  "b": [\n    true,\n    null,\n    "x"\n  ],\n  "c": {},\n  "d": [],\n  "e": 12345678901234567890,\n  "f": 1.50e+0\n}\n',
    );
  });

  it('keeps escapes, duplicate keys and strings holding delimiters', () => {
    expect(indentJson(' { "k" : "a\\"b,c:{[" , "k":"\\u00e9\\\\" } ')).toBe(
      '{\n  "k": "a\\"b,c:{[",\n  "k": "\\u00e9\\\\"\n}\n',
    );
  });

  it('takes scalars and empty containers with white space inside', () => {
    expect(indentJson('42')).toBe('42\n');
    expect(indentJson('"x"')).toBe('"x"\n');
    expect(indentJson('[ \n ]')).toBe('[]\n');
    expect(indentJson('{ }')).toBe('{}\n');
  });

  it('paints keys, strings, numbers and literals, null apart', () => {
    expect(indentJson('{"a":"b","n":1,"t":true,"z":null}', tags)).toBe(
      '{\n  <k>"a"</k>: <s>"b"</s>,\n  <k>"n"</k>: <n>1</n>,\n  <k>"t"</k>: <n>true</n>,\n  <k>"z"</k>: <z>null</z>\n}\n',
    );
  });

  it('escapes raw characters a terminal would act on, inside strings', () => {
    expect(indentJson('["a\u202eb\u0085"]')).toBe('[\n  "a\\u202eb\\u0085"\n]\n');
  });

  it('is undefined for text that is not one JSON value', () => {
    for (const text of ['', 'nope', '{"a":1', '[1] [2]', '{"a":1}x']) expect(indentJson(text)).toBeUndefined();
  });

  it('is undefined past MAX_INDENTED_DEPTH (shown as text), and indents up to it', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    expect(indentJson(nested(MAX_INDENTED_DEPTH + 1))).toBeUndefined();
    expect(indentJson(nested(MAX_INDENTED_DEPTH))).toMatch(/^\[\n {2}\[/);
    expect(indentJson(nested(100_000))).toBeUndefined();
  });
});

describe('isJsonType', () => {
  it.each([
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    ['application/problem+json', true],
    ['text/plain', false],
    ['application/jsonp', false],
    [undefined, false],
  ])('%s → %s', (type, json) => expect(isJsonType(type)).toBe(json));
});

describe('terminalText', () => {
  it('keeps line breaks and tabs, escapes the rest, ends with a line break', () => {
    expect(terminalText('a\tb\r\nc\u001b[2J\rd\u2028')).toBe('a\tb\r\nc\\u001b[2J\\rd\\u2028\n');
    expect(terminalText('done\n')).toBe('done\n');
    expect(terminalText('')).toBe('');
  });
});

describe('headerBlock', () => {
  it('writes the status line, each value on its own line, then a blank line', () => {
    expect(headerBlock('200 OK', { 'set-cookie': ['a=1', 'b=2'], 'x-a': 'v' }, false)).toBe(
      'HTTP/1.1 200 OK\nset-cookie: a=1\nset-cookie: b=2\nx-a: v\n\n',
    );
  });

  it('never lets a value break its line, and escapes it on a terminal', () => {
    expect(headerBlock('200 OK', { 'x-a': 'one\r\ntwo' }, false)).toBe('HTTP/1.1 200 OK\nx-a: one  two\n\n');
    expect(headerBlock('200 OK', { 'x-a': 'a\u001b[31m' }, true)).toBe('HTTP/1.1 200 OK\nx-a: a\\u001b[31m\n\n');
  });
});
