import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DBusError,
  messageLength,
  methodCall,
  openBus,
  parseMessage,
  sessionBusSocket,
} from '../../src/config/dbus.js';
import { Reader, Writer, type DBusValue } from '../../src/config/dbus-wire.js';
import { tempDir } from '../helpers/cli.js';

/** A reply message as a bus sends it: type 2 (a return) or 3 (an error), to `serial`. */
function reply(serial: number, signature: string, body: DBusValue[], errorName?: string): Buffer {
  const bytes = new Writer().write(signature, body).bytes();
  const fields: DBusValue[] = [
    [5, { signature: 'u', value: serial }],
    [8, { signature: 'g', value: signature }],
    ...(errorName ? [[4, { signature: 's', value: errorName }] as DBusValue] : []),
  ];
  const header = new Writer().write('yyyyuua(yv)', [0x6c, errorName ? 3 : 2, 0, 1, bytes.length, 100 + serial, fields]);
  header.align(8);
  return Buffer.concat([header.bytes(), bytes]);
}

/** A signal, which the client must pass over. */
const signal = () => {
  const header = new Writer().write('yyyyuua(yv)', [
    0x6c,
    4,
    0,
    1,
    0,
    99,
    [[3, { signature: 's', value: 'NameAcquired' }]],
  ]);
  header.align(8);
  return header.bytes();
};

const CALL = { destination: 'org.example', path: '/org/example', interface: 'org.example.Thing', member: 'Do' };

describe('D-Bus messages', () => {
  it('frames a method call that reads back with its header fields and body', () => {
    const bytes = methodCall(7, { ...CALL, signature: 'a{ss}', body: [[['service', 'plants']]] });
    expect(messageLength(bytes)).toBe(bytes.length);
    expect(messageLength(bytes.subarray(0, 15))).toBeUndefined();
    const reader = new Reader(bytes, true);
    const [endian, type, , version, length, serial, fields] = reader.read('yyyyuua(yv)');
    expect([endian, type, version, length, serial]).toEqual([0x6c, 1, 1, 31, 7]);
    expect(fields).toEqual([
      [1, { signature: 'o', value: '/org/example' }],
      [2, { signature: 's', value: 'org.example.Thing' }],
      [3, { signature: 's', value: 'Do' }],
      [6, { signature: 's', value: 'org.example' }],
      [8, { signature: 'g', value: 'a{ss}' }],
    ]);
    reader.align(8);
    expect(reader.read('a{ss}')).toEqual([[['service', 'plants']]]);
  });

  it('reads a reply and an error reply; a signal, not its body', () => {
    expect(parseMessage(reply(3, '(aoao)', [[['/a'], []]]))).toEqual({
      type: 2,
      replySerial: 3,
      errorName: undefined,
      body: [[['/a'], []]],
    });
    expect(parseMessage(reply(4, 's', ['no'], 'org.example.Error.No'))).toMatchObject({
      type: 3,
      errorName: 'org.example.Error.No',
      body: ['no'],
    });
    expect(parseMessage(signal())).toMatchObject({ type: 4, body: [] });
    expect(() => messageLength(Buffer.alloc(16, 0x41))).toThrow(/something other than a message/);
  });
});

describe('the session bus address', () => {
  it.each([
    ['unix:path=/run/user/1000/bus', '/run/user/1000/bus'],
    ['unix:path=/tmp/a%2cb,guid=0123', '/tmp/a,b'],
    ['unix:abstract=/tmp/dbus-XYZ,guid=0123', '\0/tmp/dbus-XYZ'],
    ['tcp:host=localhost,port=1;unix:path=/tmp/bus', '/tmp/bus'],
    ['tcp:host=localhost,port=1', undefined],
    ['unix:path=/tmp/%zz', undefined],
  ])('%j → %j', (address, socket) => {
    expect(sessionBusSocket({ DBUS_SESSION_BUS_ADDRESS: address })).toBe(socket);
  });

  it('is $XDG_RUNTIME_DIR/bus when the variable is not set, and none without either', () => {
    expect(sessionBusSocket({ XDG_RUNTIME_DIR: '/run/user/7' })).toBe('/run/user/7/bus');
    expect(sessionBusSocket({ DBUS_SESSION_BUS_ADDRESS: ' ' })).toBeUndefined();
  });
});

describe.skipIf(process.platform === 'win32')('a connection to a bus', () => {
  let dir: ReturnType<typeof tempDir>;
  let server: Server;
  let path: string;
  /** What the client sent, as text (the authentication) and as bytes. */
  let received: Buffer;
  let answer: (socket: Socket, bytes: Buffer) => void;
  beforeEach(async () => {
    dir = tempDir('plants-dbus-');
    path = join(dir.path, 'bus');
    received = Buffer.alloc(0);
    server = createServer((socket) => {
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        answer(socket, chunk);
      });
    });
    await new Promise<void>((resolve) => server.listen(path, resolve));
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    dir.remove();
  });

  /** A bus that accepts the client, answers Hello, then passes each later call to `onCall` (its serial). */
  const acceptingBus = (onCall: (socket: Socket, serial: number) => void) => {
    let serial = 0;
    answer = (socket, chunk) => {
      const text = chunk.toString('latin1');
      if (text.startsWith('\0AUTH EXTERNAL ')) return socket.write('OK 0123456789abcdef\r\n');
      let bytes = text.startsWith('BEGIN\r\n') ? chunk.subarray(7) : chunk;
      while (bytes.length > 0) {
        const length = messageLength(bytes)!;
        serial += 1;
        if (serial === 1) socket.write(Buffer.concat([reply(1, 's', [':1.5']), signal()]));
        else onCall(socket, serial);
        bytes = bytes.subarray(length);
      }
    };
  };

  it('authenticates as this user, says Hello, and passes signals over to the reply', async () => {
    acceptingBus((socket, serial) => socket.write(Buffer.concat([signal(), reply(serial, 'u', [42])])));
    const stop = new AbortController();
    const bus = await openBus(path, stop.signal);
    expect(await bus.call(CALL)).toEqual([42]);
    stop.abort();
    const uid = Buffer.from(String(process.getuid?.() ?? 0)).toString('hex');
    expect(received.toString('latin1')).toMatch(new RegExp(`^\0AUTH EXTERNAL ${uid}\r\nBEGIN\r\n`));
  });

  it('rejects a call the service answers with an error, by its name', async () => {
    acceptingBus((socket, serial) =>
      socket.write(reply(serial, 's', ['it is locked'], 'org.freedesktop.Secret.Error.IsLocked')),
    );
    const stop = new AbortController();
    const bus = await openBus(path, stop.signal);
    const err = await bus.call(CALL).catch((caught: unknown) => caught);
    stop.abort();
    expect(err).toBeInstanceOf(DBusError);
    expect(err).toMatchObject({ errorName: 'org.freedesktop.Secret.Error.IsLocked' });
  });

  it('fails to open when the bus refuses the user', async () => {
    answer = (socket) => socket.write('REJECTED EXTERNAL\r\n');
    await expect(openBus(path, new AbortController().signal)).rejects.toThrow(/refused plants \(REJECTED\)/);
  });

  it('stops waiting when aborted: a bus that never answers leaves nothing open', async () => {
    answer = () => {};
    const stop = new AbortController();
    const opening = openBus(path, stop.signal);
    stop.abort();
    await expect(opening).rejects.toThrow();
  });

  it('fails every call waiting when the bus goes away', async () => {
    acceptingBus((socket) => socket.destroy());
    const bus = await openBus(path, new AbortController().signal);
    await expect(bus.call(CALL)).rejects.toThrow(/closed the connection/);
    await expect(bus.call(CALL)).rejects.toThrow(/closed the connection/);
  });
});
