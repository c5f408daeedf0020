import type { Socket } from 'node:net';
import type { Env } from '../shared/env.js';
import { Reader, Writer, type DBusValue, type Variant } from './dbus-wire.js';

/**
 * A connection to the D-Bus session bus that makes method calls and reads
 * their replies, for completion's read of the Secret Service
 * (src/config/quiet-keyring.ts). Unix sockets only, authenticated as the
 * process's user (SASL EXTERNAL), as libdbus does.
 */

export interface MethodCall {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: DBusValue[];
}

export interface Bus {
  /** The reply's values; a D-Bus error reply rejects with a DBusError. */
  call(call: MethodCall): Promise<DBusValue[]>;
}

/** An error reply: `name` as the service gives it (org.freedesktop.Secret.Error.IsLocked). */
export class DBusError extends Error {
  override name = 'DBusError';
  constructor(
    readonly errorName: string,
    message: string,
  ) {
    super(`${errorName}: ${message}`);
  }
}

const [METHOD_CALL, METHOD_RETURN, ERROR] = [1, 2, 3];
const FIELDS = { path: 1, interface: 2, member: 3, errorName: 4, replySerial: 5, destination: 6, signature: 8 };
/** No reply this client waits for comes near it: a bigger message is a broken stream. */
const MAX_MESSAGE_BYTES = 1 << 20;

/** A method call message, little-endian. */
export function methodCall(serial: number, call: MethodCall): Buffer {
  const body = call.signature ? new Writer().write(call.signature, call.body ?? []).bytes() : Buffer.alloc(0);
  const field = (code: number, signature: string, value: string): DBusValue => [code, { signature, value }];
  const fields = [
    field(FIELDS.path, 'o', call.path),
    field(FIELDS.interface, 's', call.interface),
    field(FIELDS.member, 's', call.member),
    field(FIELDS.destination, 's', call.destination),
    ...(call.signature ? [field(FIELDS.signature, 'g', call.signature)] : []),
  ];
  const header = new Writer().write('yyyyuua(yv)', [0x6c, METHOD_CALL, 0, 1, body.length, serial, fields]);
  // The body starts 8-aligned, so its own alignment is the message's.
  header.align(8);
  return Buffer.concat([header.bytes(), body]);
}

/** The length of the first message in `bytes`, or undefined while its fixed header is incomplete. */
export function messageLength(bytes: Buffer): number | undefined {
  if (bytes.length < 16) return undefined;
  const little = bytes[0] === 0x6c;
  if (!little && bytes[0] !== 0x42) throw new Error('the D-Bus session bus sent something other than a message');
  const [body, fields] = little
    ? [bytes.readUInt32LE(4), bytes.readUInt32LE(12)]
    : [bytes.readUInt32BE(4), bytes.readUInt32BE(12)];
  return Math.ceil((16 + fields) / 8) * 8 + body;
}

export interface Message {
  type: number;
  replySerial?: number;
  errorName?: string;
  body: DBusValue[];
}

/** A whole message; the body only of replies (signals are not read). */
export function parseMessage(bytes: Buffer): Message {
  const reader = new Reader(bytes, bytes[0] === 0x6c);
  const [, type, , , , , fields] = reader.read('yyyyuua(yv)') as [
    number,
    number,
    number,
    number,
    number,
    number,
    [number, Variant][],
  ];
  reader.align(8);
  const field = (code: number) => fields.find(([found]) => found === code)?.[1].value;
  const signature = (field(FIELDS.signature) as string | undefined) ?? '';
  const reply = type === METHOD_RETURN || type === ERROR;
  return {
    type,
    replySerial: field(FIELDS.replySerial) as number | undefined,
    errorName: field(FIELDS.errorName) as string | undefined,
    body: reply && signature ? reader.read(signature) : [],
  };
}

/**
 * The session bus's socket, as libdbus finds it: the first unix address in
 * DBUS_SESSION_BUS_ADDRESS (`unix:path=…` or, on Linux, `unix:abstract=…`),
 * else $XDG_RUNTIME_DIR/bus. Undefined when there is none to try.
 */
export function sessionBusSocket(env: Env): string | undefined {
  const address = env.DBUS_SESSION_BUS_ADDRESS?.trim();
  if (!address) return env.XDG_RUNTIME_DIR ? `${env.XDG_RUNTIME_DIR}/bus` : undefined;
  for (const entry of address.split(';')) {
    if (!entry.startsWith('unix:')) continue;
    const params = new Map(
      entry
        .slice('unix:'.length)
        .split(',')
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    );
    try {
      const path = params.get('path');
      if (path) return decodeURIComponent(path);
      const abstract = params.get('abstract');
      if (abstract) return `\0${decodeURIComponent(abstract)}`;
    } catch {
      // A malformed escape: no address to use.
    }
  }
  return undefined;
}

/**
 * Connect to the bus at `socketPath`, authenticate and say Hello (which a
 * bus wants first). Rejects when the bus refuses, ends, or sends what is not
 * D-Bus. No deadline of its own: `signal` closes the connection, whether
 * open yet or not, and every call waiting on it fails.
 */
export function openBus(socketPath: string, signal: AbortSignal): Promise<Bus> {
  const { createConnection } = process.getBuiltinModule('node:net');
  const socket = createConnection({ path: socketPath });
  signal.addEventListener('abort', () => socket.destroy(), { once: true });
  const uid = process.getuid?.() ?? 0;
  socket.once('connect', () => socket.write(`\0AUTH EXTERNAL ${Buffer.from(String(uid)).toString('hex')}\r\n`));
  return new Promise((resolve, reject) => {
    const bus = busOn(socket, reject, () => {
      bus
        .call({
          destination: 'org.freedesktop.DBus',
          path: '/org/freedesktop/DBus',
          interface: 'org.freedesktop.DBus',
          member: 'Hello',
        })
        .then(() => resolve(bus), reject);
    });
  });
}

/** The bus on a connected socket: the authentication exchange, then messages. */
function busOn(socket: Socket, onFailure: (err: Error) => void, onAuthenticated: () => void): Bus {
  const pending = new Map<number, { resolve: (body: DBusValue[]) => void; reject: (err: Error) => void }>();
  let serial = 0;
  let authenticated = false;
  let buffered = Buffer.alloc(0);
  const fail = (err: Error) => {
    socket.destroy();
    for (const waiting of pending.values()) waiting.reject(err);
    pending.clear();
    onFailure(err);
  };
  const receive = () => {
    if (!authenticated) {
      const end = buffered.indexOf('\r\n');
      if (end === -1)
        return buffered.length > 1024 ? fail(new Error('the D-Bus session bus did not authenticate')) : undefined;
      const line = buffered.subarray(0, end).toString('latin1');
      buffered = buffered.subarray(end + 2);
      if (!line.startsWith('OK '))
        return fail(new Error(`the D-Bus session bus refused plants (${line.split(' ')[0]})`));
      authenticated = true;
      socket.write('BEGIN\r\n');
      onAuthenticated();
    }
    for (
      let length = messageLength(buffered);
      length !== undefined && buffered.length >= length;
      length = messageLength(buffered)
    ) {
      if (length > MAX_MESSAGE_BYTES) return fail(new Error('the D-Bus session bus sent an oversized message'));
      const message = parseMessage(buffered.subarray(0, length));
      buffered = buffered.subarray(length);
      const waiting = message.replySerial === undefined ? undefined : pending.get(message.replySerial);
      if (!waiting || (message.type !== METHOD_RETURN && message.type !== ERROR)) continue;
      pending.delete(message.replySerial!);
      if (message.type === ERROR)
        waiting.reject(
          new DBusError(message.errorName ?? 'an error', typeof message.body[0] === 'string' ? message.body[0] : ''),
        );
      else waiting.resolve(message.body);
    }
  };
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    try {
      receive();
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  });
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('the D-Bus session bus closed the connection')));
  return {
    call: (call) =>
      new Promise((resolve, reject) => {
        if (socket.destroyed) return reject(new Error('the D-Bus session bus closed the connection'));
        serial += 1;
        pending.set(serial, { resolve, reject });
        socket.write(methodCall(serial, call));
      }),
  };
}
