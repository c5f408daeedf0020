import { describe, expect, it } from 'vitest';
import { noteRepeatedFields } from '../../src/api/repeated-fields.js';
import type { Plant } from '../../src/api/responses.js';
import { ambiguity, listedIds } from '../../src/deletion/ambiguous.js';
import { parseJson } from '../../src/shared/json.js';

// A plant the service listed with a field written twice, differently: which ids it may be, and how a refusal says so.

/** A plant parsed from its text, its repeated fields noted as the plant stream notes them. */
function listed(text: string): Plant {
  const plant = parseJson(text) as Plant;
  noteRepeatedFields([text], [plant]);
  return plant;
}

describe('listedIds', () => {
  it('is the one id of a plain plant', () => {
    expect(listedIds(listed('{"id":"7","name":"Fern"}'))).toEqual(['7']);
    expect(listedIds(listed('{"id":7}'))).toEqual(['7']);
  });

  it('is empty for a plant without a usable id', () => {
    expect(listedIds(listed('{"name":"Fern"}'))).toEqual([]);
    expect(listedIds(listed('{"id":""}'))).toEqual([]);
  });

  it('is the id plants reads first, then each other id the service wrote, once', () => {
    expect(listedIds(listed('{"id":"2","id":"3"}'))).toEqual(['3', '2']);
    expect(listedIds(listed('{"id":"2","id":"4","id":"2","id":"3"}'))).toEqual(['3', '2', '4']);
  });

  it('keeps a large id as written, above 2^53', () => {
    expect(listedIds(listed('{"id":9007199254740993,"id":9007199254740992}'))).toEqual([
      '9007199254740992',
      '9007199254740993',
    ]);
  });

  it('skips a repeated value that is no id, and lists the others when the last is none', () => {
    expect(listedIds(listed('{"id":"5","id":null,"id":"6"}'))).toEqual(['6', '5']);
    expect(listedIds(listed('{"id":"5","id":null}'))).toEqual(['5']);
  });
});

describe('ambiguity', () => {
  it('is undefined for a plant listed plainly, or with a field written twice the same', () => {
    expect(ambiguity(listed('{"id":"7","name":"Fern"}'))).toBeUndefined();
    expect(ambiguity(listed('{"id":"7","id":"7"}'))).toBeUndefined();
  });

  it('names each repeated field and its values, a string quoted and a number not', () => {
    expect(ambiguity(listed('{"id":"2","id":3}'))).toBe('with more than one id: "2" and 3');
    expect(ambiguity(listed('{"id":1,"tag":"a","tag":"b","tag":"c"}'))).toBe(
      'with more than one tag: "a", "b" and "c"',
    );
    expect(ambiguity(listed('{"id":"1","id":"2","name":"x","name":"y"}'))).toBe(
      'with more than one id: "1" and "2"; more than one name: "x" and "y"',
    );
  });

  it('shows a large number as the service wrote it, and other values as JSON', () => {
    expect(ambiguity(listed('{"id":9007199254740993,"id":1}'))).toBe('with more than one id: 9007199254740993 and 1');
    expect(ambiguity(listed('{"name":null,"name":true,"name":{"a":[1]}}'))).toBe(
      'with more than one name: null, true and {"a":[1]}',
    );
  });

  it('cuts a value past 40 characters, and not one of 40', () => {
    const forty = 'a'.repeat(40);
    expect(ambiguity(listed(`{"name":"${forty}","name":"${forty}b"}`))).toBe(
      `with more than one name: "${forty}" and "${forty}…"`,
    );
    const digits = '1'.repeat(40);
    expect(ambiguity(listed(`{"id":${digits},"id":${digits}2}`))).toBe(
      `with more than one id: ${digits} and ${digits}…`,
    );
    const array = `[${'1,'.repeat(19)}1]`; // 41 characters
    expect(ambiguity(listed(`{"tag":${array},"tag":[1]}`))).toBe(
      `with more than one tag: ${array.slice(0, 40)}… and [1]`,
    );
  });

  it('escapes what would reach the terminal as control characters', () => {
    expect(ambiguity(listed('{"tag":"a\\u001b[31m","tag":"b"}'))).toBe(
      'with more than one tag: "a\\u001b[31m" and "b"',
    );
    const shown = ambiguity(listed('{"tag":"\u202e","tag":{"a":"\u202e"}}'))!;
    expect(shown).not.toContain('\u202e');
    expect(shown).toMatch(/^with more than one tag: "\\u202e" and \{"a":".+"\}$/);
  });
});
