import { afterEach, describe, expect, it } from 'vitest';
import { registerHeaderSecrets } from '../../src/secrets/header-secrets.js';
import { forgetSecrets, maskSecrets } from '../../src/secrets/registry.js';

afterEach(forgetSecrets);

describe('registerHeaderSecrets', () => {
  it.each([
    ['X-Api-Key', 'key-0123456789abcdef', 'key-0123456789abcdef'],
    ['x-session-id', 'session-0123456789', 'session-0123456789'],
    ['X-Auth-Token', '  padded-secret-value  ', 'padded-secret-value'],
    ['Authorization', 'Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA=='],
    ['proxy-authorization', 'Bearer proxy-credential-42', 'proxy-credential-42'],
    ['Authorization', 'schemeless-credential-42', 'schemeless-credential-42'],
  ])('a %s header: its secret is masked wherever it shows', (name, value, secret) => {
    registerHeaderSecrets({ [name]: value });
    expect(maskSecrets(`echo: ${secret}!`)).toBe('echo: ***!');
  });

  it("a Cookie header: each cookie's value, not its name", () => {
    registerHeaderSecrets({ Cookie: 'sid=cookie-value-0001; theme=dark-and-gloomy' });
    expect(maskSecrets('sid cookie-value-0001 theme dark-and-gloomy')).toBe('sid *** theme ***');
  });

  it('a header whose name says nothing of a secret is left as it is', () => {
    registerHeaderSecrets({ Accept: 'application/json-seq', 'X-Request-Id': 'request-id-0123456789' });
    expect(maskSecrets('application/json-seq request-id-0123456789')).toBe(
      'application/json-seq request-id-0123456789',
    );
  });
});
