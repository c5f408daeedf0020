import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { readBytes, ReadTimeoutError } from '../shared/read-text.js';
import { bodyText } from '../shared/charset.js';
import { ConnectionWatch } from './connection-watch.js';
import { headerValue } from './status.js';

/** An HTTP method, upper case: GET and DELETE for plants' own requests, any for `plants api`. */
export type Method = string;
/** Where a request goes: origin and path as undici takes them, and the whole URL for messages. */
export type Target = { origin: string; path: string; href: string };
export type Headers = Dispatcher.ResponseData['headers'];

/** Error bodies are only shown as an excerpt; more than this is never needed. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** A request body: bytes, or a stream opened anew for each attempt (a large file, never held whole). */
export type RequestBody = Uint8Array | (() => Readable);

interface AttemptRequest {
  /** The one shared dispatcher (an undici Agent; a MockAgent in unit tests). */
  dispatcher: Dispatcher;
  method: Method;
  target: Target;
  headers: Record<string, string>;
  /** The request body, sent as is (again on a retry or a 307/308 redirect). */
  body?: RequestBody;
  /** Bound on the whole attempt: connecting, waiting for the response, reading the body. */
  timeoutMs: number;
}

/**
 * The attempt's deadline, as the reason its signal is aborted with (and so
 * the error undici fails the request with): `connected` says whether undici
 * had handed the request to a connection when the time ran out. Until then
 * nothing of it was written, so nothing can have been carried out, however
 * undici ends it: from 8.13 it takes a request whose signal aborts out of
 * the queue of requests waiting for a connection and fails it at once with
 * this reason; before, it waited for its connect timeout.
 */
export class AttemptTimeoutError extends DOMException {
  readonly connected: boolean;

  constructor(connected: boolean) {
    super(connected ? 'attempt timed out' : 'attempt timed out before a connection opened', 'TimeoutError');
    this.connected = connected;
  }
}

/**
 * One request attempt and its response, its whole life (headers and body)
 * bounded by a deadline: a standard AbortController whose signal undici
 * takes, aborted with an AttemptTimeoutError when the time is up, so the
 * request or its body fails. (AbortSignal.timeout would do, but cannot be
 * stopped once the attempt is over, and costs more per request in a bulk
 * delete.)
 *
 * `close()` ends the attempt however it went: it stops the deadline and
 * closes a body nobody read. Calling it again does nothing.
 */
export class Attempt {
  readonly statusCode: number;
  readonly headers: Headers;
  readonly #body: Dispatcher.ResponseData['body'];
  readonly #deadline: AbortController;
  readonly #timer: NodeJS.Timeout;
  readonly #started: number;
  readonly #timeoutMs: number;
  #closed = false;

  private constructor(
    response: Dispatcher.ResponseData,
    deadline: AbortController,
    timer: NodeJS.Timeout,
    started: number,
    timeoutMs: number,
  ) {
    this.statusCode = response.statusCode;
    this.headers = response.headers;
    this.#body = response.body;
    this.#deadline = deadline;
    this.#timer = timer;
    this.#started = started;
    this.#timeoutMs = timeoutMs;
  }

  /** Send the request; resolves once the response's headers have arrived. */
  static async send({ dispatcher, method, target, headers, body, timeoutMs }: AttemptRequest): Promise<Attempt> {
    const started = Date.now();
    const deadline = new AbortController();
    let connected = false;
    const timer = setTimeout(() => deadline.abort(new AttemptTimeoutError(connected)), timeoutMs);
    timer.unref();
    // undici's request() hands its handler to dispatch(): wrapped, it says when the request reaches a connection.
    const watched = dispatcher.compose(
      (dispatch) => (options, handler) => dispatch(options, new ConnectionWatch(handler, () => (connected = true))),
    );
    try {
      // dispatcher.request takes origin and path as they are; undici's
      // top-level request() would re-parse the URL and resolve %2E%2E.
      const response = await watched.request({
        origin: target.origin,
        path: target.path,
        method,
        headers,
        body: typeof body === 'function' ? body() : body,
        headersTimeout: timeoutMs,
        // The attempt's deadline bounds the body (see timedBody); undici's idle
        // timer would also fire while a slow reader of the output holds it back.
        bodyTimeout: 0,
        signal: deadline.signal,
      });
      return new Attempt(response, deadline, timer, started, timeoutMs);
    } catch (err) {
      clearTimeout(timer);
      throw err;
    }
  }

  /** The deadline passed before the attempt was over (or before timedBody took it over). */
  get timedOut(): boolean {
    return this.#deadline.signal.aborted;
  }

  /** What remains of the attempt's time. */
  networkTimeLeft(): number {
    return this.#timeoutMs - (Date.now() - this.#started);
  }

  /**
   * The body, with the rest of the attempt's time spent only on waiting for
   * the network: a list streamed into a slow reader (`| less`) is not cut
   * off, a service that trickles its body still is. It takes the deadline over.
   */
  async *timedBody(): AsyncGenerator<Buffer> {
    let left = this.networkTimeLeft();
    clearTimeout(this.#timer);
    const chunks = this.#body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const nextChunk = async () => {
      const next = await chunks.next();
      return next.done ? null : next.value;
    };
    for (;;) {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new ReadTimeoutError(`the body did not arrive within ${this.#seconds()} s`)),
          Math.max(0, left),
        );
      });
      let chunk: Buffer | null;
      try {
        chunk = await Promise.race([nextChunk(), expired]);
      } finally {
        clearTimeout(timer);
      }
      left -= Date.now() - started;
      if (chunk === null) return;
      yield chunk;
    }
  }

  /** Throw the body away, within the deadline (its signal aborts a stalled one). */
  async discard(): Promise<void> {
    try {
      await this.#body.dump({ limit: MAX_ERROR_BODY_BYTES });
    } catch {
      // Nothing in it was wanted.
    }
  }

  /**
   * An error response's body, as much as an excerpt needs, within the
   * deadline: as text, decoded as its BOM or declared charset says (charset.ts).
   */
  async errorText(): Promise<string> {
    try {
      const bytes = await readBytes(this.#body, MAX_ERROR_BODY_BYTES, { truncate: true });
      return bodyText(bytes, headerValue(this.headers['content-type']), true);
    } catch {
      // The connection closed before the body's end (a Content-Length it did not keep): said, not shown as empty.
      return this.timedOut
        ? `(the error body did not arrive within ${this.#seconds()} s)`
        : '(the error body was cut short)';
    }
  }

  /** The attempt's time in seconds, for messages. */
  #seconds(): number {
    return this.#timeoutMs / 1000;
  }

  /** Stop the deadline and close the body unless it was read to its end. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    // Not read: the error the destroyed body may emit is no news.
    if (!this.#body.readableEnded) this.#body.on('error', () => {}).destroy();
  }
}
