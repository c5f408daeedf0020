import { afterEach, describe, expect, it } from 'vitest';
import { registerHeaderSecrets } from '../../src/secrets/header-secrets.js';
import { forgetSecrets, maskSecrets } from '../../src/secrets/registry.js';

afterEach(forgetSecrets);

/** The base64 of `text`: masked only for the very secret registered (blanks and all), not one inside it. */
const base64 = (text: string) => Buffer.from(text).toString('base64');
/** The base64 of `text` masked: its padding stays. */
const base64Masked = (text: string) => `<***${/=*$/.exec(base64(text))![0]}>`;

describe('registerHeaderSecrets, exactly what is registered', () => {
  it("an Authorization's credentials after its scheme, joined by one space, blanks around them dropped", () => {
    registerHeaderSecrets({ Authorization: '  Custom   part-one\tpart-two  ' });
    expect(maskSecrets(`<${base64('part-one part-two')}>`)).toBe(base64Masked('part-one part-two'));
    expect(maskSecrets('part-one part-two')).toBe('***');
  });

  it('a Proxy-Authorization of one word: that word', () => {
    registerHeaderSecrets({ 'Proxy-Authorization': ' lone-credential-1 ' });
    expect(maskSecrets(`<${base64('lone-credential-1')}>`)).toBe(base64Masked('lone-credential-1'));
  });

  it("each cookie's value, trimmed; a cookie without `=` whole", () => {
    registerHeaderSecrets({ cookie: 'sid = first-value-0001 ;bare-cookie-value;x=' });
    expect(maskSecrets(`<${base64('first-value-0001')}>`)).toBe(base64Masked('first-value-0001'));
    expect(maskSecrets(`<${base64('bare-cookie-value')}>`)).toBe(base64Masked('bare-cookie-value'));
    // `x=` holds an empty value: no secret, and nothing else is masked.
    expect(maskSecrets('sid x= bare')).toBe('sid x= bare');
  });

  it("any other secret header's value, trimmed", () => {
    registerHeaderSecrets({ 'X-Client-Secret': '  client-secret-value  ' });
    expect(maskSecrets(`<${base64('client-secret-value')}>`)).toBe(base64Masked('client-secret-value'));
  });

  it.each(['X-Secret', 'x-cookie-jar', 'X-AUTH', 'X-Token', 'Api-Key', 'Session'])(
    'a %s header says its value is a secret',
    (name) => {
      registerHeaderSecrets({ [name]: 'header-value-0123' });
      expect(maskSecrets('a header-value-0123 b')).toBe('a *** b');
    },
  );
});
