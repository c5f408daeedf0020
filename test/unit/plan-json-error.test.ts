import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, jsonErrorPlace } from '../../src/deletion/plan/json-error.js';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('jsonErrorOffset', () => {
  it.each([
    ['{"a":1}', undefined],
    ['[1,2,{"b":[true,false,null,"x\\u0041\\n\\/"]}]', undefined],
    [' -1.5e+5 ', undefined],
    ['{}', undefined],
    ['[ ]', undefined],
    ['{"a":1,}', 7],
    ['{"a":', 5],
    ['', 0],
    ['[1 2]', 3],
    ['{\n"a": 1\n"b": 2}', 9],
    ['"\u0001"', 1],
    ['tru', 3],
    ['trux', 3],
    ['01', 1],
    ['[,]', 1],
    ['{"a" 1}', 5],
    ['"\\x"', 1],
    ['"\\u12G4"', 1],
    ['{}x', 2],
    ['{"a":1 "b":2}', 7],
    ['[1,]', 3],
    ['{1:2}', 1],
    ['-', 0],
    ['1.', 1],
    ['"open', 5],
  ])('%j breaks at %s, as JSON.parse agrees', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
    expect(parses(text)).toBe(offset === undefined);
  });

  it('agrees with JSON.parse on every cut of a plan-like document', () => {
    const doc = JSON.stringify(
      { kind: 'k', version: 1, plants: [{ id: '7', name: 'F\u00e9rn "x"', tag: null }], ok: true },
      null,
      2,
    );
    for (let end = 0; end <= doc.length; end += 1) {
      const text = doc.slice(0, end);
      expect(jsonErrorOffset(text) === undefined, text).toBe(parses(text));
    }
  });
});

describe('jsonErrorPlace', () => {
  it('names the character, line and column; an empty file; one that ends too soon', () => {
    expect(jsonErrorPlace('{\n  "a": 1,\n  ,\n}')).toBe('an unexpected "," at line 3, column 3');
    expect(jsonErrorPlace('x')).toBe('an unexpected "x" at line 1, column 1');
    expect(jsonErrorPlace('  \n')).toBe('the file is empty');
    expect(jsonErrorPlace('{"a": [1, 2')).toBe('the file ends too soon');
    expect(jsonErrorPlace('[]')).toBe('it is JSON');
  });
});
