import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { JsonNumber, stringifyJson } from '../../json.js';
import { fsReason } from '../../shared/fs-reason.js';
import { readPipe } from '../../shared/read-pipe.js';
import { quoted } from '../../shared/text.js';

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
): Promise<{ body?: Buffer; query: [string, string][] }> {
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
    read.push([name, value instanceof FieldFile ? (await readInput(value.path, ctx)).toString('utf8') : value]);
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

/** --input: a file's bytes, or stdin's for `-` (piped: a terminal is no body). */
async function readInput(source: string, ctx: Context): Promise<Buffer> {
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
    return found.isFIFO() ? await readPipe(source) : await readFile(source);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw unreadable(fsReason(err));
  }
}

/** Headers by which a service may take a POST for another method (Express's method-override, Symfony, Google APIs). */
const OVERRIDE_HEADERS = ['x-http-method-override', 'x-http-method', 'x-method-override'];

/**
 * A parameter's name as the parsers that read `_method` may take it: PHP
 * drops leading spaces (` _method`), Rack 2 leading brackets (`[_method]`).
 */
function isMethodKey(name: string): boolean {
  return name.replace(/^[\s[]+/, '').replace(/]$/, '') === '_method';
}

/** The values of `_method` (under any name isMethodKey takes) in a query or form text. */
function methodParams(text: string): string[] {
  return [...new URLSearchParams(text)].filter(([name]) => isMethodKey(name)).map(([, value]) => value);
}

/** The values of the multipart parts named `_method` (as isMethodKey reads a name). */
function multipartMethods(text: string): string[] {
  const values: string[] = [];
  // Each part: its headers, a blank line, then its value up to the line break before the next boundary.
  for (const part of text.split(/\r?\n--/)) {
    const blank = /\r?\n\r?\n/.exec(part);
    if (!blank) continue;
    const name = /content-disposition:[^\r\n]*;\s*name\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(part.slice(0, blank.index));
    if (name && isMethodKey(name[1] ?? name[2] ?? '')) values.push(part.slice(blank.index + blank[0].length).trim());
  }
  return values;
}

/**
 * Where the request asks the service to take it for a DELETE when its
 * method is not one: a method-override header, or a `_method` parameter in
 * the query or in a form, multipart or JSON body (Rails, Laravel, Spring,
 * Express's method-override). A service that honours it deletes, and
 * plants would record nothing and check no protection: refused
 * (UsageError), so that a DELETE goes only as `-X DELETE`.
 */
export function refuseDeleteOverride(
  method: string,
  headers: Readonly<Record<string, string>>,
  path: string,
  body: Buffer | undefined,
): void {
  if (method === 'DELETE') return;
  const isDelete = (value: unknown) =>
    typeof value === 'string' && value.split(',').some((part) => part.trim().toUpperCase() === 'DELETE');
  const refuse = (where: string) =>
    new UsageError(
      `refusing ${where} with -X ${method}: a service that honours it deletes, without a record in the journal or a check of the protections; send the DELETE itself with -X DELETE`,
    );
  // PHP and other CGI-style servers read a `_` in a header's name as a `-` (both become HTTP_X_HTTP_METHOD_OVERRIDE).
  for (const [name, value] of Object.entries(headers))
    if (OVERRIDE_HEADERS.includes(name.replaceAll('_', '-')) && isDelete(value)) {
      throw refuse(`header ${quoted(name)} naming DELETE`);
    }
  const query = path.indexOf('?');
  if (query !== -1 && methodParams(path.slice(query + 1)).some(isDelete)) throw refuse('_method=DELETE in the query');
  if (body === undefined || body.length === 0) return;
  // A byte order mark is dropped by the body parsers that honour `_method`: dropped here too.
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  const type = (headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/')) {
    if (multipartMethods(text).some(isDelete)) throw refuse('a _method part naming DELETE in the multipart body');
    return;
  }
  if (methodParams(text).some(isDelete) && !text.trimStart().startsWith('{')) {
    // A form body, whatever its Content-Type says (some parsers read a form without one).
    throw refuse('_method=DELETE in the form body');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return; // Not JSON: a body the service reads as its type says.
  }
  if (typeof parsed !== 'object' || parsed === null) return;
  for (const [key, value] of Object.entries(parsed)) {
    if (isMethodKey(key) && isDelete(value)) throw refuse('"_method": "DELETE" in the JSON body');
  }
}
