import { afterEach, describe, expect, it } from 'vitest';
import { registerKnownTokens } from '../../src/secrets/known-tokens.js';
import { forgetSecrets, maskedUrl, maskSecrets, registerSecret } from '../../src/secrets/registry.js';

afterEach(forgetSecrets);

describe('the registry of secrets', () => {
  it('masks every registered token, each in its forms, and nothing else', () => {
    registerSecret('first-token-1234');
    registerSecret('second-token-5678');
    expect(maskSecrets('a first-token-1234 b c2Vjb25kLXRva2VuLTU2Nzg= c')).toBe('a *** b ***= c');
    expect(maskSecrets('nothing here')).toBe('nothing here');
  });

  it('takes no empty or missing secret, and forgets them all', () => {
    registerSecret('');
    registerSecret(undefined);
    expect(maskSecrets('Bearer  x')).toBe('Bearer  x');
    registerSecret('abcdefgh');
    expect(maskSecrets('abcdefgh')).toBe('***');
    forgetSecrets();
    expect(maskSecrets('abcdefgh')).toBe('abcdefgh');
  });

  it('masks a short token only after Bearer, as redactToken does', () => {
    registerSecret('short');
    expect(maskSecrets('short Bearer short')).toBe('short Bearer ***');
  });

  it('shows a URL with its secrets masked first, then its userinfo and query values', () => {
    registerSecret('c2VjcmV0dG9rZW4xMjM0NQ==');
    expect(maskedUrl('https://u:p@host/x/c2VjcmV0dG9rZW4xMjM0NQ==?limit=5&q=1#f')).toBe(
      'https://***@host/x/***?limit=5&q=***#***',
    );
    expect(maskedUrl('/x?c2VjcmV0dG9rZW4xMjM0NQ==')).toBe('/x?***');
  });
});

describe('registerKnownTokens', () => {
  const store = (tokens: Record<string, string | undefined>) => ({
    profileNames: () => Object.keys(tokens),
    get: (profile: string, key: 'token') => (key === 'token' ? tokens[profile] : undefined),
  });

  it('registers PLANTS_TOKEN as set and trimmed, and every stored token', () => {
    registerKnownTokens('  variable-token-1 ', store({ a: 'stored-token-aaaa', b: undefined, c: 'stored-token-cccc' }));
    // The trimmed token is found inside the untrimmed one: the blanks around it stay.
    expect(maskSecrets('[  variable-token-1 ]')).toBe('[  *** ]');
    expect(maskSecrets('variable-token-1 stored-token-aaaa stored-token-cccc')).toBe('*** *** ***');
    // The base64 of the variable as set, blanks and all: masked whole, not only the trimmed token inside it.
    expect(maskSecrets(Buffer.from('  variable-token-1 ').toString('base64'))).toBe('***==');
    // And the token as sent (trimmed), encoded on its own.
    expect(maskSecrets(`<${Buffer.from('variable-token-1').toString('base64')}>`)).toBe('<***==>');
  });

  it('registers nothing for a blank variable and no store', () => {
    registerKnownTokens('   ', undefined);
    expect(maskSecrets('Bearer    x')).toBe('Bearer    x');
    // A blank token would have had forms of its own: the base64 of `Bearer` and blanks.
    expect(maskSecrets('QmVhcmVyICAgIA==')).toBe('QmVhcmVyICAgIA==');
    registerKnownTokens(undefined, store({}));
    expect(maskSecrets('Bearer    x')).toBe('Bearer    x');
  });
});
