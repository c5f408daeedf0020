import { describe, expect, it } from 'vitest';
import { Reader, splitSignature, Writer, type DBusValue } from '../../src/config/dbus-wire.js';

/** Bytes from hex, spaces ignored. */
const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('the D-Bus wire format', () => {
  it('splits a signature into its complete types', () => {
    expect(splitSignature('a{ss}o(aoao)vas')).toEqual(['a{ss}', 'o', '(aoao)', 'v', 'as']);
    expect(() => splitSignature('(so')).toThrow(/unbalanced/);
    expect(() => splitSignature('a')).toThrow(/incomplete/);
    expect(() => splitSignature('z')).toThrow(/unknown D-Bus type z/);
  });

  it('marshals a{ss} as the specification lays it out: length, padding to 8, aligned entries', () => {
    const bytes = new Writer().write('a{ss}', [[['service', 'plants']]]).bytes();
    expect(bytes).toEqual(
      hex(`
        17000000 00000000
        07000000 73657276696365 00
        06000000 706c616e7473 00`),
    );
  });

  it('pads an empty array of 8-aligned elements too, and leaves the padding out of its length', () => {
    expect(new Writer().write('a(ss)', [[]]).bytes()).toEqual(hex('00000000 00000000'));
  });

  it('marshals a signature and a variant', () => {
    expect(new Writer().write('gv', ['as', { signature: 's', value: '' }]).bytes()).toEqual(
      hex('02 6173 00 01 73 00 00 00000000 00'),
    );
  });

  it.each<[string, DBusValue[]]>([
    ['(aoao)', [[['/org/freedesktop/secrets/collection/login/1'], ['/a', '/b']]]],
    ['sv', ['plain', { signature: 's', value: '' }]],
    ['(oayays)', [['/org/freedesktop/secrets/session/1', [], [116, 111, 107], 'text/plain']]],
    ['yqiunb', [255, 65535, -2, 4294967295, -3, true]],
    ['xtd', [-(2n ** 63n), 2n ** 64n - 1n, 0.5]],
    [
      'a{sv}',
      [
        [
          ['Locked', { signature: 'b', value: false }],
          ['Label', { signature: 's', value: 'Login ✓' }],
        ],
      ],
    ],
    [
      'ya(yv)',
      [
        1,
        [
          [1, { signature: 'o', value: '/x' }],
          [5, { signature: 'u', value: 9 }],
        ],
      ],
    ],
  ])('reads back what it writes: %s', (signature, values) => {
    const bytes = new Writer().write(signature, values).bytes();
    expect(new Reader(bytes, true).read(signature)).toEqual(values);
  });

  it('reads big-endian messages', () => {
    expect(new Reader(hex('00000003 00000002 6869 00'), false).read('us')).toEqual([3, 'hi']);
  });

  it('refuses what ends early, and a wrong number of values', () => {
    expect(() => new Reader(hex('05000000 6869'), true).read('s')).toThrow(/ended early/);
    expect(() => new Reader(hex('10000000 00'), true).read('ay')).toThrow(/ended early/);
    expect(() => new Writer().write('ss', ['one'])).toThrow(/1 values for D-Bus signature ss/);
  });
});
