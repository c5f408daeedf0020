import { describe, expect, it } from 'vitest';
import { deleteOverride, isMethodKey, namesDelete } from '../../src/deletion/api-request/override.js';

// Where another method asks for a DELETE: the names and values read, and what the answer says.

describe('isMethodKey', () => {
  it.each([
    '_method',
    '_METHOD',
    '.method',
    ' method',
    ' _method',
    ' .method',
    '[_method]',
    '[[_method]]',
    '[_method',
    '_method]',
    '_method]]',
    '_method[]',
    '_method[0]',
    '_method[abc]',
    '_method[a][b]',
    ' _method[]',
  ])('%j is one', (name) => {
    expect(isMethodKey(name)).toBe(true);
  });

  it.each([
    'method',
    '_method ',
    '__method',
    'x_method',
    'x[_method]',
    '_me[thod',
    '_meth]od',
    '_method[',
    '_method[]x',
    '_method[a]b',
    '_methods',
    'payment_method[]',
    '',
  ])('%j is not', (name) => {
    expect(isMethodKey(name)).toBe(false);
  });
});

describe('namesDelete', () => {
  it.each(['delete', 'DELETE', ' DeLeTe ', '-delete-', '--delete--', 'put,delete', 'delete,put', 'delete;'])(
    '%j names it',
    (value) => {
      expect(namesDelete(value)).toBe(true);
    },
  );

  it.each(['', 'put', 'undelete', 'deleted', 'delete7', '7delete', 'de-lete', 'put;delete', 'put delete'])(
    '%j does not',
    (value) => {
      expect(namesDelete(value)).toBe(false);
    },
  );

  it('reads only text', () => {
    expect(namesDelete(['delete'])).toBe(false);
    expect(namesDelete({ toString: () => 'delete' })).toBe(false);
    expect(namesDelete(undefined)).toBe(false);
  });
});

describe('deleteOverride: what it answers', () => {
  const multipart = (name: string, value: string) =>
    Buffer.from(`--XyZ\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n--XyZ--\r\n`);

  it('names the header as the request wrote it', () => {
    expect(deleteOverride({ 'X-HTTP-Method-Override': 'DELETE' }, '/plants/7', undefined)).toBe(
      'its X-HTTP-Method-Override header',
    );
    expect(deleteOverride({ X_Method_Override: 'delete' }, '/plants/7', undefined)).toBe(
      'its X_Method_Override header',
    );
    expect(deleteOverride({ 'X-HTTP-Method': 'PUT' }, '/plants/7', undefined)).toBeUndefined();
    expect(deleteOverride({ 'X-Other': 'DELETE' }, '/plants/7', undefined)).toBeUndefined();
  });

  it('reads the query only after the ?', () => {
    expect(deleteOverride({}, '/plants/7?_method=DELETE', undefined)).toBe('_method=DELETE in its query');
    expect(deleteOverride({}, '?_method=DELETE', undefined)).toBe('_method=DELETE in its query');
    expect(deleteOverride({}, '_method=DELETE', undefined)).toBeUndefined();
    expect(deleteOverride({}, '/p?_method=PUT', undefined)).toBeUndefined();
  });

  it('says nothing of an empty body', () => {
    expect(deleteOverride({ 'content-type': 'multipart/form-data; boundary=XyZ' }, '/p', Buffer.alloc(0))).toBe(
      undefined,
    );
  });

  it('reads a multipart body by its type or by its first line', () => {
    const body = multipart('_method', 'DELETE');
    const answer = 'a _method part of its multipart body';
    expect(deleteOverride({ 'content-type': 'multipart/form-data; boundary=XyZ' }, '/p', body)).toBe(answer);
    expect(deleteOverride({ 'content-type': 'Multipart/Form-Data; boundary=XyZ' }, '/p', body)).toBe(answer);
    expect(deleteOverride({}, '/p', body)).toBe(answer);
    expect(deleteOverride({ 'content-type': 'text/plain' }, '/p', body)).toBe(answer);
    expect(deleteOverride({}, '/p', multipart('_method', 'PUT'))).toBeUndefined();
    expect(deleteOverride({}, '/p', multipart('note', 'DELETE'))).toBeUndefined();
  });

  it('reads the members of a JSON object, not an array or other value', () => {
    const json = { 'content-type': 'application/json' };
    expect(deleteOverride(json, '/p', Buffer.from('{"_method":"DELETE"}'))).toBe(
      '"_method": "DELETE" in its JSON body',
    );
    expect(deleteOverride(json, '/p', Buffer.from('{"_method":"PUT"}'))).toBeUndefined();
    expect(deleteOverride(json, '/p', Buffer.from('{"note":"DELETE"}'))).toBeUndefined();
    expect(deleteOverride(json, '/p', Buffer.from('[{"_method":"DELETE"}]'))).toBeUndefined();
    expect(deleteOverride(json, '/p', Buffer.from('["_method","DELETE"]'))).toBeUndefined();
    expect(deleteOverride(json, '/p', Buffer.from('null'))).toBeUndefined();
  });

  it('reads a form whatever the type, but not JSON that parses sent as JSON', () => {
    // A JSON string that, read as a form, holds _method=DELETE".
    const body = Buffer.from('"a&_method=DELETE"');
    const form = '_method=DELETE in its form body';
    expect(deleteOverride({ 'content-type': 'text/plain' }, '/p', body)).toBe(form);
    expect(deleteOverride({}, '/p', body)).toBe(form);
    expect(deleteOverride({ 'content-type': 'application/jsonp' }, '/p', body)).toBe(form);
    expect(deleteOverride({ 'content-type': 'text/x-application/json' }, '/p', body)).toBe(form);
    expect(deleteOverride({ 'content-type': 'application/a;b+json' }, '/p', body)).toBe(form);
    expect(deleteOverride({ 'content-type': 'application/ +json' }, '/p', body)).toBe(form);
    for (const type of [
      'application/json',
      'Application/JSON',
      'application/json; charset=utf-8',
      'application/vnd.api+json',
      'application/merge-patch+json',
      'application/json-seq',
    ]) {
      expect(deleteOverride({ 'content-type': type }, '/p', body), type).toBeUndefined();
    }
    expect(deleteOverride({ 'content-type': 'application/json' }, '/p', Buffer.from('a&_method=DELETE'))).toBe(form);
    expect(deleteOverride({ 'content-type': 'application/json' }, '/p', Buffer.from('a&_method=PUT'))).toBeUndefined();
  });

  it('reads form pairs split at ; as well as &', () => {
    expect(deleteOverride({}, '/p', Buffer.from('a=1;_method=DELETE'))).toBe('_method=DELETE in its form body');
    expect(deleteOverride({}, '/p?a=1;_method=DELETE', undefined)).toBe('_method=DELETE in its query');
    expect(deleteOverride({}, '/p?a=1;b=DELETE', undefined)).toBeUndefined();
  });
});
