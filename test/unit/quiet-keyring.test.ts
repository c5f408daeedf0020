import { describe, expect, it } from 'vitest';
import { DBusError, type Bus, type MethodCall } from '../../src/config/dbus.js';
import type { DBusValue } from '../../src/config/dbus-wire.js';
import { KeyringFailure, KeyringUnavailable } from '../../src/config/keyring.js';
import { openQuietKeyring, readUnlocked } from '../../src/config/quiet-keyring.js';

const ACCOUNT = 'default https://plants.example.com';
const TOKEN_BYTES = [...Buffer.from('quiet-keyring-test-token')];

/** A Secret Service that answers SearchItems with `found`, and GetSecret as `secret` says; it records the calls. */
function service(
  found: [string[], string[]],
  secret: () => DBusValue[] = () => [['/s', [], TOKEN_BYTES, 'text/plain']],
) {
  const calls: MethodCall[] = [];
  const bus: Bus = {
    // eslint-disable-next-line @typescript-eslint/require-await -- a bus's calls answer later
    call: async (call) => {
      calls.push(call);
      if (call.member === 'SearchItems') return found;
      if (call.member === 'OpenSession') return [{ signature: 's', value: '' }, '/s'];
      if (call.member === 'GetSecret') return secret();
      throw new DBusError('org.freedesktop.DBus.Error.UnknownMethod', call.member);
    },
  };
  return { bus, calls };
}

describe("completion's read of the Secret Service", () => {
  it('searches by the attributes the binding gives the item, and reads the one unlocked item over a plain session', async () => {
    const { bus, calls } = service([['/org/freedesktop/secrets/collection/login/1'], []]);
    expect(await readUnlocked(bus, ACCOUNT)).toBe('quiet-keyring-test-token');
    expect(calls.map((call) => [call.member, call.path, call.signature, call.body])).toEqual([
      [
        'SearchItems',
        '/org/freedesktop/secrets',
        'a{ss}',
        [
          [
            ['service', 'plants'],
            ['username', ACCOUNT],
          ],
        ],
      ],
      ['OpenSession', '/org/freedesktop/secrets', 'sv', ['plain', { signature: 's', value: '' }]],
      ['GetSecret', '/org/freedesktop/secrets/collection/login/1', 'o', ['/s']],
    ]);
  });

  it('never asks to unlock a locked item: it is a failure, and nothing else is called', async () => {
    const { bus, calls } = service([[], ['/org/freedesktop/secrets/collection/login/1']]);
    await expect(readUnlocked(bus, ACCOUNT)).rejects.toThrow(new KeyringFailure('it is locked'));
    expect(calls.map((call) => call.member)).toEqual(['SearchItems']);
  });

  it('gives no token when an item locked since the search answers IsLocked', async () => {
    const { bus } = service([['/i'], []], () => {
      throw new DBusError('org.freedesktop.Secret.Error.IsLocked', 'Cannot get secret of a locked object');
    });
    await expect(readUnlocked(bus, ACCOUNT)).rejects.toThrow(new KeyringFailure('it is locked'));
  });

  it('finds nothing as null, and refuses two matches as the binding does', async () => {
    expect(await readUnlocked(service([[], []]).bus, ACCOUNT)).toBeNull();
    await expect(readUnlocked(service([['/a', '/b'], []]).bus, ACCOUNT)).rejects.toThrow(KeyringFailure);
  });

  it('refuses a secret that is not UTF-8', async () => {
    const { bus } = service([['/i'], []], () => [['/s', [], [0xff, 0xfe], 'text/plain']]);
    await expect(readUnlocked(bus, ACCOUNT)).rejects.toThrow();
  });

  it('is turned off by PLANTS_KEYRING=off, and only reads', async () => {
    await expect(openQuietKeyring({ PLANTS_KEYRING: 'off' })).rejects.toThrow(KeyringUnavailable);
    if (process.platform !== 'linux') return;
    const keyring = await openQuietKeyring({});
    await expect(keyring.set(ACCOUNT, 'x')).rejects.toThrow(/only reads/);
    await expect(keyring.delete(ACCOUNT)).rejects.toThrow(/only reads/);
  });

  it.skipIf(process.platform !== 'linux')('has no keyring without a session bus to reach', async () => {
    const keyring = await openQuietKeyring({});
    await expect(keyring.get(ACCOUNT)).rejects.toThrow(KeyringUnavailable);
    const nowhere = await openQuietKeyring({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' });
    await expect(nowhere.get(ACCOUNT)).rejects.toThrow(/no D-Bus session bus at \/nonexistent\/bus/);
  });
});
