import { describe, expect, it } from 'vitest';
import { csvLine } from '../../src/output/formats.js';

describe('csvLine (RFC 4180)', () => {
  it('joins fields with commas and ends the record with CRLF', () => {
    expect(csvLine([3, 'Monstera', 'Araceae'], false)).toBe('3,Monstera,Araceae\r\n');
  });

  it('quotes a field holding a comma, a quote or a line break, doubling quotes', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', 'cr\rhere', 'plain'], false)).toBe(
      '"a,b","say ""hi""","two\nlines","cr\rhere",plain\r\n',
    );
  });

  it('keeps an empty field empty, and one without specials unquoted', () => {
    expect(csvLine(['', "it's", 'semi;colon'], false)).toBe(",it's,semi;colon\r\n");
  });

  it('on a terminal, escapes control characters instead of writing them', () => {
    expect(csvLine(['red\u001b[31m', 'two\nlines'], true)).toBe('red\\u001b[31m,two\\nlines\r\n');
  });

  it('in a pipe, keeps the data exact', () => {
    expect(csvLine(['red\u001b[31m'], false)).toBe('red\u001b[31m\r\n');
  });
});
