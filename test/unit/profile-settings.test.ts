import { describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES, readError, serialize } from '../../src/config/config-file.js';
import { DEFAULT_PROFILE, parseProfileName, profileFlag } from '../../src/config/profile-names.js';
import {
  copyRules,
  isObject,
  storedTokenOf,
  stringSetting,
  tokenOriginOf,
  unbound,
} from '../../src/config/profile-settings.js';
import { ConfigError, UsageError } from '../../src/shared/errors.js';

describe('a profile’s settings', () => {
  it('a string setting is undefined when empty or missing', () => {
    expect(stringSetting({ 'base-url': 'https://a.test' }, 'base-url')).toBe('https://a.test');
    expect(stringSetting({ 'base-url': '' }, 'base-url')).toBeUndefined();
    expect(stringSetting({}, 'base-url')).toBeUndefined();
    expect(stringSetting(undefined, 'base-url')).toBeUndefined();
  });

  it('where the token is kept: a command wins over the keyring, the keyring over the file', () => {
    const all = { token: 't', 'token-keyring': 'https://k.test', 'token-command': 'op read x', 'token-origin': 'none' };
    expect(storedTokenOf(all)).toEqual({ store: 'command', command: 'op read x', origin: undefined });
    const { 'token-command': _command, ...noCommand } = all;
    expect(storedTokenOf(noCommand)).toEqual({ store: 'keyring', origin: 'https://k.test' });
    expect(storedTokenOf({ token: 't', 'token-origin': 'https://F.test:443/' })).toEqual({
      store: 'file',
      token: 't',
      origin: 'https://f.test',
    });
    expect(storedTokenOf({ token: '' })).toBeUndefined();
    expect(storedTokenOf(undefined)).toBeUndefined();
  });

  it('a token is bound to its recorded origin; `none` to none; unrecorded, to the base URL’s origin', () => {
    expect(tokenOriginOf({ 'token-origin': 'https://a.test/x' })).toBe('https://a.test');
    expect(tokenOriginOf({ 'token-origin': 'none', 'base-url': 'https://b.test/api' })).toBeUndefined();
    expect(tokenOriginOf({ 'base-url': 'https://b.test/api' })).toBe('https://b.test');
    expect(tokenOriginOf({})).toBeUndefined();
  });

  it('a token in the file or a command with no recorded origin is unbound; one in the keyring never is', () => {
    expect(unbound({ token: 't' })).toBe(true);
    expect(unbound({ 'token-command': 'c' })).toBe(true);
    expect(unbound({ token: 't', 'token-origin': 'none' })).toBe(false);
    expect(unbound({ 'token-keyring': 'https://k.test' })).toBe(false);
    expect(unbound({})).toBe(false);
  });

  it('copies the protection rules, leaving out what is not a non-empty string', () => {
    const stored = { ids: ['1', '', 2 as unknown as string], tags: ['keep'] };
    const rules = copyRules(stored);
    expect(rules).toEqual({ ids: ['1'], tags: ['keep'], names: [] });
    rules.tags.push('more');
    expect(stored.tags).toEqual(['keep']);
    expect(copyRules(undefined)).toEqual({ ids: [], tags: [], names: [] });
  });

  it('isObject: a plain object only', () => {
    expect([{}, [], null, 'x', 1].map(isObject)).toEqual([true, false, false, false, false]);
  });
});

describe('profile names', () => {
  it('takes letters, digits, dot, dash and underscore, 1 to 64 of them', () => {
    expect(parseProfileName('a.B-9_')).toBe('a.B-9_');
    expect(parseProfileName('x'.repeat(64))).toBe('x'.repeat(64));
    expect(() => parseProfileName('x'.repeat(65))).toThrow(UsageError);
    expect(() => parseProfileName('')).toThrow(UsageError);
    expect(() => parseProfileName('a b', 'PLANTS_PROFILE')).toThrow(
      'invalid profile name "a b" (PLANTS_PROFILE): use letters, digits, dot, dash or underscore, at most 64 characters',
    );
    expect(DEFAULT_PROFILE).toBe('default');
  });
});

describe('profileFlag', () => {
  it('is the --profile a suggested command needs: none for the default profile', () => {
    expect(profileFlag('default')).toBe('');
    expect(profileFlag('staging')).toBe('--profile staging ');
  });
});

describe('the config file', () => {
  it('is written as conf writes it, tab-indented', () => {
    expect(serialize({ profiles: { default: {} } })).toBe('{\n\t"profiles": {\n\t\t"default": {}\n\t}\n}');
    expect(MAX_CONFIG_BYTES).toBe(1024 * 1024);
  });

  it('a read error names the file and how to go on; invalid JSON is said so', () => {
    expect(readError('/c.json', new SyntaxError('x')).message).toBe(
      'cannot read the config file /c.json: it is not valid JSON; fix it, or remove it and configure again',
    );
    expect(readError('/c.json', new Error('it is a directory'))).toBeInstanceOf(ConfigError);
  });
});
