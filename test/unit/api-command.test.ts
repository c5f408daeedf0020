import { describe, expect, it } from 'vitest';
import { deletedBy } from '../../src/deletion/api-request/deletion-path.js';
import { headersOf, parseHeader, parseMethod } from '../../src/commands/api/request.js';
import { gzipSync, deflateSync, deflateRawSync, brotliCompressSync } from 'node:zlib';
import { deleteAskedBy } from '../../src/deletion/api-request/asked-delete.js';
import { mayNameMethod } from '../../src/deletion/api-request/method-word.js';
import { deleteOverride } from '../../src/deletion/api-request/override.js';
import { UsageError } from '../../src/shared/errors.js';
import { apiTarget } from '../../src/shared/url.js';

const base = new URL('http://127.0.0.1:8080/api');

describe('apiTarget', () => {
  it.each([
    ['/plants/7', '/api/plants/7', '/plants/7'],
    ['plants', '/api/plants', '/plants'],
    ['/plants?limit=5', '/api/plants?limit=5', '/plants'],
    // As written: % escapes and dot-segments are the caller's.
    ['/plants/a%2Fb/../c', '/api/plants/a%2Fb/../c', '/plants/a%2Fb/../c'],
    // What a request target cannot hold is encoded; nothing else.
    ['/plants/a b/é?q=1 2', '/api/plants/a%20b/%C3%A9?q=1%202', '/plants/a%20b/%C3%A9'],
    ['http://127.0.0.1:8080/other?x=1', '/other?x=1', '/other'],
    ['http://127.0.0.1:8080', '/', '/'],
    ['http://127.0.0.1:8080?x=1', '/?x=1', '/'],
    ['http://127.0.0.1:8080/api/plants/7', '/api/plants/7', '/plants/7'],
  ])('%s → %s', (raw, path, below) => {
    const target = apiTarget(base, raw);
    expect(target.path).toBe(path);
    expect(target.href).toBe(`http://127.0.0.1:8080${path}`);
    expect(target.below).toBe(below);
  });

  it('keeps a root base URL without a doubled slash', () => {
    expect(apiTarget(new URL('http://h:1'), '/plants').path).toBe('/plants');
  });

  it('adds query pairs, encoded, to a query the path has or not', () => {
    expect(apiTarget(base, '/plants', [['tag', 'a b&c']]).path).toBe('/api/plants?tag=a%20b%26c');
    expect(
      apiTarget(base, '/plants?limit=1', [
        ['a', '1'],
        ['b', '2'],
      ]).path,
    ).toBe('/api/plants?limit=1&a=1&b=2');
    expect(apiTarget(base, '/plants?', [['a', '1']]).path).toBe('/api/plants?a=1');
  });

  it.each([
    ['http://127.0.0.2:8080/plants', /not on the base URL's origin/],
    ['http://127.0.0.1:8081/plants', /not on the base URL's origin/],
    ['https://127.0.0.1:8080/plants', /not on the base URL's origin/],
    ['http://127.0.0.1:8080@evil.example/plants', /not on the base URL's origin/],
    ['http://user:pw@127.0.0.1:8080/plants', /credentials/],
    ['/plants#7', /fragment/],
    ['', /give a path/],
    ['//evil.example/plants', /invalid URL|origin/],
  ])('refuses %s', (raw, message) => {
    expect(() => apiTarget(base, raw)).toThrow(UsageError);
    expect(() => apiTarget(base, raw)).toThrow(message);
  });

  it('never shows a secret of a refused URL', () => {
    expect(() => apiTarget(base, 'http://other.example/x?token=s3cret')).toThrow(/other\.example\/x\?\*\*\*"/);
  });
});

describe('parseMethod', () => {
  it.each([
    ['get', 'GET'],
    [' Delete ', 'DELETE'],
    ['PROPFIND', 'PROPFIND'],
  ])('%s → %s', (raw, method) => expect(parseMethod(raw)).toBe(method));

  it.each(['', 'GE T', 'CONNECT', 'connect', 'GET\u0000', 'ÜBER'])('refuses %j', (raw) => {
    expect(() => parseMethod(raw)).toThrow(/invalid method/);
  });
});

describe('parseHeader', () => {
  it.each([
    ['X-Trace: one', ['x-trace', 'one']],
    ['Accept:text/plain', ['accept', 'text/plain']],
    ['X-Empty:', ['x-empty', '']],
    ['X-Colon: a:b', ['x-colon', 'a:b']],
  ])('%s', (raw, parsed) => expect(parseHeader(raw)).toEqual(parsed));

  it.each([
    'Authorization: Bearer x',
    'AUTHORIZATION: x',
    'Proxy-Authorization: x',
    'Host: h',
    'Content-Length: 1',
    'Transfer-Encoding: chunked',
    'Connection: close',
    'Accept-Encoding: gzip',
  ])('refuses %s', (raw) => {
    expect(() => parseHeader(raw)).toThrow(/refusing header/);
  });

  it.each(['no colon', ': value', 'Bad Name: x', 'X-A: line\nbreak', 'X-A: \u0000'])('refuses malformed %j', (raw) => {
    expect(() => parseHeader(raw)).toThrow(/invalid header/);
  });
});

describe('headersOf', () => {
  it('joins the values of a name given twice', () => {
    expect(headersOf(['X-Tag: a', 'x-tag: b'])).toEqual({ 'x-tag': 'a, b' });
  });

  it('refuses X-Request-Id given twice: joined, it would be no request id', () => {
    expect(() => headersOf(['X-Request-Id: aa', 'x-request-id: bb'])).toThrow(/X-Request-Id given twice/);
  });
});

describe('deletedBy: what a DELETE path names, read as loosely as any server reads it', () => {
  it.each([
    ['/plants/7', { kind: 'plant', id: '7' }],
    ['/plants/7/', { kind: 'plant', id: '7' }],
    ['/plants/7?force=1', { kind: 'plant', id: '7' }],
    ['/plants/a%20b', { kind: 'plant', id: 'a b' }],
    ['/plants/%37', { kind: 'plant', id: '7' }],
    ['/plants/%E0%A4', { kind: 'plant', id: '%E0%A4' }],
    // Under any prefix, not only the base URL's.
    ['/v1/plants/7', { kind: 'plant', id: '7' }],
    ['/v2/plants/7', { kind: 'plant', id: '7' }],
    // Resolved as servers resolve them: `//`, dot segments (encoded too).
    ['/plants//7', { kind: 'plant', id: '7' }],
    ['//plants/7', { kind: 'plant', id: '7' }],
    ['/v1//plants/7//', { kind: 'plant', id: '7' }],
    ['/plants/./7', { kind: 'plant', id: '7' }],
    ['/plants/7/.', { kind: 'plant', id: '7' }],
    ['/x/../plants/7', { kind: 'plant', id: '7' }],
    ['/plants/%2e/7', { kind: 'plant', id: '7' }],
    ['/plants/7/photos/%2E%2E', { kind: 'plant', id: '7' }],
    ['/plants/plants', { kind: 'plant', id: 'plants' }],
    // `plants` in any case, as servers that ignore case (IIS) read it.
    ['/PLANTS/7', { kind: 'plant', id: '7' }],
    ['/Plants/7', { kind: 'plant', id: '7' }],
    ['/%70lants/7', { kind: 'plant', id: '7' }],
    ['/plant%C5%BF/7', { kind: 'plant', id: '7' }],
    ['/%EF%BD%90lants/7', { kind: 'plant', id: '7' }],
    ['/plants', { kind: 'plants' }],
    ['/plants/', { kind: 'plants' }],
    ['/Plants', { kind: 'plants' }],
    ['/api/plants', { kind: 'plants' }],
    ['/plants/7/..', { kind: 'plants' }],
    ['/plants/%2e%2E', { kind: 'other' }],
    ['/', { kind: 'other' }],
    ['/other/7', { kind: 'other' }],
    ['/plants/7/photos', { kind: 'other' }],
    ['/plantsx/7', { kind: 'other' }],
  ])('%s names %j', (path, named) => {
    expect(deletedBy(path)).toEqual(named);
  });

  it.each(['/plants/7;x', '/plants%2F7', '/plants/7%2F', '/plants/a%5cb', '/plants\\7', '/plants/a%2Fb'])(
    'refuses %s, which servers read as different plants or paths',
    (path) => {
      expect(() => deletedBy(path)).toThrow(UsageError);
      expect(() => deletedBy(path)).toThrow(/^refusing DELETE .*: servers read it as different plants or paths/);
    },
  );
});

describe('deleteOverride: where another method asks the service for a DELETE', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const json = { 'content-type': 'application/json' };
  const utf16 = (text: string, bom: Buffer, swap: boolean) => {
    const bytes = Buffer.from(text, 'utf16le');
    return Buffer.concat([bom, swap ? bytes.swap16() : bytes]);
  };
  it.each<[string, Record<string, string>, string, Buffer | undefined]>([
    ['X-HTTP-Method-Override', { 'x-http-method-override': 'DELETE' }, '/plants/7', undefined],
    ['X-Method-Override in lower case, spaced', { 'x-method-override': '  delete ' }, '/plants/7', undefined],
    ['X-HTTP-Method among others', { 'x-http-method': 'PATCH, Delete' }, '/plants/7', undefined],
    ['X_HTTP_Method_Override (PHP reads _ as -)', { x_http_method_override: 'DELETE' }, '/plants/7', undefined],
    ['_method in the query', {}, '/plants/7?a=1&_method=DELETE', undefined],
    ['_method encoded, in any case', {}, '/plants/7?%5Fmethod=dElEtE', undefined],
    ['.method in the query (PHP reads . as _)', {}, '/plants/7?.method=DELETE', undefined],
    ['+method in the query (a space, which PHP reads as _)', {}, '/plants/7?+method=DELETE', undefined],
    ['%20method in the query', {}, '/plants/7?%20method=DELETE', undefined],
    ['_METHOD in the query', {}, '/plants/7?_METHOD=DELETE', undefined],
    ['a value with white space', {}, '/plants/7?_method=%20DELETE%20', undefined],
    ['a form body', form, '/plants/7', Buffer.from('name=x&_method=delete')],
    ['a form body sent as JSON', json, '/plants/7', Buffer.from('name=x&[_method]=DELETE')],
    ['a form body starting with {', form, '/plants/7', Buffer.from('{"a":"b"}&_method=DELETE')],
    ['a form body with .method', form, '/plants/7', Buffer.from('.method=DELETE')],
    ['a JSON body', json, '/plants/7', Buffer.from('{"_method":"DELETE"}')],
    ['a JSON body after white space', json, '/plants/7', Buffer.from('\r\n\t {"_method":"DELETE"}')],
    ['a JSON body after a byte order mark', json, '/plants/7', Buffer.from('\uFEFF{"_method":"DELETE"}')],
    ['a JSON body sent as text', { 'content-type': 'text/plain' }, '/plants/7', Buffer.from('{"_method":"DELETE"}')],
    ['a JSON body in UTF-16LE', json, '/plants/7', utf16('{"_method":"DELETE"}', Buffer.from([0xff, 0xfe]), false)],
    ['a JSON body in UTF-16BE', json, '/plants/7', utf16('{"_method":"DELETE"}', Buffer.from([0xfe, 0xff]), true)],
    [
      'a JSON body declared UTF-16BE, without a byte order mark',
      { 'content-type': 'application/json; charset=utf-16be' },
      '/plants/7',
      utf16('{"_method":"DELETE"}', Buffer.alloc(0), true),
    ],
    ['a form body in UTF-16LE, undeclared', form, '/plants/7', utf16('_method=DELETE', Buffer.alloc(0), false)],
    [
      'a multipart part',
      { 'content-type': 'multipart/form-data; boundary=XyZ' },
      '/plants/7',
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="_method"\r\n\r\nDELETE\r\n--XyZ--\r\n'),
    ],
    // Found in review: spellings a server reads as DELETE.
    ['; between query pairs (PHP arg_separator, old Go and Python)', {}, '/plants/7?a=1;_method=DELETE', undefined],
    ['; between form pairs', form, '/plants/7', Buffer.from('a=1;_method=DELETE')],
    ['a JSON key twice, DELETE first', json, '/plants/7', Buffer.from('{"_method":"DELETE","_method":"PUT"}')],
    ['a JSON key twice, spelled apart', json, '/plants/7', Buffer.from('{"_METHOD":"DELETE", "_method" : "PUT"}')],
    ['a JSON array value', json, '/plants/7', Buffer.from('{"a":[1,{"b":"}"}],"_method":["PUT","DELETE"]}')],
    [
      'a multipart name*= (RFC 5987)',
      { 'content-type': 'multipart/form-data; boundary=XyZ' },
      '/plants/7',
      Buffer.from("--XyZ\r\nContent-Disposition: form-data; name*=UTF-8''%5Fmethod\r\n\r\nDELETE\r\n--XyZ--\r\n"),
    ],
    [
      'a multipart name= and name*=, the second naming _method',
      { 'content-type': 'multipart/form-data; boundary=XyZ' },
      '/plants/7',
      Buffer.from(
        '--XyZ\r\nContent-Disposition: form-data; name="note"; name*=utf-8\'en\'_method\r\n\r\nDELETE\r\n--XyZ--\r\n',
      ),
    ],
    ['_method[] (an array, Rack and PHP)', {}, '/plants/7?_method[]=DELETE', undefined],
    ['_method[0] and _method[x]', form, '/plants/7', Buffer.from('_method[0]=PUT&_method[x]=DELETE')],
    ['_method%5B%5D encoded', {}, '/plants/7?_method%5B%5D=DELETE', undefined],
    ['a value with a NUL after it', {}, '/plants/7?_method=DELETE%00', undefined],
    ['a value with ; after it', json, '/plants/7', Buffer.from('{"_method":"DELETE;"}')],
    [
      'a value with NBSP and invisibles around it',
      json,
      '/plants/7',
      Buffer.from('{"_method":"\u00a0DEL\u200bETE\u2060 "}'),
    ],
    [
      'a value in fullwidth letters',
      json,
      '/plants/7',
      Buffer.from('{"_method":"\uff24\uff25\uff2c\uff25\uff34\uff25"}'),
    ],
    ['X-HTTP-Method-Override: DELETE;', { 'x-http-method-override': 'DELETE;' }, '/plants/7', undefined],
  ])('%s', (_, headers, path, body) => {
    expect(deleteOverride(headers, path, body)).toBeDefined();
  });

  it.each<[string, Record<string, string>, string, Buffer | undefined]>([
    ['no override', {}, '/plants/7?tag=x', Buffer.from('{"name":"Fern"}')],
    ['another method', { 'x-http-method-override': 'PATCH' }, '/plants/7?_method=PUT', undefined],
    ['another header naming DELETE', { 'x-note': 'DELETE' }, '/plants/7', undefined],
    ['another parameter', {}, '/plants/7?method_=DELETE&x_method=DELETE', undefined],
    ['DELETE inside a value', {}, '/plants/7?_method=UNDELETE', undefined],
    ['a nested JSON key', json, '/plants/7', Buffer.from('{"a":{"_method":"DELETE"}}')],
    ['a JSON string holding a form', json, '/plants/7', Buffer.from('{"note":"&_method=DELETE&"}')],
    ['DELETED', {}, '/plants/7?_method=DELETED', undefined],
    [
      'DELETE in another key of a JSON body with _method',
      json,
      '/plants/7',
      Buffer.from('{"_method":"PUT","x":"DELETE"}'),
    ],
    [
      'a key with a bracket suffix that is no _method',
      {},
      '/plants/7?payment_method[]=DELETE&x[_method]=DELETE',
      undefined,
    ],
    ['a JSON string holding a duplicate key', json, '/plants/7', Buffer.from('{"a":"{\\"_method\\":\\"DELETE\\"}"}')],
  ])('not: %s', (_, headers, path, body) => {
    expect(deleteOverride(headers, path, body)).toBeUndefined();
  });
});

describe('mayNameMethod: where a large body may name a method parameter', () => {
  const utf16 = (text: string) => Buffer.from(text, 'utf16le').toString('latin1');
  it.each([
    '_method=DELETE',
    'a=1&_method=DELETE',
    'a=1;_method=DELETE',
    'a=1&.method=DELETE',
    'a=1& method=DELETE',
    'a=1&+method=DELETE',
    'a=1&[_method]=DELETE',
    'a=1&_method[]=DELETE',
    'a=1&_METHOD[0]=DELETE',
    'a=1&%5F%6Dethod=DELETE',
    'a=1&%5fmethod%3DDELETE',
    '{"a":1,"_method":"DELETE"}',
    '{"a":1, "_method" : "DELETE"}',
    '{"\\u005fmethod":"DELETE"}',
    '{"a":"b",\n  "method": "DELETE"}',
    'Content-Disposition: form-data; name="_method"\r\n',
    'Content-Disposition: form-data; name=_method\r\n',
    "Content-Disposition: form-data; name*=UTF-8''_method\r\n",
    '_method: DELETE',
    'the method: x',
    utf16('{"a":1,"_method":"DELETE"}'),
    `&${utf16('_method=DELETE')}`,
    Buffer.from('{"_method":"DELETE"}', 'utf16le').swap16().toString('latin1'),
    'a=1&_method',
  ])('%j', (text) => {
    expect(mayNameMethod(text)).toBe(true);
  });

  it.each([
    '{"payment_method":"card"}',
    'payment_method=card&x_method=1',
    '{"methodology":"x","methods":1}',
    'the method is sound',
    'a method, or two',
    '{"note":"a method"}',
    'methodical',
    utf16('{"payment_method":"card","methodology":1}'),
    '{"payment%5Fmethod":"card"}',
  ])('not: %j', (text) => {
    expect(mayNameMethod(text)).toBe(false);
  });

  it('takes the start and end of the body as boundaries only when they are', () => {
    expect(mayNameMethod('method=x', false, false)).toBe(false);
    expect(mayNameMethod('&_method', false, false)).toBe(false);
    expect(mayNameMethod('&_method', false, true)).toBe(true);
  });
});

describe('deleteAskedBy: a body sent with a Content-Encoding is read decompressed', () => {
  const form = 'a=1&_method=DELETE';
  const asked = (encoding: string, body: Buffer) =>
    deleteAskedBy(
      { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': encoding },
      '/plants/7',
      body,
    );

  it.each<[string, Buffer]>([
    ['gzip', gzipSync(form)],
    ['x-gzip', gzipSync(form)],
    ['deflate', deflateSync(form)],
    ['deflate', deflateRawSync(form)],
    ['br', brotliCompressSync(form)],
    ['gzip, br', brotliCompressSync(gzipSync(form))],
    ['deflate, identity, gzip', gzipSync(deflateSync(form))],
  ])('%s', async (encoding, body) => {
    expect(await asked(encoding, body)).toBeDefined();
    expect(await asked(encoding, Buffer.from(body))).toBeDefined();
  });

  it('lets a compressed body without an override pass', async () => {
    expect(await asked('gzip', gzipSync('a=1&payment_method=card'))).toBeUndefined();
  });

  it('refuses a body it cannot decompress, or in an unknown coding, that may name a method parameter', async () => {
    await expect(asked('gzip', Buffer.from(form))).rejects.toThrow(
      /cannot be decompressed as its Content-Encoding says/,
    );
    await expect(asked('compress', Buffer.from(form))).rejects.toThrow(
      /Content-Encoding is not one plants can decompress/,
    );
    expect(await asked('compress', Buffer.from('a=1&payment_method=card'))).toBeUndefined();
    expect(await asked('gzip', Buffer.from('not gzip'))).toBeUndefined();
  });

  it('refuses a body that decompresses to more than it inspects, holding a method key', async () => {
    const big = Buffer.alloc(17 * 1024 * 1024, 'a');
    await expect(asked('gzip', gzipSync(Buffer.concat([big, Buffer.from('&_method=DELETE')])))).rejects.toThrow(
      /too large/,
    );
    expect(await asked('gzip', gzipSync(Buffer.concat([big, Buffer.from('&payment_method=x')])))).toBeUndefined();
  });
});
