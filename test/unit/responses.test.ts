import { afterEach, describe, expect, it } from 'vitest';
import { describeErrorBody, parsePlantList } from '../../src/api/responses.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';
import { BadResponseError } from '../../src/shared/errors.js';

afterEach(() => forgetSecrets());

describe('parsePlantList', () => {
  it('keeps every field of every item, including ones the interface does not show', () => {
    const text = '[{"id":7,"name":"Fern","tag":"green","extra":{"height":3}},{"name":"Cactus"}]';
    expect(parsePlantList(text, 'application/json')).toEqual([
      { id: 7, name: 'Fern', tag: 'green', extra: { height: 3 } },
      { name: 'Cactus' },
    ]);
  });

  it('accepts an empty array and a null tag', () => {
    expect(parsePlantList('[]', 'application/json')).toEqual([]);
    expect(parsePlantList('[{"name":"A","tag":null}]', undefined)).toEqual([{ name: 'A', tag: null }]);
  });

  it.each([
    ['', undefined, /response body was empty/],
    ['   \n', 'application/json', /response body was empty/],
    ['<html><title>Bad Gateway</title></html>', 'text/html', /received text\/html that is not JSON: Bad Gateway/],
    ['not json', 'text/plain', /received text\/plain that is not JSON: not json/],
    ['[{"name":"A"}', 'application/json', /not JSON/],
    ['{"plants":[]}', 'application/json', /received an object: \{"plants":\[\]\}/],
    ['"plants"', 'application/json', /received a string/],
    ['null', 'application/json', /received null/],
    ['[1]', 'application/json', /item 1 of the plant list is a number/],
    ['[{"name":"A"},null]', 'application/json', /item 2 of the plant list is null/],
    ['[[]]', 'application/json', /item 1 of the plant list is an array/],
    ['[{"tag":"x"}]', 'application/json', /item 1 .*it has no "name"/],
    ['[{"name":5}]', 'application/json', /item 1 .*its "name" is a number/],
    ['[{"name":"A","tag":3}]', 'application/json', /item 1 .*its "tag" is a number/],
  ])('rejects %j (%s)', (text, type, message) => {
    expect(() => parsePlantList(text, type)).toThrow(BadResponseError);
    expect(() => parsePlantList(text, type)).toThrow(message);
  });

  it('counts items from 1', () => {
    expect(() => parsePlantList('[{"name":"A"},{"name":"B"},null]', 'application/json')).toThrow(
      'item 3 of the plant list is null',
    );
    expect(() => parsePlantList('[{"tag":"x"}]', 'application/json')).toThrow(
      'item 1 of the plant list is not a plant',
    );
  });

  it('keeps excerpts short and free of control characters', () => {
    const long = `{"x":"${'a'.repeat(5000)}\u001b[31m"}`;
    let message = '';
    try {
      parsePlantList(long, 'application/json');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.length).toBeLessThan(400);
    expect(message).not.toContain('\u001b');
  });
});

describe('describeErrorBody', () => {
  it('reads the interface Error object', () => {
    expect(describeErrorBody('{"error":17,"message":"database unavailable"}', 'application/json')).toEqual({
      error: 17,
      message: 'database unavailable',
    });
  });

  it('reads an RFC 9457 problem document', () => {
    const body = '{"type":"about:blank","title":"Not Found","status":404,"detail":"no plant 9"}';
    expect(describeErrorBody(body, 'application/problem+json')).toEqual({
      error: null,
      message: 'Not Found: no plant 9',
    });
  });

  it('reads {"error": "text"} bodies', () => {
    expect(describeErrorBody('{"error":"forbidden"}', 'application/json')).toEqual({
      error: null,
      message: 'forbidden',
    });
  });

  it('summarises HTML pages by their title', () => {
    const html = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>';
    expect(describeErrorBody(html, 'text/html')).toEqual({ error: null, message: '502 Bad Gateway' });
  });

  it('strips tags from HTML without a title', () => {
    expect(describeErrorBody('<html><body><h1>Oops</h1> broken</body></html>', 'text/html').message).toBe(
      'Oops broken',
    );
  });

  it('shows plain text as a printable excerpt', () => {
    expect(describeErrorBody('upstream\tconnect error\u0007', 'text/plain').message).toBe(
      'upstream connect error\\u0007',
    );
  });

  it('says when the body is empty', () => {
    expect(describeErrorBody('', undefined).message).toBe('(empty body)');
  });

  it('ignores a non-integer error field', () => {
    expect(describeErrorBody('{"error":"x1","message":"m"}', 'application/json')).toEqual({
      error: null,
      message: 'm',
    });
    expect(describeErrorBody('{"error":1.5,"message":"m"}', 'application/json')).toEqual({
      error: null,
      message: 'm',
    });
  });
});

describe('describeErrorBody: what a user reads of an error page', () => {
  const TOKEN = 'responses-token-8';

  it('knows HTML by its content type, whatever its case and parameters', () => {
    const page = '<div><title>Down for maintenance</title></div>';
    expect(describeErrorBody(page, 'Text/HTML; charset=utf-8').message).toBe('Down for maintenance');
    expect(describeErrorBody(page, ' text/html ; charset=utf-8').message).toBe('Down for maintenance');
  });

  it('knows HTML by its start when the content type says nothing, blanks and case aside', () => {
    expect(describeErrorBody('  \n<!doctype html><title>Gateway</title>', undefined).message).toBe('Gateway');
    expect(describeErrorBody('<HTML><title>Gateway</title></HTML>', 'text/plain').message).toBe('Gateway');
  });

  it('shows other markup as it is', () => {
    expect(describeErrorBody('<error><title>x</title></error>', 'application/xml').message).toBe(
      '<error><title>x</title></error>',
    );
    expect(describeErrorBody('text then <html><title>x</title>', 'text/plain').message).toBe(
      'text then <html><title>x</title>',
    );
  });

  it('reads a title with attributes; a blank title falls back to the text without tags', () => {
    expect(describeErrorBody('<html><title lang="en">Busy</title><p>Try later</p></html>', 'text/html').message).toBe(
      'Busy',
    );
    expect(describeErrorBody('<p>Try</p><p>later</p>', 'text/html').message).toBe('Try later');
    expect(describeErrorBody('<html><title> </title><p>Try later</p></html>', 'text/html').message).toBe('Try later');
  });

  it('masks the token in an HTML page', () => {
    registerSecret(TOKEN);
    expect(describeErrorBody(`<html><title>bad ${TOKEN}</title></html>`, 'text/html').message).toBe('bad ***');
    expect(describeErrorBody(`<html><p>bad ${TOKEN}</p></html>`, 'text/html').message).toBe('bad ***');
  });

  it('a blank message gives way to the problem title and detail, then to an error text', () => {
    expect(describeErrorBody('{"message":" ","title":"Conflict"}', 'application/json')).toEqual({
      error: null,
      message: 'Conflict',
    });
    expect(describeErrorBody('{"error":409,"detail":"in use"}', 'application/json')).toEqual({
      error: 409,
      message: 'in use',
    });
    expect(describeErrorBody('{"message":"","error":"denied"}', 'application/json')).toEqual({
      error: null,
      message: 'denied',
    });
  });

  it('takes only text for the problem title and detail', () => {
    expect(describeErrorBody('{"title":"Conflict","detail":5}', 'application/problem+json')).toEqual({
      error: null,
      message: 'Conflict',
    });
    expect(describeErrorBody('{"title":{"x":1},"detail":"in use"}', 'application/problem+json')).toEqual({
      error: null,
      message: 'in use',
    });
  });

  it('JSON that is no error object is shown as text', () => {
    for (const body of ['["a","b"]', 'null', '42', '{"error":" "}', '{"other":1}']) {
      expect(describeErrorBody(body, 'application/json')).toEqual({ error: null, message: body });
    }
  });

  it('a body of blanks is empty', () => {
    expect(describeErrorBody(' \n ', 'text/plain').message).toBe('(empty body)');
  });

  it('cuts a message at 500 characters and plain text at 200', () => {
    const long = 'm'.repeat(600);
    expect(describeErrorBody(JSON.stringify({ message: long }), 'application/json').message).toBe(
      `${'m'.repeat(500)}…`,
    );
    expect(describeErrorBody(long, 'text/plain').message).toBe(`${'m'.repeat(200)}…`);
  });
});

describe('parsePlantList: what it says of a body that is no plant list', () => {
  it('names the content type, or its absence', () => {
    expect(() => parsePlantList('oops', undefined)).toThrow(
      'expected a JSON array of plants, but received no content type that is not JSON: oops',
    );
    expect(() => parsePlantList('oops', 'Text/Plain; charset=utf-8')).toThrow(
      'expected a JSON array of plants, but received text/plain that is not JSON: oops',
    );
  });

  it('says an item is a number, however large', () => {
    expect(() => parsePlantList('[123456789012345678901234567890]', 'application/json')).toThrow(
      'item 1 of the plant list is a number, expected a plant object: 123456789012345678901234567890',
    );
  });
});
