import { describe, expect, it } from 'vitest';
import { deletedBy } from '../../src/commands/api/delete.js';
import { headersOf, parseHeader, parseMethod } from '../../src/commands/api/request.js';
import { UsageError } from '../../src/errors.js';
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

  it.each([
    ['http://127.0.0.1:8080/%61pi/plants/7', true],
    ['http://127.0.0.1:8080/API/plants/7', true],
    ['http://127.0.0.1:8080/api/plants/7', false],
    ['http://127.0.0.1:8080/apis/plants/7', false],
    ['http://127.0.0.1:8080/plants/7', false],
    ['/API/plants/7', false],
  ])('%s spells the path prefix otherwise: %s', (raw, respelled) => {
    expect(apiTarget(base, raw).respelledPrefix).toBe(respelled);
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

describe('deletedBy: what a DELETE path names, as the guard rails check it', () => {
  it.each([
    ['/plants/7', { kind: 'plant', id: '7' }],
    ['/plants/7/', { kind: 'plant', id: '7' }],
    ['/plants/a%20b', { kind: 'plant', id: 'a b' }],
    ['/plants/%E0%A4', { kind: 'plant', id: '%E0%A4' }],
    ['/plants', { kind: 'plants' }],
    ['/plants/', { kind: 'plants' }],
    ['/', { kind: 'other' }],
    ['/other/7', { kind: 'other' }],
    ['/plants/7/photos', { kind: 'other' }],
    ['/plantsx/7', { kind: 'other' }],
  ])('%s names %j', (below, named) => {
    expect(deletedBy({ below, respelledPrefix: false })).toEqual(named);
  });

  it.each([
    '/plants/./7',
    '/plants/7/.',
    '/plants/7/..',
    '/plants/%2e%2E',
    '/plants/.%2e/7',
    '/x/../plants/7',
    '/plants//7',
    '//plants/7',
    '/plants/7;x',
    '/plants%2F7',
    '/plants/a%5cb',
    '/plants\\7',
    '/PLANTS/7',
    '/Plants',
    '/%70lants/7',
    '/plant%C5%BF/7',
    '/%EF%BD%90lants/7',
  ])('refuses %s, which a server may read as another plant or the collection', (below) => {
    expect(() => deletedBy({ below, respelledPrefix: false })).toThrow(UsageError);
    expect(() => deletedBy({ below, respelledPrefix: false })).toThrow(
      /^refusing DELETE .*: it is not written plainly/,
    );
  });
});
