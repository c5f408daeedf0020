import type { Dispatcher } from 'undici';
import { maskedUrl } from '../secrets/registry.js';
import { CliError } from '../shared/errors.js';
import { Attempt, type Method, type RequestBody, type Target } from './attempt.js';
import { bodyError, readBody, streamBody, timedBody, type BodyOf, type BodyReading } from './body.js';
import { DebugLog } from './debug-log.js';
import { describeNetworkFailure } from './network.js';
import { mayFollow, redirectTarget } from './redirects.js';
import { newRequestId, withRequestId } from './request-id.js';
import { IDEMPOTENT_METHODS, type Attempts } from './retry.js';
import { sendWithRetries } from './retrying.js';
import { statusText } from './status.js';

export interface HttpClientOptions {
  /** The one origin requests go to and are redirected within: the credentials are sent nowhere else. */
  origin: string;
  /** The host named in connection failures. */
  host: string;
  /** The Authorization header's value: sent on every request, never replaced by a caller's headers. */
  authorization: string;
  /** The one shared dispatcher (an undici Agent; a MockAgent in unit tests). */
  dispatcher: Dispatcher;
  userAgent: string;
  /** Largest response body accepted, in bytes. */
  maxResponseBytes: number;
  /** Bound on each attempt: connecting, waiting for the response, reading the whole body. */
  timeoutMs: number;
  /** Further attempts after a transient failure (0: none). */
  retries: number;
  /** Where debug lines go, when --debug is on. */
  debug?: (line: string) => void;
  /** Named in connection errors when requests go through a proxy (its variable, never its URL). */
  proxy?: string;
  /** A W3C trace context to send on as `traceparent` (TRACEPARENT, as CI systems set it). */
  traceparent?: string;
}

/**
 * One request. Retries follow the method: only an idempotent one (GET,
 * HEAD, PUT, DELETE, OPTIONS) is sent again after it may have reached the
 * service. `signal` stops retries (Ctrl-C); the attempt in flight still
 * finishes. `requestId` is its X-Request-Id (the same on every retry and
 * redirect); a fresh UUID when not given.
 */
export interface HttpRequest {
  /** Upper case. */
  method: Method;
  target: Target;
  /** More headers, lower-case names; they win over the client's own, apart from Authorization. */
  headers?: Record<string, string>;
  body?: RequestBody;
  signal?: AbortSignal;
  requestId?: string;
  /** Follow redirects within the origin (default); off, a 3xx is the answer. */
  followRedirects?: boolean;
}

/** The final answer to a request, whatever its status, its body unread unless `text` holds it. */
export interface HttpResponse extends BodyOf {
  /** The address that answered: the one asked for, or where redirects led. */
  readonly target: Target;
  /** For a 3xx not followed: where it pointed, when it is a redirect this method follows. */
  readonly redirect?: Target;
  /** How many redirects were followed before this answer. */
  readonly redirects: number;
  /** The request followed no redirect (followRedirects off). */
  readonly redirectsOff: boolean;
  /** Retries ended on a status worth another try (see RetriedAnswer): a failure, whatever the caller takes. */
  readonly unretried?: { note: string };
}

/**
 * HTTP over undici: one request path that adds the credentials and
 * identification headers, retries transient failures, follows redirects
 * within the origin, bounds every attempt in time (body included) and
 * size, and names the request in every error. It resolves with any final
 * status: what a status means is the caller's.
 *
 * Retries are sendWithRetries' (retrying.ts), not undici's retry interceptor:
 * the interceptor resumes cut bodies with Range requests, reads discarded
 * error bodies without a deadline, and its waits cannot be cancelled by Ctrl-C.
 */
export class HttpClient {
  readonly log: DebugLog;
  readonly #options: HttpClientOptions;
  readonly #reading: BodyReading;

  constructor(options: HttpClientOptions) {
    this.#options = options;
    this.log = new DebugLog(options.debug);
    const seconds = options.timeoutMs / 1000;
    this.#reading = {
      maxBytes: options.maxResponseBytes,
      log: this.log,
      host: options.host,
      // The attempt's time, as said after "within": the figure once, then where it comes from.
      deadline: `${seconds} s (--timeout ${seconds}; raise it with --timeout or PLANTS_TIMEOUT)`,
    };
  }

  /**
   * Send the request, retried (as its method allows) and redirected (within
   * the origin) as needed. Resolves with the final response, its body
   * unread; throws a NetworkError naming the request when no response came.
   */
  async request(request: HttpRequest): Promise<HttpResponse> {
    const requestId = request.requestId ?? newRequestId();
    const tries = { count: 0 };
    try {
      return await this.#sendFollowing(request, requestId, tries);
    } catch (err) {
      if (err instanceof CliError && err.attempts === null && tries.count > 0) err.attempts = tries.count;
      throw withRequestId(err, requestId);
    }
  }

  /** A response's body as it arrives, within the attempt's time and the size bound (errors as bodyError gives them). */
  body(response: BodyOf): AsyncIterable<Buffer> {
    return timedBody(response, this.#reading);
  }

  /** A response's body as it arrives, the response closed after (body.ts's streamBody). */
  streamBody(response: BodyOf): AsyncGenerator<Buffer> {
    return streamBody(response, this.#reading);
  }

  /** A response's whole body, the response closed after. */
  readBody(response: BodyOf): Promise<Buffer> {
    return readBody(response, this.#reading);
  }

  /** A failure while reading `response`'s body, as the error to throw. */
  bodyError(err: unknown, response: BodyOf): unknown {
    return bodyError(err, response, this.#reading);
  }

  async #sendFollowing(request: HttpRequest, requestId: string, tries: { count: number }): Promise<HttpResponse> {
    const { method, signal } = request;
    const following = request.followRedirects !== false;
    let target = request.target;
    for (let redirects = 0; ; redirects += 1) {
      // A query's values may be secrets (`plants api` passes any); plants' own `limit` is shown.
      const label = `${method} ${maskedUrl(target.href)}`;
      const { attempt, attempts, unretried } = await sendWithRetries({
        label,
        retries: this.#options.retries,
        idempotent: IDEMPOTENT_METHODS.has(method),
        signal,
        log: this.log,
        send: (attempts) => {
          tries.count = attempts.count;
          return this.#attempt(request, target, label, attempts, requestId);
        },
        describeFailure: (error) =>
          describeNetworkFailure(error, this.#options.host, this.#reading.deadline, this.#options.proxy),
      });
      const response = { attempt, label, attempts, requestId, target, redirects, redirectsOff: !following };
      if (unretried) return { ...response, text: unretried.text, unretried: { note: unretried.note } };
      const next = redirectTarget(method, attempt, target);
      if (!following || !mayFollow(next, this.#options.origin, redirects)) return { ...response, redirect: next };
      // Not read: a redirect's body says nothing, and a slow one would only cost time.
      attempt.close();
      if (this.log.on) {
        this.log.line(`following ${statusText(attempt.statusCode)} to ${maskedUrl(next.href)}`);
      }
      target = next;
    }
  }

  /** One attempt, its whole life (headers and body) bounded by the timeout. */
  #attempt(
    { method, headers: more, body }: HttpRequest,
    target: Target,
    label: string,
    attempts: Attempts,
    requestId: string,
  ): Promise<Attempt> {
    const { timeoutMs, userAgent, dispatcher, traceparent, authorization } = this.#options;
    const headers: Record<string, string> = {
      authorization,
      accept: 'application/json',
      // Bodies are read as sent (undici's request() decodes nothing); a compressed one is refused.
      'accept-encoding': 'identity',
      'user-agent': userAgent,
      'x-request-id': requestId,
    };
    if (traceparent) headers.traceparent = traceparent;
    // The caller's own (`plants api -H`), which never replace the credentials.
    if (more) Object.assign(headers, more, { authorization });
    if (this.log.on) this.log.line(`→ ${label}${attempts.count > 1 ? ` (attempt ${attempts.count})` : ''}`, headers);
    return Attempt.send({ dispatcher, method, target, headers, body, timeoutMs });
  }
}
