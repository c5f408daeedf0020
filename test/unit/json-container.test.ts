import { describe, expect, it } from 'vitest';
import { Container } from '../../src/shared/json-container.js';
import { JsonNumber } from '../../src/shared/json.js';

describe('Container: an object or array being built', () => {
  it('starts empty, expecting a first member or its end', () => {
    const array = new Container(true);
    expect(array.target).toEqual([]);
    expect(array.next).toBe('first');
    expect(array.large).toBe(false);
    expect(new Container(false).target).toEqual({});
  });

  it('parses gathered members on flush, in order, with members added between them', () => {
    const array = new Container(true);
    array.gather('1');
    array.gather('"two"');
    expect(array.target).toEqual([]);
    array.add('three');
    array.gather('[4]');
    array.flush();
    expect(array.target).toEqual([1, 'two', 'three', [4]]);
    array.flush();
    expect(array.target).toHaveLength(4);
  });

  it('flushes by itself once 64 KiB of members are gathered, not before', () => {
    const array = new Container(true);
    const member = `"${'x'.repeat(32 * 1024 - 2)}"`;
    array.gather(member);
    expect(array.target).toHaveLength(0);
    array.gather(member);
    expect(array.target).toHaveLength(2);
  });

  it('parses numbers as parseJson does (beyond 2^53: a JsonNumber)', () => {
    const array = new Container(true);
    array.gather('9007199254740993');
    array.flush();
    expect((array.target as unknown[])[0]).toBeInstanceOf(JsonNumber);
  });

  it('makes `__proto__` an own key, and a repeated key keeps its first place with the last value', () => {
    const object = new Container(false);
    object.gather('"a":1');
    object.gather('"__proto__":{"x":1}');
    object.flush();
    object.keyText = '"a"';
    object.add(3);
    object.keyText = undefined;
    object.key = 'b';
    object.add(4);
    expect(Object.keys(object.target)).toEqual(['a', '__proto__', 'b']);
    expect(Object.getPrototypeOf(object.target)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(object.target, '__proto__')?.value).toEqual({ x: 1 });
    expect((object.target as Record<string, unknown>).a).toBe(3);
  });

  it('reads a key from its text when it has one, else the key as given', () => {
    const object = new Container(false);
    object.keyText = '"\\u0061b"';
    object.key = 'ignored';
    object.add(1);
    expect(object.target).toEqual({ ab: 1 });
  });
});
