import { maskSecrets } from '../secrets/registry.js';
import { bodyText } from '../shared/charset.js';
import { BadResponseError, NetworkError } from '../shared/errors.js';
import { ReadTimeoutError, TooLargeError } from '../shared/read-text.js';
import { excerpt } from '../shared/text.js';
import type { Attempt } from './attempt.js';
import { DEBUG_BODY_CHARACTERS, type DebugLog } from './debug-log.js';
import { causeCode, describeNetworkFailure } from './network.js';
import type { Attempts } from './retry.js';
import { withRequestId } from './request-id.js';
import { headerValue } from './status.js';
import { boundYoungGeneration } from './young-generation.js';

/** How a response's body is read: its bound, where --debug shows it, and what its failures name. */
export interface BodyReading {
  /** Largest body accepted, in bytes (--max-response-size). */
  maxBytes: number;
  log: DebugLog;
  /** The service's host, named when the connection closes before the body's end. */
  host: string;
  /** The attempt's time, as said after "within". */
  deadline: string;
}

/** A response whose body is to be read: its attempt, and what names it in messages. */
export interface BodyOf {
  readonly attempt: Attempt;
  /** `METHOD url`, as the request is named in messages. */
  readonly label: string;
  readonly attempts: Attempts;
  readonly requestId: string;
  /** The body, when it had to be read already: as much as an excerpt needs. */
  readonly text?: string;
}

/**
 * What to say of a body sent with a content coding (gzip, br, …) although
 * the request asked for none (Accept-Encoding: identity): undici's request()
 * hands bodies over as they arrive, so such a body cannot be read, and
 * its bytes are not worth showing. Undefined when the body is as sent.
 */
export function unaskedEncoding(
  header: string | string[] | undefined,
  what: 'response' | 'error body',
): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  const codings = (value ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding && coding !== 'identity');
  if (codings.length === 0) return undefined;
  const shown = excerpt(maskSecrets(codings.join(', ')), 60);
  const encoded = codings.length === 1 ? `${shown}-encoded` : `encoded with ${shown}`;
  return `the ${what} is ${encoded}, which plants did not ask for (it sends Accept-Encoding: identity)`;
}

/**
 * A response's body as it arrives, within the attempt's time, shown by
 * --debug once read; a larger size declared than the bound, and a
 * compressed body (never asked for), are refused. Errors as bodyError takes them.
 */
export function timedBody({ attempt }: BodyOf, reading: BodyReading): AsyncIterable<Buffer> {
  const limit = reading.maxBytes;
  const declared = Number(headerValue(attempt.headers['content-length']));
  const refusal =
    unaskedEncoding(attempt.headers['content-encoding'], 'response') ??
    (declared > limit
      ? `the response is ${declared} bytes, more than --max-response-size (${limit} bytes); refusing it`
      : undefined);
  if (refusal) throw new BadResponseError(refusal);
  const contentType = headerValue(attempt.headers['content-type']);
  const body = attempt.timedBody();
  return boundYoungGeneration(reading.log.on ? tapped(body, contentType, reading.log) : body);
}

/**
 * A response's body as it arrives (within the bound and the attempt's
 * time), for a caller that passes it on without holding it. An error
 * response's compressed body (never asked for) is not read, and reads as
 * empty: its error says it was not shown. The response is closed once the
 * body ends, fails, or the caller stops.
 */
export async function* streamBody(response: BodyOf, reading: BodyReading): AsyncGenerator<Buffer> {
  if (response.text !== undefined) {
    yield Buffer.from(response.text);
    return;
  }
  const { statusCode, headers } = response.attempt;
  if ((statusCode < 200 || statusCode >= 300) && unaskedEncoding(headers['content-encoding'], 'error body')) {
    response.attempt.close();
    return;
  }
  const limit = reading.maxBytes;
  let size = 0;
  try {
    for await (const chunk of timedBody(response, reading)) {
      size += chunk.length;
      if (size > limit) throw new TooLargeError(`larger than ${limit} bytes`);
      yield chunk;
    }
  } catch (err) {
    throw bodyError(err, response, reading);
  } finally {
    response.attempt.close();
  }
}

/** A response's whole body, as streamBody reads it. */
export async function readBody(response: BodyOf, reading: BodyReading): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of streamBody(response, reading)) {
    chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks, size);
}

/** A failure while reading a response's body, as the error to throw, naming the request. */
export function bodyError(err: unknown, response: BodyOf, reading: BodyReading): unknown {
  const { attempt, label, attempts } = response;
  const where = `${label} → ${attempt.statusCode}`;
  let error: unknown;
  if (err instanceof TooLargeError) {
    error = new BadResponseError(
      `${where}: the response is ${err.message}, more than --max-response-size; refusing it`,
      attempt.statusCode,
    );
  } else if (err instanceof BadResponseError) {
    error = new BadResponseError(`${where}: ${maskSecrets(err.message)}`, attempt.statusCode);
  } else if (err instanceof ReadTimeoutError || attempt.timedOut) {
    error = new NetworkError(
      `${label} failed: the response body did not arrive within ${reading.deadline}${attempts.suffix()}`,
      true,
    );
  } else {
    const code = causeCode(err);
    // The response did arrive: what closed was its body.
    const cause =
      code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
        ? `the connection was closed by ${reading.host} before the body ended (${code})`
        : describeNetworkFailure(err, reading.host, reading.deadline).message;
    error = new BadResponseError(
      `${where}: the response body was cut short (${cause})${attempts.suffix()}`,
      attempt.statusCode,
    );
  }
  return withRequestId(error, response.requestId);
}

/**
 * The body passed on as it comes, its start and size shown by --debug once
 * it has been read (decoded by its charset: charset.ts).
 */
async function* tapped(
  body: AsyncIterable<Buffer>,
  contentType: string | undefined,
  log: DebugLog,
): AsyncGenerator<Buffer> {
  const start: Buffer[] = [];
  let kept = 0;
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (kept < 4 * DEBUG_BODY_CHARACTERS) {
        start.push(chunk.subarray(0, 4 * DEBUG_BODY_CHARACTERS - kept));
        kept += start.at(-1)!.length;
      }
      yield chunk;
    }
  } finally {
    log.body(bodyText(Buffer.concat(start), contentType), bytes);
  }
}
