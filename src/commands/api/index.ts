import { registerHeaderSecrets } from '../../secrets/header-secrets.js';
import { maskSecrets } from '../../secrets/registry.js';
import { Command, Option } from 'commander';
import type { ServiceRequest, ServiceResponse } from '../../api/client.js';
import { headerValue, statusText } from '../../http/status.js';
import type { Context } from '../../context.js';
import { CliError, InterruptedError, OutputError } from '../../shared/errors.js';
import { palette } from '../../output/color.js';
import { readerGone, writeOut } from '../../output/iostreams.js';
import { MaskedBody } from '../../output/masked-body.js';
import { info } from '../../output/messages.js';
import { headerBlock, indentJson, isJsonType, terminalText, TerminalTextStream } from '../../output/response.js';
import { bodyText } from '../../shared/charset.js';
import { apiTarget } from '../../shared/url.js';
import type { JournalChoice } from '../../deletion/journal/choice.js';
import { deletionsMade } from '../../deletion/run-counts.js';
import { wrapHelpText } from '../help.js';
import { collect, examples, parseJournalFile } from '../options.js';
import { deleteAskedBy, sentBody } from '../../deletion/api-request/asked-delete.js';
import { sendDelete } from './delete.js';
import { headersOf, parseMethod, parseRawField, parseTypedField, requestParts, type Field } from './request.js';

export interface ApiOptions extends JournalChoice {
  /** Below the base URL (`/plants/7`), or an absolute URL on its origin. */
  path: string;
  /** Upper case; undefined: GET, or POST when a body is given. */
  method?: string;
  /** --input: a file, or `-` for stdin. */
  input?: string;
  /** -F and -f, in the order given. */
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
  header?: string[];
  include?: boolean;
  json?: boolean;
  journal: boolean;
  journalFile?: string;
  includeProtected?: boolean;
}

export function apiCommand(ctx: Context, run: ApiRunner = runApi): Command {
  // -F and -f into one list, in the order given.
  const fields: Field[] = [];
  const field = (parse: (raw: string) => Field) => (raw: string) => {
    fields.push(parse(raw));
    return fields;
  };
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
      field(parseTypedField),
    )
    .option('-f, --raw-field <key=value>', 'add a field as a string, as it is', field(parseRawField))
    .option('-H, --header <header>', "add a request header, 'Name: value' (not Authorization: use auth)", collect)
    .option('-i, --include', 'print the status line and the response headers before the body')
    .option(
      '--json',
      'print the body as received on a terminal too (not indented or coloured); errors also as a JSON line on stderr',
    )
    .option('--include-protected', "a DELETE may delete a plant the profile's protections cover (see config protect)")
    .option('--journal-file <path>', 'also record a DELETE in this file (JSON Lines)', parseJournalFile)
    .option('--no-journal', 'do not record a DELETE in the journal of the state directory (also PLANTS_JOURNAL=off)')
    .addHelpText('after', () => wrapHelpText(API_HELP, ctx.io.terminalWidth('stdout') ?? 80))
    .action(async (path: string, flags: ApiFlags) => {
      await run(
        {
          path,
          method: flags.method,
          input: flags.input,
          fields: [...fields],
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
  exit     0 for a 2xx; otherwise the body is still printed on stdout, and the code is 4 for 401/403, 3 for a 404 with the service's Error object, or a 410, to a GET, HEAD or DELETE of one resource (/plants/7), 1 otherwise
  retries  only for GET, HEAD, PUT, DELETE and OPTIONS: a POST or PATCH is never sent twice
  DELETE   recorded in the deletion journal (plants history), never redirected; the profile's protections hold for a path ending in /plants/<id> (under any prefix, read as a server reads it), and a DELETE of /plants is refused when the profile has any; another method asking for a DELETE (X-HTTP-Method-Override, _method=DELETE) is checked and recorded as one
  bodies   streamed: a response of any size, and an --input file, pass through in bounded memory; the token is masked in UTF-16 bodies too
`;

async function runApi(options: ApiOptions, ctx: Context): Promise<void> {
  registerHeaderSecrets(options.headers);
  const method = options.method ?? (options.input !== undefined || options.fields.length > 0 ? 'POST' : 'GET');
  const { body, query } = await requestParts(method, options.fields, options.input, ctx);
  // Checked before the token is looked up: a bad path costs nothing.
  const target = apiTarget((await ctx.baseUrl()).value, options.path, query);
  const headers = { ...options.headers };
  if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  // Another method that asks the service for a DELETE is one: guarded and recorded as a DELETE.
  const deleting = method === 'DELETE' || (await deleteAskedBy(headers, target.path, body)) !== undefined;
  // An X-Request-Id given with -H is the request's id: the journal records it.
  const requestId = headers['x-request-id'];
  delete headers['x-request-id'];
  const addressedPlant =
    (deleting || ['GET', 'HEAD'].includes(method)) && target.below.split('/').filter(Boolean).length >= 2;
  const sent = sentBody(body, headers);
  const request: ServiceRequest = { method, target, headers, body: sent, addressedPlant, requestId };

  const client = await ctx.client();
  const deletion = deleting ? await sendDelete(target, request, options, ctx, client) : undefined;
  const response = deletion?.response ?? (await client.send(request));
  let chunks: AsyncIterable<Buffer> | Iterable<Buffer>;
  if (deletion?.body) chunks = [deletion.body];
  else if (method === 'HEAD') {
    chunks = [];
    response.attempt.close();
  } else chunks = client.streamBody(response);
  let start: Buffer;
  try {
    start = await writeResponse(response, chunks, options, ctx);
  } catch (err) {
    if (err instanceof OutputError) {
      if (deletion?.unrecorded) throw withAlso(deletion.unrecorded, 'the answer could not be written out', err);
      // The response of a DELETE made could not be shown (a full disk): the error line says it was made.
      if (deletion) throw err.after(deletionsMade([deletion.outcome.result], deletion.runId));
      throw err;
    }
    // An outcome that could not be recorded is said first (exit 2, as after a body read): this failure with it.
    if (deletion?.unrecorded) throw withAlso(deletion.unrecorded, 'its body could not be read', err);
    // A DELETE answered 2xx whose body could not be read (too large, too slow) was still made: the error says so.
    const made = deletion && deletionsMade([deletion.outcome.result], deletion.runId);
    if (made && err instanceof CliError) err.message = `${err.message}; ${made}`;
    throw err;
  }
  if (deletion?.outcome.result.result === 'gone') {
    info(
      ctx.io,
      `${deletion.outcome.result.status} after a lost answer or a server error (500, 502, 504): an earlier attempt most likely deleted it (recorded as gone)`,
    );
  }
  if (deletion?.unrecorded) throw deletion.unrecorded;
  if (deletion?.stoppedBy) {
    throw new InterruptedError('stopped; the DELETE in flight was answered (shown above)', deletion.stoppedBy);
  }
  const status = response.attempt.statusCode;
  if (status < 200 || status >= 300) {
    // A DELETE whose earlier answer was lost: its error says the plant may have been deleted, as the journal does.
    if (deletion?.outcome.result.result === 'unknown' && deletion.outcome.error) throw deletion.outcome.error;
    // Read in the body's charset: an Error object in UTF-16 is one (its status read as a UTF-8 one's).
    throw client.errorFor(
      response,
      bodyText(start, headerValue(response.attempt.headers['content-type']), true),
      addressedPlant,
    );
  }
}

/** JSON larger than this is shown on a terminal as it came, not indented: indenting costs its size several times over. */
const MAX_INDENTED_BYTES = 4 * 1024 * 1024;
/** As much of the body as an error's excerpt needs. */
const EXCERPT_BYTES = 64 * 1024;

/**
 * The response on stdout: with -i its status line and headers first; then
 * the body, as it arrives. In a pipe (or with --json) the body as received,
 * the token masked (in the encoding it came in: UTF-16 too); on a terminal
 * JSON indented and coloured (up to MAX_INDENTED_BYTES), other text escaped.
 * Returns the body's first EXCERPT_BYTES, for an error's excerpt.
 */
async function writeResponse(
  response: ServiceResponse,
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  options: ApiOptions,
  ctx: Context,
): Promise<Buffer> {
  const { io } = ctx;
  const terminal = io.stdoutIsTTY;
  const paint = io.colorEnabled('stdout') ? await palette(true) : undefined;
  const { attempt } = response;
  const contentType = headerValue(attempt.headers['content-type']);
  let out = '';
  if (options.include) {
    out += maskSecrets(headerBlock(statusText(attempt.statusCode), attempt.headers, terminal, paint));
  }
  const start: Buffer[] = [];
  let size = 0;
  const received = (chunk: Buffer) => {
    if (size < EXCERPT_BYTES) start.push(chunk.subarray(0, EXCERPT_BYTES - size));
    size += chunk.length;
  };
  if (!terminal) {
    await writeOut(io.stdout, out);
    const masked = new MaskedBody(contentType, 'bytes');
    for await (const chunk of chunks) {
      received(chunk);
      const shown = masked.push(chunk);
      if (shown.length > 0) await writeOut(io.stdout, shown);
      // Nobody reads on (`| head`): the rest is not read either.
      if (readerGone(io.stdout)) return Buffer.concat(start);
    }
    const rest = masked.end();
    if (rest.length > 0) await writeOut(io.stdout, rest);
    return Buffer.concat(start);
  }
  const masked = new MaskedBody(contentType, 'text');
  let text = '';
  // Past MAX_INDENTED_BYTES the text is shown as it comes.
  let streamed: TerminalTextStream | undefined;
  for await (const chunk of chunks) {
    received(chunk);
    const piece = masked.push(chunk);
    if (streamed) {
      if (piece !== '') await writeOut(io.stdout, streamed.push(piece));
      if (readerGone(io.stdout)) return Buffer.concat(start);
    } else if (size > MAX_INDENTED_BYTES) {
      streamed = new TerminalTextStream();
      await writeOut(io.stdout, out + streamed.push(text + piece));
      text = '';
    } else text += piece;
  }
  text += masked.end();
  if (streamed) {
    await writeOut(io.stdout, streamed.push(text) + streamed.end());
    return Buffer.concat(start);
  }
  const json =
    options.json || !(isJsonType(contentType) || /^\s*[[{]/.test(text)) ? undefined : indentJson(text, paint);
  out += json ?? terminalText(text);
  await writeOut(io.stdout, out);
  return Buffer.concat(start);
}

/** `first`, its message saying that `what` failed too, and why (a second failure is not lost behind the first). */
function withAlso(first: CliError, what: string, err: unknown): CliError {
  first.message += `; and ${what}: ${err instanceof Error ? err.message : String(err)}`;
  return first;
}
