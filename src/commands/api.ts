import { Command, Option } from 'commander';
import { deletionOutcome, type DeleteOutcome } from '../api/delete-many.js';
import type { PlantStoreClient, ServiceResponse } from '../api/client.js';
import { headerValue } from '../api/attempt.js';
import { statusText } from '../api/retry.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { JsonNumber, stringifyJson } from '../json.js';
import { palette } from '../output/color.js';
import { writeOut } from '../output/iostreams.js';
import { info } from '../output/messages.js';
import { headerBlock, indentJson, isJsonType, terminalText } from '../output/response.js';
import { fsReason } from '../shared/fs-reason.js';
import { quoted } from '../shared/text.js';
import { apiTarget } from '../shared/url.js';
import { journalOnByEnv, openDeletionJournal, recorderFor, type JournalChoice } from './delete/journal.js';
import { guardDeletion, profileGuard } from './delete/guard.js';
import { wrapHelpText } from './help.js';
import { collect, examples } from './options.js';

/** A field of the JSON body (or query): its name and its value as it goes into the body. */
type Field = readonly [name: string, value: unknown];

export interface ApiOptions extends JournalChoice {
  /** Below the base URL (`/plants/7`), or an absolute URL on its origin. */
  path: string;
  /** Upper case; undefined: GET, or POST when a body is given. */
  method?: string;
  /** --input: a file, or `-` for stdin. */
  input?: string;
  fields: Field[];
  /** Lower-case names; a name given twice has its values joined with `, `. */
  headers: Record<string, string>;
  include: boolean;
  /** The body as received on a terminal too (not indented or coloured); errors also as a JSON line. */
  json: boolean;
  includeProtected: boolean;
}

type ApiRunner = (options: ApiOptions, ctx: Context) => Promise<void>;

interface ApiFlags {
  method?: string;
  input?: string;
  field?: Field[];
  rawField?: Field[];
  header?: string[];
  include?: boolean;
  json?: boolean;
  journal: boolean;
  journalFile?: string;
  includeProtected?: boolean;
}

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

/** `-H 'Name: value'`: the name lower-cased and checked, the value trimmed. */
export function parseHeader(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon === -1 ? '' : raw.slice(0, colon).trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) {
    throw new UsageError(`invalid header ${quoted(raw)}: expected 'Name: value', such as -H 'Accept: text/plain'`);
  }
  const why = REFUSED_HEADERS[name];
  if (why) throw new UsageError(`refusing header ${quoted(name)}: ${why}`);
  const value = raw.slice(colon + 1).trim();
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) {
    throw new UsageError(`invalid header ${quoted(name)}: its value holds a control character`);
  }
  return [name, value];
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** `-F key=value`: true, false, null and numbers as JSON literals (numbers exactly as written), `@file` read from a file (`@-` stdin), else a string. */
function parseTypedField(raw: string): Field {
  const [name, value] = splitField(raw, '-F');
  if (value === 'true' || value === 'false') return [name, value === 'true'];
  if (value === 'null') return [name, null];
  if (JSON_NUMBER.test(value)) return [name, new JsonNumber(value)];
  if (value.startsWith('@')) return [name, { file: value.slice(1) }];
  return [name, value];
}

/** `-f key=value`: always a string. */
function parseRawField(raw: string): Field {
  return splitField(raw, '-f');
}

function splitField(raw: string, flag: string): [string, string] {
  const equals = raw.indexOf('=');
  if (equals <= 0)
    throw new UsageError(`invalid ${flag} ${quoted(raw)}: expected key=value, such as ${flag} name=Ficus`);
  return [raw.slice(0, equals), raw.slice(equals + 1)];
}

function collectField(parse: (raw: string) => Field) {
  return (raw: string, previous: Field[] | undefined): Field[] => [...(previous ?? []), parse(raw)];
}

/** The request's headers from `-H` values: a name given twice has its values joined (RFC 9110, 5.3). */
function headersOf(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const raw of values) {
    const [name, value] = parseHeader(raw);
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

export function apiCommand(ctx: Context, run: ApiRunner = runApi): Command {
  return new Command('api')
    .description('Send any request to the plant store with the selected profile, and print the response')
    .argument('<path>', "a path below the base URL, such as /plants/7 (or a URL on the base URL's origin)")
    .addOption(
      new Option(
        '-X, --method <method>',
        'the HTTP method, such as GET, HEAD, POST, PUT, PATCH, DELETE (default: GET, or POST when -F, -f or --input gives a body)',
      ).argParser(parseMethod),
    )
    .option(
      '--input <file>',
      'send the contents of this file as the body (- for stdin), as JSON unless -H sets Content-Type',
    )
    .option(
      '-F, --field <key=value>',
      'add a field to the JSON body (query on GET and HEAD, or with --input): true, false, null and numbers as JSON, @file read from a file',
      collectField(parseTypedField),
    )
    .option('-f, --raw-field <key=value>', 'add a field as a string, as it is', collectField(parseRawField))
    .option('-H, --header <header>', "add a request header, 'Name: value' (not Authorization: use auth)", collect)
    .option('-i, --include', 'print the status line and the response headers before the body')
    .option(
      '--json',
      'print the body as received on a terminal too (not indented or coloured); errors also as a JSON line on stderr',
    )
    .option('--include-protected', "a DELETE may delete a plant the profile's protections cover (see config protect)")
    .option('--journal-file <path>', 'also record a DELETE in this file (JSON Lines)')
    .option('--no-journal', 'do not record a DELETE in the journal of the state directory (also PLANTS_JOURNAL=off)')
    .addHelpText('after', () => wrapHelpText(API_HELP, ctx.io.terminalWidth('stdout') ?? 80))
    .action(async (path: string, flags: ApiFlags) => {
      // Order-independent: collect -F and -f in the order given on the command line.
      const fields = [...(flags.field ?? []), ...(flags.rawField ?? [])];
      await run(
        {
          path,
          method: flags.method,
          input: flags.input,
          fields,
          headers: headersOf(flags.header ?? []),
          include: flags.include === true,
          json: flags.json === true,
          journal: flags.journal,
          journalFile: flags.journalFile,
          includeProtected: flags.includeProtected === true,
        },
        ctx,
      );
    });
}

const API_HELP =
  examples(
    'plants api /plants',
    'plants api /plants/7',
    "plants api '/plants?limit=5' | jq '.[].name'",
    'plants api -X DELETE /plants/7',
    'plants api -X POST /plants --input new-plant.json',
    'printf \'{"name":"Fern"}\' | plants api -X POST /plants --input -',
    'plants api -X PATCH /plants/7 -F name=Ficus -F tag=tree',
    'plants api -X GET /plants -F limit=10',
    "plants api -i -H 'Accept: text/plain' /health",
  ) +
  `
Rules:
  path     joined to the base URL, its path prefix kept; a full URL only on the base URL's origin
  exit     0 for a 2xx; otherwise the body is still printed on stdout, and the code is 4 for 401/403, 3 for a 404 with the service's Error object to a GET, HEAD or DELETE of one resource (/plants/7), 1 otherwise
  retries  only for GET, HEAD, PUT, DELETE and OPTIONS: a POST or PATCH is never sent twice
  DELETE   recorded in the deletion journal (plants history); the profile's protections hold for /plants/<id>
`;

/** GET and HEAD carry no body: fields go to the query. */
const BODILESS = new Set(['GET', 'HEAD']);

async function runApi(options: ApiOptions, ctx: Context): Promise<void> {
  const method = options.method ?? (options.input !== undefined || options.fields.length > 0 ? 'POST' : 'GET');
  if (options.input !== undefined && BODILESS.has(method)) {
    throw new UsageError(`--input gives a body, which a ${method} does not carry; use -X POST, PUT or PATCH`);
  }
  const fieldsInQuery = BODILESS.has(method) || options.input !== undefined;
  const fields = await readFieldFiles(options.fields, ctx);
  const body =
    options.input !== undefined
      ? await readInput(options.input, ctx)
      : !fieldsInQuery && fields.length > 0
        ? Buffer.from(stringifyJson(bodyOf(fields)))
        : undefined;
  const query = fieldsInQuery ? fields.map(([name, value]): [string, string] => [name, queryValue(value)]) : [];
  // Checked before the token is looked up: a bad path costs nothing.
  const base = (await ctx.baseUrl()).value;
  const target = apiTarget(base, options.path, query);
  const headers = { ...options.headers };
  if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  // An X-Request-Id given with -H is the request's id: the journal records it.
  const requestId = headers['x-request-id'];
  delete headers['x-request-id'];
  const addressedPlant =
    ['GET', 'HEAD', 'DELETE'].includes(method) && target.below.split('/').filter(Boolean).length >= 2;
  const request = { method, target, headers, body, addressedPlant, anyStatus: true, requestId };

  let response: ServiceResponse;
  let outcome: DeleteOutcome | undefined;
  const client = await ctx.client();
  if (method === 'DELETE') {
    const deleted = await sendDelete(target.below, { ...request, goneAfterLostAnswer: true }, options, ctx, client);
    response = deleted.response;
    outcome = deleted.outcome;
  } else {
    response = await client.request(request);
  }
  const { attempt } = response;
  const status = attempt.statusCode;
  const received = method === 'HEAD' ? Buffer.alloc(0) : await client.readBody(response);
  await writeResponse(response, received, options, ctx);
  if (outcome?.result.result === 'gone') {
    info(ctx.io, '404 after a lost answer: an earlier attempt most likely deleted it (recorded as gone)');
    return;
  }
  if (status < 200 || status >= 300) {
    throw client.errorFor(response, received.toString('utf8', 0, 64 * 1024), addressedPlant);
  }
}

/**
 * A DELETE, as every deletion is made: the profile's protections checked
 * for a plant's path (`/plants/<id>`), the journal opened and the intent
 * recorded before it leaves, the outcome after. Returns the response, even a
 * failure's (its body is printed); a request that got no response throws.
 */
async function sendDelete(
  below: string,
  request: Parameters<PlantStoreClient['request']>[0],
  options: ApiOptions,
  ctx: Context,
  client: PlantStoreClient,
): Promise<{ response: ServiceResponse; outcome: DeleteOutcome }> {
  journalOnByEnv(ctx.env);
  const plant = /^\/plants\/([^/]+)\/?$/.exec(below);
  // A plant's path is recorded by its id; any other path as it is.
  const id = plant ? decodeSegment(plant[1]!) : below;
  let targets = [{ id }];
  if (plant) {
    const guard = await profileGuard(ctx);
    targets = await guardDeletion(targets, undefined, { includeProtected: options.includeProtected }, guard, ctx);
  }
  const journal = await openDeletionJournal('api', 1, options, ctx);
  const recorder = journal && recorderFor(journal, targets);
  const requestId = request.requestId ?? globalThis.crypto.randomUUID();
  try {
    recorder?.intent(0, requestId);
    let response: ServiceResponse | undefined;
    const outcome = await deletionOutcome(id, requestId, async () => {
      response = await client.request({ ...request, requestId });
      const { attempt, attempts, text } = response;
      const status = attempt.statusCode;
      const gone = status === 404 && text !== undefined && attempts.responseMayBeLost;
      if ((status < 200 || status >= 300) && !gone) {
        // The error body is read here, for the outcome; what is printed is this text.
        const body = await client.readBody(response);
        response = { ...response, text: body.toString('latin1') };
        throw client.errorFor(response, body.toString('utf8', 0, 64 * 1024), request.addressedPlant);
      }
      return { status, afterLostResponse: attempts.responseMayBeLost, attempts: attempts.count };
    });
    recorder?.outcome(0, outcome);
    if (response === undefined) throw outcome.error ?? new Error('the DELETE got no response');
    return { response, outcome };
  } finally {
    journal?.close();
  }
}

/** A path segment as the id it names; one that is not valid percent-encoding is taken as written. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `-F key=@file`: the file's contents (`@-`: stdin) as the string value. */
async function readFieldFiles(fields: readonly Field[], ctx: Context): Promise<Field[]> {
  const read: Field[] = [];
  for (const [name, value] of fields) {
    if (value !== null && typeof value === 'object' && 'file' in value) {
      read.push([name, (await readInput((value as { file: string }).file, ctx)).toString('utf8')]);
    } else read.push([name, value]);
  }
  return read;
}

/** The JSON body of the fields: an object, in the order given; a key given twice is a mistake. */
function bodyOf(fields: readonly Field[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of fields) {
    if (Object.hasOwn(body, name)) throw new UsageError(`field ${quoted(name)} given twice; give each key once`);
    body[name] = value;
  }
  return body;
}

/** A field's value in the query: a string as it is, a literal as JSON writes it (`true`, `null`, `12.50`). */
function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : stringifyJson(value);
}

/** --input: a file's bytes, or stdin's for `-`. */
async function readInput(source: string, ctx: Context): Promise<Buffer> {
  if (source === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.io.stdin as AsyncIterable<Buffer | string>) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    }
    return Buffer.concat(chunks);
  }
  // A built-in, as the bundles load them (a dynamic import has no callback under the code cache).
  const { readFile } = process.getBuiltinModule('node:fs/promises');
  try {
    return await readFile(source);
  } catch (err) {
    throw new UsageError(`cannot read ${quoted(source)}: ${fsReason(err)}`);
  }
}

/**
 * The response on stdout: with -i its status line and headers first; then
 * the body. In a pipe (or with --json) the body as received, the token
 * masked; on a terminal JSON indented and coloured, other text escaped.
 */
async function writeResponse(
  response: ServiceResponse,
  body: Buffer,
  options: ApiOptions,
  ctx: Context,
): Promise<void> {
  const { io } = ctx;
  const terminal = io.stdoutIsTTY;
  const paint = io.colorEnabled('stdout') ? await palette(true) : undefined;
  const { attempt } = response;
  let out = '';
  if (options.include) {
    out += ctx.redact(headerBlock(statusText(attempt.statusCode), attempt.headers, terminal, paint));
  }
  if (!terminal) {
    // Byte for byte: latin1 maps each byte to one character and back, and the token's forms are all ASCII.
    await writeOut(io.stdout, out);
    if (body.length > 0) await writeOut(io.stdout, Buffer.from(ctx.redact(body.toString('latin1')), 'latin1'));
    return;
  }
  const text = ctx.redact(body.toString('utf8'));
  const json =
    options.json || !(isJsonType(headerValue(attempt.headers['content-type'])) || /^\s*[[{]/.test(text))
      ? undefined
      : indentJson(text, paint);
  out += json ?? terminalText(text);
  await writeOut(io.stdout, out);
}
