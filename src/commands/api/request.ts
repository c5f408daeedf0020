import type { Context } from '../../context.js';
import { UsageError } from '../../shared/errors.js';
import { JsonNumber, stringifyJson } from '../../shared/json.js';
import { fsReason } from '../../shared/fs-reason.js';
import { readPipe } from '../../shared/read-pipe.js';
import { quoted } from '../../shared/text.js';
import { INSPECTED_BYTES, type FileBody } from '../../deletion/api-request/request-body.js';

/**
 * What `plants api` sends, from its flags: the method, the headers, the
 * fields of a JSON body or query, a body from a file or stdin. Each is
 * checked here, before anything is looked up or sent.
 */

/** A field of the JSON body (or query): its name and its value as it goes into the body (`@file` still to read). */
export type Field = readonly [name: string, value: unknown];

/** An HTTP method as RFC 9110 spells a token; CONNECT opens a tunnel, not a request. */
export function parseMethod(raw: string): string {
  const method = raw.trim().toUpperCase();
  if (!/^[!#$%&'*+.^_`|~0-9A-Z-]+$/.test(method) || method === 'CONNECT') {
    throw new UsageError(`invalid method ${quoted(raw)}: expected one such as GET, POST, PUT, PATCH, DELETE`);
  }
  return method;
}

/**
 * Headers `-H` may not set: the token's own (use `plants auth`), and those
 * that frame the message or the connection, which plants and undici set.
 */
const REFUSED_HEADERS: Record<string, string> = {
  authorization: "the token is sent for you; store another with 'plants auth login' or set PLANTS_TOKEN",
  'proxy-authorization': 'give proxy credentials in HTTPS_PROXY or HTTP_PROXY',
  'accept-encoding': 'bodies are read uncompressed, so the token can be masked in them',
  host: 'the host is the base URL’s',
  'content-length': 'it is set from the body',
  'transfer-encoding': 'it is set from the body',
  connection: 'connections are managed for you',
  'keep-alive': 'connections are managed for you',
  upgrade: 'connections are managed for you',
  te: 'connections are managed for you',
  expect: 'the body is sent at once',
};

/** `-H 'Name: value'`: the name lower-cased and checked, the value trimmed and checked (RFC 9110 field-value octets). */
export function parseHeader(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon === -1 ? '' : raw.slice(0, colon).trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
    throw new UsageError(`invalid header ${quoted(raw)}: expected 'Name: value', such as -H 'Accept: text/plain'`);
  }
  const why = REFUSED_HEADERS[name];
  if (why) throw new UsageError(`refusing header ${quoted(name)}: ${why}`);
  const value = raw.slice(colon + 1).trim();
  if (!/^[\t\u0020-\u007e\u0080-\u00ff]*$/.test(value)) {
    throw new UsageError(
      `invalid header ${quoted(name)}: its value holds a control character or a character beyond Latin-1; percent-encode it`,
    );
  }
  if (name === 'x-request-id' && !/^[\u0021-\u007e]+$/.test(value)) {
    throw new UsageError(
      'invalid header "x-request-id": give a request id of visible ASCII characters, such as a UUID',
    );
  }
  return [name, value];
}

/** The request's headers from `-H` values: a name given twice has its values joined (RFC 9110, 5.3). */
export function headersOf(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const raw of values) {
    const [name, value] = parseHeader(raw);
    // Joined, two ids would be one with a space, which is no request id.
    if (name === 'x-request-id' && headers[name] !== undefined) {
      throw new UsageError('X-Request-Id given twice: a request has one id; give -H X-Request-Id once');
    }
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** `-F key=value`: true, false, null and numbers as JSON literals (numbers exactly as written), `@file` read from a file (`@-` stdin), else a string. */
export function parseTypedField(raw: string): Field {
  const [name, value] = splitField(raw, '-F');
  if (value === 'true' || value === 'false') return [name, value === 'true'];
  if (value === 'null') return [name, null];
  if (JSON_NUMBER.test(value)) return [name, new JsonNumber(value)];
  if (value.startsWith('@')) return [name, new FieldFile(value.slice(1))];
  return [name, value];
}

/** `-f key=value`: always a string. */
export function parseRawField(raw: string): Field {
  return splitField(raw, '-f');
}

/** A `-F key=@file` value, read when the request is made. */
class FieldFile {
  constructor(readonly path: string) {}
}

function splitField(raw: string, flag: string): [string, string] {
  const equals = raw.indexOf('=');
  if (equals <= 0)
    throw new UsageError(`invalid ${flag} ${quoted(raw)}: expected key=value, such as ${flag} name=Ficus`);
  return [raw.slice(0, equals), raw.slice(equals + 1)];
}

/** The body and query the fields and --input make, for `method`. */
export async function requestParts(
  method: string,
  fields: readonly Field[],
  input: string | undefined,
  ctx: Context,
): Promise<{ body?: Buffer | FileBody; query: [string, string][] }> {
  const bodiless = method === 'GET' || method === 'HEAD';
  if (input !== undefined && bodiless) {
    throw new UsageError(`--input gives a body, which a ${method} does not carry; use -X POST, PUT or PATCH`);
  }
  const readers = fields.filter(([, value]) => value instanceof FieldFile && value.path === '-').length;
  if (readers + (input === '-' ? 1 : 0) > 1) {
    throw new UsageError('stdin can be read once: give --input - or one -F key=@-, and the rest from files');
  }
  const read: Field[] = [];
  for (const [name, value] of fields) {
    read.push([name, value instanceof FieldFile ? await fieldText(value.path, ctx) : value]);
  }
  // As gh api: fields go to the query when there is no JSON body for them.
  if (bodiless || input !== undefined) {
    const query = read.map(([name, value]): [string, string] => [
      name,
      typeof value === 'string' ? value : stringifyJson(value),
    ]);
    return { body: input === undefined ? undefined : await readInput(input, ctx), query };
  }
  return { body: read.length > 0 ? Buffer.from(stringifyJson(bodyOf(read))) : undefined, query: [] };
}

/** A `-F key=@file` value: the file's text, held whole (it goes into a JSON body or a query). */
async function fieldText(source: string, ctx: Context): Promise<string> {
  const read = await readInput(source, ctx);
  if (Buffer.isBuffer(read)) return read.toString('utf8');
  const { readFile } = process.getBuiltinModule('node:fs/promises');
  return (await readFile(read.path)).toString('utf8');
}

/** The JSON body of the fields: an object, in the order given; a key given twice is a mistake. */
function bodyOf(fields: readonly Field[]): Record<string, unknown> {
  // No prototype: `__proto__` is a key like any other.
  const body = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of fields) {
    if (Object.hasOwn(body, name)) throw new UsageError(`field ${quoted(name)} given twice; give each key once`);
    body[name] = value;
  }
  return body;
}

/** --input: a file's bytes (a large file's path), or stdin's for `-` (piped: a terminal is no body). */
async function readInput(source: string, ctx: Context): Promise<Buffer | FileBody> {
  if (source === '-') {
    if (ctx.io.canPrompt()) {
      throw new UsageError('stdin is a terminal: pipe the body in (… | plants api … --input -), or name a file');
    }
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.io.stdin as AsyncIterable<Buffer | string>) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    }
    return Buffer.concat(chunks);
  }
  // A built-in, as the bundles load them (a dynamic import has no callback under the code cache).
  const { readFile, stat } = process.getBuiltinModule('node:fs/promises');
  const unreadable = (reason: string) => new UsageError(`cannot read ${quoted(source)}: ${reason}`);
  try {
    // A file, or a pipe (`<(…)`, a FIFO), which ends; a device such as /dev/zero would be read without end.
    const found = await stat(source);
    if (found.isCharacterDevice() || found.isBlockDevice()) throw unreadable('a device, not a file or a pipe');
    if (found.isFIFO()) return await readPipe(source);
    // A large file is sent from the disk, as it is read, never held whole.
    return found.size > INSPECTED_BYTES ? { path: source, size: found.size } : await readFile(source);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw unreadable(fsReason(err));
  }
}
