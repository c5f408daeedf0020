import { describe, expect, it } from 'vitest';
import { checkConfigData } from '../../src/config/config-checks.js';
import { ConfigError } from '../../src/shared/errors.js';

describe('checkConfigData: a file plants would misread is refused', () => {
  const check = (data: Record<string, unknown>) => () => checkConfigData(data, '/c.json');
  const invalid = (what: string) => `config file /c.json is invalid: ${what}; fix it, or remove it and configure again`;

  it('takes a file plants reads as it is, and keys it does not read that are no near miss', () => {
    expect(
      check({ $schema: 'x', note: 'mine', profile: 'staging', profiles: { staging: { 'base-url': 'u' } } }),
    ).not.toThrow();
    expect(check({})).not.toThrow();
  });

  it.each([
    [{ Profile: 'x' }, 'it has "Profile", which plants does not read; did you mean "profile"?'],
    [{ profles: {} }, 'it has "profles", which plants does not read; did you mean "profiles"?'],
    [{ 'base_url ': 'u' }, 'it has "base_url ", which plants does not read; did you mean "base-url"?'],
    [{ tokn: 't' }, 'it has "tokn", which plants does not read; did you mean "token"?'],
  ])('a near miss of a top-level key (%j)', (data, what) => {
    expect(check(data)).toThrow(invalid(what));
  });

  it('a key three edits away from any is left alone', () => {
    expect(check({ pro: 1 })).not.toThrow();
  });

  it.each([
    [{ profile: 1 }, '"profile" must be a string'],
    [{ profiles: [] }, '"profiles" must be an object'],
    [
      { profile: 'a b' },
      '"profile" names "a b", not a profile name plants can select (letters, digits, dot, dash or underscore, at most 64 characters)',
    ],
    [
      { profiles: { 'a b': {} } },
      'the profile name "a b" is not one plants can select (letters, digits, dot, dash or underscore, at most 64 characters)',
    ],
    [{ profiles: { a: 1 } }, 'profile "a" must be an object'],
    [{ profiles: { a: { token: 1 } } }, '"token" of profile "a" must be a string'],
    [{ profiles: { a: { 'max-deletes': '' } } }, '"max-deletes" of profile "a" is empty'],
    [{ profiles: { a: { protected: [] } } }, '"protected" of profile "a" must be an object'],
    [
      { profiles: { a: { protected: { ids: [1] } } } },
      '"protected.ids" of profile "a" must be a list of non-empty strings (an id as "42", not 42)',
    ],
    [{ 'base-url': 1 }, '"base-url" must be a string'],
    [{ token: 1 }, '"token" must be a string'],
  ])('%j', (data, what) => {
    expect(check(data)).toThrow(invalid(what));
    expect(check(data)).toThrow(ConfigError);
  });
});
