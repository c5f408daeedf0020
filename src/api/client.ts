import type { Dispatcher } from 'undici';
import { bodyText } from '../shared/charset.js';
import { redactToken } from '../secrets/redact.js';
import { BadResponseError, CliError, NetworkError, NotTheServiceError, RefusedError } from '../shared/errors.js';
import type { Redact } from '../shared/text.js';
import { ReadTimeoutError, TooLargeError } from '../shared/read-text.js';
import { Attempt, headerValue, type Method, type RequestBody, type Target } from '../http/attempt.js';
import { DEBUG_BODY_CHARACTERS, DebugLog } from '../http/debug-log.js';
import { describeHttpError, type HttpErrorFacts } from './http-error.js';
import { causeCode, describeNetworkFailure } from '../http/network.js';
import { streamPlantList, type PlantBatch } from './plant-stream.js';
import { mayFollow, redirectTarget } from '../http/redirects.js';
import { describeErrorBody, htmlSummary, mediaType, unaskedEncoding, type Plant } from './responses.js';
import { sendWithRetries } from '../http/retrying.js';
import { type Attempts, IDEMPOTENT_METHODS, statusText } from '../http/retry.js';
import { endpoint, formatBaseUrl, maskUrl } from '../shared/url.js';
import { printable } from '../shared/text.js';
import { boundYoungGeneration } from '../http/young-generation.js';
import { randomUUID } from '../shared/random.js';

export interface PlantStoreClientOptions {
  baseUrl: URL;
  token: string;
  /**
   * Said when the service refuses the token (401, 403): whose it is and how
   * to replace it. Default: how to log in or set PLANTS_TOKEN.
   */
  refusedToken?: string;
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
  /** Where a warning about a response goes (a list body that is not valid UTF-8), once per response. */
  warn?: (text: string) => void;
  /** Named in connection errors when requests go through a proxy (its variable, never its URL). */
  proxy?: string;
  /** A W3C trace context to send on as `traceparent` (TRACEPARENT, as CI systems set it). */
  traceparent?: string;
}

/**
 * Per request: `signal` stops retries (Ctrl-C); the attempt in flight still
 * finishes. `requestId` is its X-Request-Id (the same on every retry and
 * redirect); a fresh UUID when not given.
 */
interface RequestOptions {
  signal?: AbortSignal;
  requestId?: string;
}

/** What a successful DELETE answered. */
export interface DeleteResponse {
  status: number;
  /**
   * An earlier attempt may have acted (its response was lost, or was a
   * 500), so this one answers a repeated request: a 404 then means the
   * plant is gone, most likely deleted by that attempt, but it may never
   * have existed.
   */
  afterLostResponse: boolean;
  /** How many attempts it took. */
  attempts: number;
}

/**
 * One request, as every command sends it through `request()`: the method,
 * where, and what the caller's rules are. Retries follow the method: only
 * an idempotent one (GET, HEAD, PUT, DELETE, OPTIONS) is sent again after it
 * may have reached the service.
 */
export interface ServiceRequest extends RequestOptions {
  /** Upper case. */
  method: Method;
  /** Where: `address()` below the base URL, or a target on the base URL's origin (`plants api`). */
  target: Target;
  /** More headers, lower-case names; they win over plants' own, apart from the token's. */
  headers?: Record<string, string>;
  body?: RequestBody;
  /** The request names one plant: a 404 with the service's Error object says that plant is missing (exit 3), not that the address is wrong. */
  addressedPlant?: boolean;
  /**
   * A DELETE's lost-answer rule: when an earlier attempt's answer was lost
   * (or was a 500, after which the service may have made the change), a
   * 404 with the service's Error object to the repeated request counts as
   * success (`afterLostResponse`): that attempt most likely deleted it.
   */
  goneAfterLostAnswer?: boolean;
  /** Resolve with whatever final status came (`plants api` shows it) instead of throwing an HttpError for a non-2xx. */
  anyStatus?: boolean;
  /**
   * Follow same-origin redirects (default). Off for every DELETE: its path
   * was checked against the protections and named in the journal, and where
   * a redirect points was not.
   */
  followRedirects?: boolean;
}

/** An HTML document's start (its doctype, or an html, head, body or title element): a web page, not an API's answer. */
const HTML_DOCUMENT = /<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|title[\s>])/i;

/** A response to `request()`, its body not yet read: read it with `readBody()`, or close its attempt. */
export interface ServiceResponse {
  readonly attempt: Attempt;
  /** `METHOD url`, as the request is named in messages. */
  readonly label: string;
  readonly attempts: Attempts;
  readonly requestId: string;
  /** The address that answered: the one asked for, or where same-origin redirects led. */
  readonly target: Target;
  /** The body, when it had to be read already (a 404 after a lost answer): as much as an excerpt needs. */
  readonly text?: string;
  /**
   * A DELETE repeated after a lost answer (goneAfterLostAnswer) found the
   * plant missing: a 404 with the service's Error object, or a 410. A 404
   * without one (a router's) is not: what the lost attempt did stays unknown.
   */
  readonly gone?: boolean;
  /** For an unfollowed 3xx (anyStatus): where it pointed, when followable, and how many redirects came before. */
  readonly redirect?: Target;
  readonly redirects?: number;
  /** The request followed no redirect (a DELETE): said when it was one. */
  readonly redirectsOff?: boolean;
}

/**
 * The plant store service over undici: one request path that adds auth and
 * identification headers, retries transient failures, follows same-origin
 * redirects, bounds every attempt in time (body included) and size, and
 * turns every failure into a typed error naming the request.
 *
 * Retries are sendWithRetries' (retrying.ts), not undici's retry interceptor: the interceptor
 * resumes cut bodies with Range requests, reads discarded error bodies
 * without a deadline, and its waits cannot be cancelled by Ctrl-C.
 */
export class PlantStoreClient {
  readonly baseUrl: URL;
  readonly #base: { origin: string; pathname: string };
  readonly #token: string;
  readonly #options: PlantStoreClientOptions;

  constructor(options: PlantStoreClientOptions) {
    this.baseUrl = options.baseUrl;
    // Read once: a URL's getters build their strings on every read, and a bulk delete builds thousands of targets.
    this.#base = { origin: options.baseUrl.origin, pathname: options.baseUrl.pathname };
    this.#token = options.token;
    this.#options = options;
    this.#log = new DebugLog(options.debug, this.#redact);
  }

  /** GET /plants?limit=N: the validated list, every field of every item kept. */
  async listPlants(options: { limit?: number } & RequestOptions = {}): Promise<Plant[]> {
    const plants: Plant[] = [];
    for await (const batch of this.streamPlants(options)) plants.push(...batch);
    return plants;
  }

  /**
   * GET /plants?limit=N as the plants arrive, in batches, each plant
   * validated before it is yielded: memory holds a batch, not the whole
   * list. Stopping early (breaking out of the loop) closes the response.
   */
  async *streamPlants(
    options: { limit?: number; forDeletion?: boolean } & RequestOptions = {},
  ): AsyncGenerator<PlantBatch> {
    const asked = this.address(['plants'], { limit: options.limit });
    const response = await this.request({
      method: 'GET',
      target: asked,
      signal: options.signal,
      requestId: options.requestId,
    });
    const { attempt } = response;
    this.#checkNotMoved(asked, response, options.forDeletion ?? false);
    // The interface has no pages; a service that has them says so in a Link header (RFC 8288).
    if (!this.#nextPageSaid && NEXT_PAGE.test(headerValue(attempt.headers.link) ?? '')) {
      // Once a run: delete may list twice (the cap, then the names to show).
      this.#nextPageSaid = true;
      this.#options.warn?.(
        'the service says it has more plants than this answer holds (its Link header names a next page); plants reads this page only, so the list, prune and --max-deletes percentages see only these',
      );
    }
    try {
      yield* streamPlantList(
        this.#body(response),
        headerValue(attempt.headers['content-type']),
        this.#options.maxResponseBytes,
        this.#redact,
        options.limit,
        this.#options.warn,
      );
    } catch (err) {
      throw withRequestId(this.#bodyError(err, response), response.requestId);
    } finally {
      // Stopped early, or failed: close the response rather than read the rest.
      attempt.close();
    }
  }

  /**
   * A list that redirects led to another path than `/plants` (a trailing
   * slash aside) is another address's collection: a DELETE goes to
   * `/plants/{id}`, never where a redirect points, so deleting what it
   * names would act on ids of one collection at the address of another.
   * Refused before anything is deleted (`forDeletion`: delete's look-ups,
   * prune); for a list, a warning once a run.
   */
  #checkNotMoved(asked: Target, response: ServiceResponse, forDeletion: boolean): void {
    const collection = (target: Target) => target.path.replace(/[?#].*$/s, '').replace(/\/+$/, '');
    if (collection(response.target) === collection(asked)) return;
    const shown = (target: Target) => printable(maskUrl(this.#redact(target.href.replace(/[?#].*$/s, '')), true));
    const moved = `the service redirected the list from ${shown(asked)} to ${shown(response.target)}`;
    if (forDeletion) {
      response.attempt.close();
      throw new RefusedError(
        `${moved}: those are the plants of another address, and a DELETE goes only to ${shown(asked)}/<id>, never where a redirect points; point the base URL at the address the service moved to; nothing was deleted`,
      );
    }
    if (this.#movedSaid) return;
    this.#movedSaid = true;
    this.#options.warn?.(
      `${moved}; delete and prune refuse to act on it: point the base URL at the address the service moved to`,
    );
  }

  /**
   * A response's body as it arrives, within the attempt's time, shown by
   * --debug once read; a larger size declared than --max-response-size, and
   * a compressed body (never asked for), are refused. Errors as #bodyError takes them.
   */
  #body(response: ServiceResponse): AsyncIterable<Buffer> {
    const { attempt } = response;
    const limit = this.#options.maxResponseBytes;
    const declared = Number(headerValue(attempt.headers['content-length']));
    const refusal =
      unaskedEncoding(attempt.headers['content-encoding'], 'response') ??
      (declared > limit
        ? `the response is ${declared} bytes, more than --max-response-size (${limit} bytes); refusing it`
        : undefined);
    if (refusal) throw new BadResponseError(refusal);
    const contentType = headerValue(attempt.headers['content-type']);
    return boundYoungGeneration(this.#log.on ? this.#tapped(attempt.timedBody(), contentType) : attempt.timedBody());
  }

  /**
   * A response's whole body, within --max-response-size and the attempt's time; the response closed after.
   * An error response's compressed body (never asked for) is not read, and reads as empty: errorFor()
   * says it was not shown, and its status keeps its meaning (a 401 is still a refused token).
   */
  async readBody(response: ServiceResponse): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.streamBody(response)) {
      chunks.push(chunk);
      size += chunk.length;
    }
    return Buffer.concat(chunks, size);
  }

  /**
   * A response's body as it arrives (readBody's rules), for a caller that
   * passes it on without holding it: memory stays bounded whatever its size.
   * The response is closed once the body ends, fails, or the caller stops.
   */
  async *streamBody(response: ServiceResponse): AsyncGenerator<Buffer> {
    if (response.text !== undefined) {
      yield Buffer.from(response.text);
      return;
    }
    const { statusCode, headers } = response.attempt;
    if ((statusCode < 200 || statusCode >= 300) && unaskedEncoding(headers['content-encoding'], 'error body')) {
      response.attempt.close();
      return;
    }
    const limit = this.#options.maxResponseBytes;
    let size = 0;
    try {
      for await (const chunk of this.#body(response)) {
        size += chunk.length;
        if (size > limit) throw new TooLargeError(`larger than ${limit} bytes`);
        yield chunk;
      }
    } catch (err) {
      throw withRequestId(this.#bodyError(err, response), response.requestId);
    } finally {
      response.attempt.close();
    }
  }

  /**
   * A non-2xx response (from `anyStatus`) as the error it stands for: what
   * the service said (`text`, its body), the request, a hint. `addressedPlant`
   * as in ServiceRequest.
   */
  errorFor(response: ServiceResponse, text: string, addressedPlant = false): Error {
    const { attempt, label, attempts, requestId, redirect, redirects, redirectsOff } = response;
    const error = this.#httpError({
      response: attempt,
      label,
      attempts,
      addressedPlant,
      redirect,
      redirects,
      redirectsOff,
      text,
    });
    if (error instanceof CliError) error.attempts = attempts.count;
    return withRequestId(error, requestId) as Error;
  }

  /** A target below the base URL (its path prefix kept): each segment sent as one path segment. */
  address(segments: readonly string[], query?: Record<string, string | number | undefined>): Target {
    return endpoint(this.#base, segments, query);
  }

  /**
   * The list's body passed on as it comes, its start and size shown by
   * --debug once it has been read (decoded as the list is: charset.ts).
   */
  async *#tapped(body: AsyncIterable<Buffer>, contentType: string | undefined): AsyncGenerator<Buffer> {
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
      this.#log.body(bodyText(Buffer.concat(start), contentType), bytes);
    }
  }

  /** A failure while reading a response's body, as the error to throw. */
  #bodyError(err: unknown, response: ServiceResponse): unknown {
    const { attempt, label, attempts } = response;
    const where = `${label} → ${attempt.statusCode}`;
    if (err instanceof TooLargeError) {
      return new BadResponseError(
        `${where}: the response is ${err.message}, more than --max-response-size; refusing it`,
        attempt.statusCode,
      );
    }
    if (err instanceof BadResponseError) {
      return new BadResponseError(`${where}: ${this.#redact(err.message)}`, attempt.statusCode);
    }
    if (err instanceof ReadTimeoutError || attempt.timedOut) {
      return new NetworkError(
        `${label} failed: the response body did not arrive within ${this.#deadline()}${attempts.suffix()}`,
        true,
      );
    }
    const code = causeCode(err);
    // The response did arrive: what closed was its body.
    const cause =
      code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
        ? `the connection was closed by ${this.baseUrl.host} before the body ended (${code})`
        : describeNetworkFailure(err, this.baseUrl.host, this.#redact, this.#deadline()).message;
    return new BadResponseError(
      `${where}: the response body was cut short (${cause})${attempts.suffix()}`,
      attempt.statusCode,
    );
  }

  /**
   * DELETE /plants/{id}: any 2xx is success and its body is ignored. A 404
   * after an attempt whose response was lost is success too: that attempt
   * most likely deleted the plant. A redirect is not followed: it could
   * name another plant, or all of them.
   */
  async deletePlant(id: string, options: RequestOptions = {}): Promise<DeleteResponse> {
    const { attempt, attempts, text, label } = await this.request({
      method: 'DELETE',
      target: this.address(['plants', id]),
      addressedPlant: true,
      goneAfterLostAnswer: true,
      followRedirects: false,
      ...options,
    });
    // Nobody reads a DELETE's body, but to tell a web page (#notThePlantStore); --debug shows its
    // start (a 404 after a lost answer's, it has shown).
    if (text === undefined) {
      const type = mediaType(headerValue(attempt.headers['content-type']));
      // A 204, or a body of no bytes, holds no page: dropped unread, as a bulk delete's answers mostly are.
      const empty = attempt.statusCode === 204 || headerValue(attempt.headers['content-length']) === '0';
      const mayBePage = !empty && (type === '' || type === 'text/html' || type === 'application/xhtml+xml');
      if (this.#log.on || mayBePage) {
        const body = await attempt.errorText();
        this.#log.body(body);
        if (mayBePage && HTML_DOCUMENT.test(body.slice(0, 8192))) {
          attempt.close();
          throw this.#notThePlantStore(label, attempt.statusCode, body, attempts);
        }
      } else await attempt.discard();
    }
    attempt.close();
    return { status: attempt.statusCode, afterLostResponse: attempts.mayHaveActed, attempts: attempts.count };
  }

  /**
   * A DELETE's 2xx with an HTML page (a document: not any text sent as
   * text/html, as PHP sends every answer by default). No plant store
   * answers so; a web site does (a front end that serves any path, a
   * portal). Most likely the base URL is wrong and nothing was deleted, but
   * a 2xx came: the outcome is unknown, and a bulk run stops (as at a 404
   * without an Error object).
   */
  #notThePlantStore(label: string, status: number, page: string, attempts: Attempts): NotTheServiceError {
    const error = new NotTheServiceError(
      `${label} → ${statusText(status)}, but with an HTML page (${htmlSummary(page, this.#redact)}), not the plant store's answer${attempts.suffix()}; check the base URL (${formatBaseUrl(this.baseUrl)})`,
      status,
    );
    error.responseLost = true;
    return error;
  }

  /**
   * The one request path: the token and identification headers added, the
   * request retried (as its method allows) and redirected (same origin) as
   * needed. Resolves with the response, its body unread: a 2xx, a DELETE's
   * 404 after a lost answer (goneAfterLostAnswer), or with `anyStatus` any
   * final status; otherwise throws an HttpError naming the request.
   */
  async request(request: ServiceRequest): Promise<ServiceResponse> {
    const requestId = request.requestId ?? newRequestId();
    const tries = { count: 0 };
    try {
      return await this.#sendFollowing(request, requestId, tries);
    } catch (err) {
      if (err instanceof CliError && err.attempts === null && tries.count > 0) err.attempts = tries.count;
      throw withRequestId(err, requestId);
    }
  }

  async #sendFollowing(request: ServiceRequest, requestId: string, tries: { count: number }): Promise<ServiceResponse> {
    const { method, addressedPlant = false, signal } = request;
    let target = request.target;
    for (let redirects = 0; ; redirects += 1) {
      // A query's values may be secrets (`plants api` passes any); plants' own `limit` is shown.
      const label = `${method} ${maskUrl(this.#redact(target.href), true)}`;
      const { attempt, attempts } = await sendWithRetries({
        label,
        retries: this.#options.retries,
        idempotent: IDEMPOTENT_METHODS.has(method),
        signal,
        log: this.#log,
        send: (attempts) => {
          tries.count = attempts.count;
          return this.#attempt(request, target, label, attempts, requestId);
        },
        describeFailure: (error) =>
          describeNetworkFailure(error, this.baseUrl.host, this.#redact, this.#deadline(), this.#options.proxy),
        httpError: (response, attempts, text) => this.#httpError({ response, label, attempts, text }),
      });
      const response = { attempt, label, attempts, requestId, target };
      const status = attempt.statusCode;
      if (status >= 200 && status < 300) return response;
      if (request.goneAfterLostAnswer && (status === 404 || status === 410) && attempts.mayHaveActed) {
        // Gone only when the service says the plant is missing (its Error object, or 410 Gone); a
        // router's 404 says the address is wrong, and what the lost attempt did stays unknown.
        const text = await attempt.errorText();
        this.#log.body(text);
        const described = describeErrorBody(text, headerValue(attempt.headers['content-type']), this.#redact);
        if (status === 410 || described.error !== null) {
          this.#log.line(`${status} after a lost response or a 500: an earlier attempt most likely deleted it`);
          return { ...response, text, gone: true };
        }
        attempt.close();
        if (request.anyStatus) return { ...response, text };
        throw this.#httpError({ response: attempt, label, attempts, addressedPlant, redirects, text });
      }
      const next = redirectTarget(method, attempt, target);
      const following = request.followRedirects !== false;
      if (following && mayFollow(next, this.baseUrl.origin, redirects)) {
        // Not read: a redirect's body says nothing, and a slow one would only cost time.
        attempt.close();
        if (this.#log.on)
          this.#log.line(`following ${statusText(status)} to ${maskUrl(this.#redact(next.href), true)}`);
        target = next;
        continue;
      }
      if (request.anyStatus) return { ...response, redirect: next, redirects, redirectsOff: !following };
      const text = await attempt.errorText();
      this.#log.body(text);
      attempt.close();
      throw this.#httpError({
        response: attempt,
        label,
        attempts,
        addressedPlant,
        redirect: next,
        redirects,
        redirectsOff: !following,
        text,
      });
    }
  }

  /** One attempt, its whole life (headers and body) bounded by the timeout. */
  #attempt(
    { method, headers: more, body }: ServiceRequest,
    target: Target,
    label: string,
    attempts: Attempts,
    requestId: string,
  ): Promise<Attempt> {
    const { timeoutMs, userAgent, dispatcher, traceparent } = this.#options;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#token}`,
      accept: 'application/json',
      // Bodies are read as sent (undici's request() decodes nothing); a compressed one is refused.
      'accept-encoding': 'identity',
      'user-agent': userAgent,
      'x-request-id': requestId,
    };
    if (traceparent) headers.traceparent = traceparent;
    // The caller's own (`plants api -H`), which never include the token's header.
    if (more) Object.assign(headers, more, { authorization: headers.authorization });
    if (this.#log.on) this.#log.line(`→ ${label}${attempts.count > 1 ? ` (attempt ${attempts.count})` : ''}`, headers);
    return Attempt.send({ dispatcher, method, target, headers, body, timeoutMs });
  }

  #httpError(facts: Omit<HttpErrorFacts, 'baseUrl' | 'redact' | 'refusedToken'>): Error {
    return describeHttpError({
      ...facts,
      baseUrl: this.baseUrl,
      redact: this.#redact,
      refusedToken: this.#options.refusedToken,
    });
  }

  /** The attempt's time, as said after "within": the figure once, then where it comes from. */
  #deadline(): string {
    const seconds = this.#options.timeoutMs / 1000;
    return `${seconds} s (--timeout ${seconds}; raise it with --timeout or PLANTS_TIMEOUT)`;
  }

  /** Masks the token; a function value, since excerpts take it to mask before they cut. */
  readonly #redact: Redact = (text) => redactToken(text, this.#token);

  readonly #log: DebugLog;
  #nextPageSaid = false;
  /** A list's move to another address (#checkNotMoved) is said once a run. */
  #movedSaid = false;
}

/** A Link header naming a next page: `<…?page=2>; rel="next"` (rel may list several types). */
const NEXT_PAGE = /;\s*rel\s*=\s*(?:"(?:[^"]*\s)?next(?:\s[^"]*)?"|next(?=\s*(?:[;,]|$)))/i;

/** A fresh X-Request-Id: a random UUID, so a service's log line can be found for any outcome. */
export function newRequestId(): string {
  return randomUUID();
}

/** The error, naming the request it came from (the first request named wins: the innermost). */
function withRequestId(err: unknown, requestId: string): unknown {
  if (err instanceof CliError && err.requestId === null) err.requestId = requestId;
  return err;
}
