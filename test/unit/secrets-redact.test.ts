import { describe, expect, it } from 'vitest';
import { redactToken } from '../../src/secrets/redact.js';

const TOKEN = 'abcdefgh';

describe('redactToken, exactly', () => {
  it('leaves text alone for an empty token, or text shorter than any form', () => {
    expect(redactToken('Bearer ', '')).toBe('Bearer ');
    expect(redactToken('abcdefg', TOKEN)).toBe('abcdefg');
    expect(redactToken('', TOKEN)).toBe('');
    // An empty token has no forms: not even the base64 of `Bearer ` is one.
    expect(redactToken('QmVhcmVyIA== QmVhcmVy', '')).toBe('QmVhcmVyIA== QmVhcmVy');
  });

  it('masks a token of 8 characters anywhere, one of 7 only after Bearer', () => {
    expect(redactToken('abcdefgh', 'abcdefgh')).toBe('***');
    expect(redactToken('abcdefg', 'abcdefg')).toBe('abcdefg');
    expect(redactToken('Bearer abcdefg.', 'abcdefg')).toBe('Bearer ***.');
  });

  it('merges spans that touch or overlap into one mask, and keeps what lies between others', () => {
    expect(redactToken('abcdefghabcdefgh', TOKEN)).toBe('***');
    expect(redactToken('aaaaaaaaa', 'aaaaaaaa')).toBe('***');
    expect(redactToken('aaaaaaaaa.aaaaaaaa', 'aaaaaaaa')).toBe('***.***');
    expect(redactToken('<abcdefgh> <abcdefgh>', TOKEN)).toBe('<***> <***>');
    // Found in another order than the text's (the token, then its base64): masked in the text's.
    expect(redactToken('YWJjZGVmZ2g= abcdefgh', TOKEN)).toBe('***= ***');
  });

  it('masks each encoded form from where its first character starts to where its last one ends', () => {
    expect(redactToken('x=%61bcdefgh;', TOKEN)).toBe('x=***;');
    expect(redactToken('x=abcdefg%68;', TOKEN)).toBe('x=***;');
    expect(redactToken('x=\\u0061bcdefgh;', TOKEN)).toBe('x=***;');
    expect(redactToken('x=&#97;bcdefgh;', TOKEN)).toBe('x=***;');
    expect(redactToken('x=&#x61;bcdefgh;', TOKEN)).toBe('x=***;');
    expect(redactToken('x=a&NewLine;bcdefgh;', TOKEN)).toBe('x=***;');
    expect(redactToken('x=a\\nbcdefgh;', TOKEN)).toBe('x=***;');
    expect(redactToken('x=a bcdefgh;', TOKEN)).toBe('x=***;');
  });

  it('leaves encodings alone where no token is in them', () => {
    expect(redactToken('50% of &amp; a\\nb %41', TOKEN)).toBe('50% of &amp; a\\nb %41');
    expect(redactToken('Salt & Pepper, abcdefg-h', TOKEN)).toBe('Salt & Pepper, abcdefg-h');
  });

  it('masks the hexadecimal and base64 forms', () => {
    expect(redactToken('hex 6162636465666768.', TOKEN)).toBe('hex ***.');
    expect(redactToken('b64 YWJjZGVmZ2g=.', TOKEN)).toBe('b64 ***=.');
    expect(redactToken('auth QmVhcmVyIGFiY2RlZmdo.', TOKEN)).toBe('auth ***.');
  });

  it('masks each of many tokens, however many have been masked before', () => {
    const tokens = Array.from({ length: 20 }, (_, i) => `token-number-${String(i).padStart(2, '0')}`);
    for (const token of tokens) expect(redactToken(`<${token}>`, token)).toBe('<***>');
    for (const token of tokens) expect(redactToken(`<${token}>`, token)).toBe('<***>');
  });
});
