import { describe, expect, it } from 'vitest';
import { jsonMembers, multipartParts, requestBodyText } from '../../src/deletion/api-request/override-body.js';

// A body as the parsers that honour _method read it: its text, multipart parts and JSON members.

describe('requestBodyText', () => {
  it('drops a byte order mark at the start only', () => {
    expect(requestBodyText(Buffer.from('\uFEFFa=1'), undefined)).toBe('a=1');
    expect(requestBodyText(Buffer.from('a\uFEFFb'), undefined)).toBe('a\uFEFFb');
  });
});

describe('multipartParts', () => {
  it('splits at boundaries after CRLF or LF alone, and reads each value trimmed', () => {
    const lf =
      '--X\nContent-Disposition: form-data; name="a"\n\n v \n--X\nContent-Disposition: form-data; name="b"\n\nw\n--X--\n';
    expect(multipartParts(lf)).toEqual([
      [['a'], 'v'],
      [['b'], 'w'],
    ]);
    const crlf = lf.replaceAll('\n', '\r\n');
    expect(multipartParts(crlf)).toEqual([
      [['a'], 'v'],
      [['b'], 'w'],
    ]);
  });

  it('reads names only from the headers of a part that names one', () => {
    expect(multipartParts('--X\r\nContent-Type: text/plain\r\n\r\nv\r\n--X--')).toEqual([]);
    expect(multipartParts('--X\r\nX-A: b\r\n\r\nContent-Disposition: form-data; name="_method"\r\n--X--')).toEqual([]);
    expect(multipartParts('--X\r\nContent-Disposition: form-data; filename="f"\r\n\r\nv\r\n--X--')).toEqual([]);
    expect(multipartParts('--X\r\nContent-Disposition: form-data; name="a"\r\nno blank line')).toEqual([]);
  });

  it('reads name= with or without spaces and quotes, and name*= decoded', () => {
    const part = (disposition: string) =>
      multipartParts(`--X\r\nContent-Disposition: ${disposition}\r\n\r\nv\r\n--X--`);
    expect(part('form-data;name="a"')).toEqual([[['a'], 'v']]);
    expect(part('form-data; name ="a"')).toEqual([[['a'], 'v']]);
    expect(part('form-data; NAME = b ; x=1')).toEqual([[['b'], 'v']]);
    expect(part('form-data; name="%5Fmethod"')).toEqual([[['%5Fmethod'], 'v']]);
    expect(part("form-data; name*=UTF-8''%5Fmethod")).toEqual([[['_method'], 'v']]);
    expect(part("form-data; name*=UTF-8'en'%zz")).toEqual([[['%zz'], 'v']]);
    expect(part('form-data; name="a"; name*="b"')).toEqual([[['a', 'b'], 'v']]);
  });
});

describe('jsonMembers', () => {
  it('is nothing for JSON that is no object', () => {
    expect(jsonMembers('[]')).toEqual([]);
    expect(jsonMembers('["a",1]')).toEqual([]);
    expect(jsonMembers(' "a"')).toEqual([]);
  });

  it('reads every member, a key written twice twice, with its string values', () => {
    expect(jsonMembers('{}')).toEqual([]);
    expect(jsonMembers('{"a":12,"b":"x,y","a":[1,"z",{"c":"}"}],"d":{"e":"f"}}')).toEqual([
      ['a', []],
      ['b', ['x,y']],
      ['a', ['z']],
      ['d', []],
    ]);
  });

  it('reads around white space', () => {
    expect(jsonMembers(' \r\n{ "a" : "x" , "b"\t:\n12 \n}\n')).toEqual([
      ['a', ['x']],
      ['b', []],
    ]);
  });
});
