import type { Dispatcher } from 'undici';
import { redactToken } from '../config/settings.js';
import { BadResponseError, HttpError, NetworkError, type ServiceError } from '../errors.js';
import { excerpt, type Redact } from '../output/text.js';
import { readText, ReadTimeoutError, TooLargeError } from '../read-text.js';
import { causeCode, describeNetworkFailure } from './network.js';
import { streamPlantList, type PlantBatch } from './plant-stream.js';
import { boundYoungGeneration } from './young-generation.js';
import { describeErrorBody, describeOtherThreeHundred, unaskedEncoding, type Plant } from './responses.js';
import {
  Attempts,
  backoffMs,
  LOST_RESPONSE_CODES,
  LOST_RESPONSE_STATUSES,
  RETRY_ERROR_CODES,
  RETRY_STATUSES,
  retryAfterMs,
  statusText,
} from './retry.js';
import { endpoint, formatBaseUrl, maskUrl } from './url.js';

export interface PlantStoreClientOptions {
  baseUrl: URL;
  token: string;
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
}

/** Per request: `signal` stops retries (Ctrl-C); the attempt in flight still finishes. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** What a successful DELETE answered. */
export interface DeleteResponse {
  status: number;
  /**
   * The response to an earlier attempt was lost, so this one answers a
   * repeated request: a 404 then means the plant is gone, most likely
   * deleted by that attempt, but it may never have existed.
   */
  afterLostResponse: boolean;
}

type Method = 'GET' | 'DELETE';
type Target = { origin: string; path: string; href: string };
/**
 * A response and its attempt's deadline: aborted when the attempt has taken
 * longer than the timeout. `networkTimeLeft()` is what remains of it; a
 * streamed body takes the deadline over (see #timedBody) so that time spent
 * waiting for the reader of the output does not count.
 */
type Response = Dispatcher.ResponseData & { deadline: Deadline; networkTimeLeft(): number; stopDeadline(): void };

/**
 * An attempt's deadline: a standard AbortSignal for undici, aborted with a
 * TimeoutError when the time is up, so the request or its body fails.
 * (AbortSignal.timeout would do, but cannot be stopped once the attempt is
 * over, and costs more per request in a bulk delete.)
 */
class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;

  constructor(ms: number) {
    this.#timer = setTimeout(() => this.#controller.abort(new DOMException('attempt timed out', 'TimeoutError')), ms);
    this.#timer.unref();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#controller.signal.aborted;
  }

  stop(): void {
    clearTimeout(this.#timer);
  }
}

/** Error bodies are only shown as an excerpt; more than this is never needed. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** A DELETE is only sent on to where 307 and 308 point: the others may change the method or the meaning. */
const DELETE_REDIRECT_STATUSES = new Set([307, 308]);

const AUTH_HINT = "run 'plants auth login' or set PLANTS_TOKEN";

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The plant store service over undici: one request path that adds auth and
 * identification headers, retries transient failures, follows same-origin
 * redirects, bounds every attempt in time (body included) and size, and
 * turns every failure into a typed error naming the request.
 *
 * Retries are this loop's, not undici's retry interceptor: the interceptor
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
  async *streamPlants(options: { limit?: number } & RequestOptions = {}): AsyncGenerator<PlantBatch> {
    const target = endpoint(this.#base, ['plants'], { limit: options.limit });
    const { response, label, attempts } = await this.#send('GET', target, false, options.signal);
    const where = `${label} → ${response.statusCode}`;
    const limit = this.#options.maxResponseBytes;
    const declared = Number(headerValue(response.headers['content-length']));
    const refusal =
      unaskedEncoding(response.headers['content-encoding'], 'response') ??
      (declared > limit ? `the response is ${declared} bytes, more than --max-response-size (${limit} bytes); refusing it` : undefined);
    if (refusal) {
      response.body.on('error', () => {}).destroy();
      response.stopDeadline();
      throw new BadResponseError(`${where}: ${this.#redact(refusal)}`, response.statusCode);
    }
    try {
      const body = boundYoungGeneration(this.#timedBody(response));
      yield* streamPlantList(body, headerValue(response.headers['content-type']), limit, this.#redact, options.limit);
    } catch (err) {
      if (err instanceof TooLargeError) {
        throw new BadResponseError(
          `${where}: the response is ${err.message}, more than --max-response-size; refusing it`,
          response.statusCode,
        );
      }
      if (err instanceof BadResponseError) {
        throw new BadResponseError(`${where}: ${this.#redact(err.message)}`, response.statusCode);
      }
      if (err instanceof ReadTimeoutError || response.deadline.aborted) {
        throw new NetworkError(`${label} failed: the response body did not arrive ${this.#timeoutText()}${attempts.suffix()}`, true);
      }
      const failure = describeNetworkFailure(err, this.baseUrl.host, this.#redact);
      throw new BadResponseError(
        `${where}: the response body was cut short (${failure.message})${attempts.suffix()}`,
        response.statusCode,
      );
    } finally {
      // Stopped early, or failed: close the response rather than read the rest.
      if (!response.body.readableEnded) response.body.on('error', () => {}).destroy();
    }
  }

  /**
   * DELETE /plants/{id}: any 2xx is success and its body is ignored. A 404
   * after an attempt whose response was lost is success too: that attempt
   * most likely deleted the plant.
   */
  async deletePlant(id: string, options: RequestOptions = {}): Promise<DeleteResponse> {
    const { response, attempts } = await this.#send('DELETE', endpoint(this.#base, ['plants', id]), true, options.signal);
    await this.#discard(response);
    response.stopDeadline();
    return { status: response.statusCode, afterLostResponse: attempts.responseMayBeLost };
  }

  async #send(
    method: Method,
    first: Target,
    addressedPlant: boolean,
    signal: AbortSignal | undefined,
  ): Promise<{ response: Response; label: string; attempts: Attempts }> {
    let target = first;
    for (let redirects = 0; ; redirects += 1) {
      // A redirect's target is the service's: its userinfo, query and fragment may be secrets.
      const label = `${method} ${redirects === 0 ? target.href : maskUrl(target.href)}`;
      const { response, attempts } = await this.#withRetries(method, target, label, signal);
      const status = response.statusCode;
      if (status >= 200 && status < 300) return { response, label, attempts };
      if (method === 'DELETE' && status === 404 && attempts.responseMayBeLost) {
        this.#debug('404 after a lost response: an earlier attempt deleted it');
        return { response, label, attempts };
      }
      const next = this.#redirectTarget(method, response, target);
      if (next && next.origin === this.baseUrl.origin && redirects < MAX_REDIRECTS) {
        // Not read: a redirect's body says nothing, and a slow one would only cost time.
        response.body.on('error', () => {}).destroy();
        response.stopDeadline();
        if (this.#options.debug) this.#debug(`following ${statusText(status)} to ${maskUrl(next.href)}`);
        target = next;
        continue;
      }
      const text = await this.#errorText(response);
      response.stopDeadline();
      throw this.#httpError(response, label, attempts, addressedPlant, next, redirects, text);
    }
  }

  /** One request, tried again after transient failures while retries and the caller allow. */
  async #withRetries(
    method: Method,
    target: Target,
    label: string,
    signal: AbortSignal | undefined,
  ): Promise<{ response: Response; attempts: Attempts }> {
    const attempts = new Attempts();
    for (;;) {
      const started = Date.now();
      let outcome: { response: Response } | { error: unknown };
      try {
        outcome = { response: await this.#attempt(method, target, label, attempts) };
      } catch (error) {
        outcome = { error };
      }
      const more = attempts.count <= this.#options.retries && !signal?.aborted;
      if ('response' in outcome) {
        const { response } = outcome;
        if (this.#options.debug) this.#debug(`← ${statusText(response.statusCode)} in ${Date.now() - started} ms`, response.headers);
        if (!RETRY_STATUSES.has(response.statusCode) || !more) return { response, attempts };
        // Keep what it said, in case Ctrl-C makes this the last answer.
        const text = await this.#errorText(response);
        response.stopDeadline();
        if (LOST_RESPONSE_STATUSES.has(response.statusCode)) attempts.responseMayBeLost = true;
        attempts.lastCause = statusText(response.statusCode);
        if (!(await this.#wait(retryAfterMs(headerValue(response.headers['retry-after'])), attempts, signal))) {
          throw this.#httpError(response, label, attempts, false, undefined, 0, text);
        }
        continue;
      }
      const code = causeCode(outcome.error);
      const failure = describeNetworkFailure(outcome.error, this.baseUrl.host, this.#redact, this.#options.proxy);
      const message = failure.timeout ? `${failure.message} ${this.#timeoutText()}` : failure.message;
      this.#debug(`✗ ${message} after ${Date.now() - started} ms`);
      const retry = RETRY_ERROR_CODES.has(code) && more;
      if (retry) {
        if (LOST_RESPONSE_CODES.has(code)) attempts.responseMayBeLost = true;
        attempts.lastCause = failure.message;
      }
      if (!retry || !(await this.#wait(undefined, attempts, signal))) {
        const tries = attempts.count > 1 ? ` after ${attempts.count} attempts` : '';
        const error = new NetworkError(`${label} failed${tries}: ${message}`, failure.timeout);
        // This attempt's own loss counts too: the request was sent, the answer never came.
        error.responseLost = attempts.responseMayBeLost || LOST_RESPONSE_CODES.has(code);
        throw error;
      }
    }
  }

  /**
   * Wait before the next attempt. False when Ctrl-C (the signal) ended the
   * wait: no further attempt is sent, and the last outcome stands.
   */
  async #wait(retryAfter: number | undefined, attempts: Attempts, signal: AbortSignal | undefined): Promise<boolean> {
    const wait = retryAfter ?? backoffMs(attempts.count);
    this.#debug(`retrying in ${wait} ms after ${attempts.lastCause} (attempt ${attempts.count + 1} of ${this.#options.retries + 1})`);
    try {
      // Loaded here, on the first retry: most runs never wait.
      const { setTimeout: sleep } = process.getBuiltinModule('node:timers/promises');
      await sleep(wait, undefined, { signal });
    } catch {
      this.#debug('retry cancelled by Ctrl-C');
      return false;
    }
    attempts.count += 1;
    return true;
  }

  /** One attempt, its whole life (headers and body) bounded by the timeout. */
  async #attempt(method: Method, target: Target, label: string, attempts: Attempts): Promise<Response> {
    const { timeoutMs, userAgent } = this.#options;
    const headers = {
      authorization: `Bearer ${this.#token}`,
      accept: 'application/json',
      // Bodies are read as sent (undici's request() decodes nothing); a compressed one is refused.
      'accept-encoding': 'identity',
      'user-agent': userAgent,
    };
    if (this.#options.debug) this.#debug(`→ ${label}${attempts.count > 1 ? ` (attempt ${attempts.count})` : ''}`, headers);
    const started = Date.now();
    const deadline = new Deadline(timeoutMs);
    // dispatcher.request takes origin and path as they are; undici's
    // top-level request() would re-parse the URL and resolve %2E%2E.
    const response = await this.#options.dispatcher.request({
      origin: target.origin,
      path: target.path,
      method,
      headers,
      headersTimeout: timeoutMs,
      // The attempt's deadline bounds the body (see #timedBody); undici's idle
      // timer would also fire while a slow reader of the output holds it back.
      bodyTimeout: 0,
      signal: deadline.signal,
    });
    return Object.assign(response, {
      deadline,
      networkTimeLeft: () => timeoutMs - (Date.now() - started),
      stopDeadline: () => deadline.stop(),
    });
  }

  /**
   * The body, with the rest of the attempt's time spent only on waiting for
   * the network: a list streamed into a slow reader (\`| less\`) is not cut
   * off, a service that trickles its body still is.
   */
  async *#timedBody(response: Response): AsyncGenerator<Buffer> {
    let left = response.networkTimeLeft();
    response.stopDeadline();
    const chunks = response.body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    for (;;) {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new ReadTimeoutError('the body did not arrive in time')), Math.max(0, left));
      });
      let next: IteratorResult<Buffer>;
      try {
        next = await Promise.race([chunks.next(), expired]);
      } finally {
        clearTimeout(timer);
      }
      left -= Date.now() - started;
      if (next.done) return;
      yield next.value;
    }
  }

  /** Throw a body away, within the attempt's deadline (its signal aborts a stalled one). */
  async #discard(response: Response): Promise<void> {
    try {
      await response.body.dump({ limit: MAX_ERROR_BODY_BYTES });
    } catch {
      // Nothing in it was wanted.
    }
  }

  #redirectTarget(method: Method, response: Dispatcher.ResponseData, current: Target): Target | undefined {
    const location = headerValue(response.headers.location);
    const followed = method === 'DELETE' ? DELETE_REDIRECT_STATUSES : REDIRECT_STATUSES;
    if (!followed.has(response.statusCode) || !location) return undefined;
    try {
      const url = new URL(location, current.href);
      return { origin: url.origin, path: url.pathname + url.search, href: url.href };
    } catch {
      return undefined;
    }
  }

  /** An error response's body, as much as an excerpt needs, within the attempt's deadline. */
  async #errorText(response: Response): Promise<string> {
    try {
      return await readText(response.body, MAX_ERROR_BODY_BYTES, { truncate: true });
    } catch {
      return response.deadline.aborted ? '(the error body did not arrive in time)' : '';
    }
  }

  #httpError(
    response: Response,
    label: string,
    attempts: Attempts,
    addressedPlant: boolean,
    redirect: Target | undefined,
    redirects: number,
    text: string,
  ): HttpError {
    const status = response.statusCode;
    const serviceError = this.#serviceError(status, text, response.headers, redirect, redirects);
    const code = serviceError.error === null ? '' : ` (error ${serviceError.error})`;
    let message = `${label} → ${statusText(status)}: ${serviceError.message}${code}${attempts.suffix()}`;
    if (status === 401 || status === 403) message += `; ${AUTH_HINT}`;
    if (status === 404 && !addressedPlant) message += `; check the base URL (${formatBaseUrl(this.baseUrl)})`;
    const error = new HttpError(message, status, serviceError, addressedPlant);
    error.responseLost = attempts.responseMayBeLost || LOST_RESPONSE_STATUSES.has(status);
    return error;
  }

  /** What the service said, normalised, with the token masked (it goes to stdout in delete --json). */
  #serviceError(
    status: number,
    text: string,
    headers: Dispatcher.ResponseData['headers'],
    redirect: Target | undefined,
    redirects: number,
  ): ServiceError {
    if (status >= 300 && status < 400) {
      const location = excerpt(maskUrl(headerValue(headers.location) ?? ''), 200, this.#redact);
      let message: string;
      if (!REDIRECT_STATUSES.has(status)) {
        message = describeOtherThreeHundred(status, location);
      } else if (!redirect) {
        message = location ? `redirect to ${location} not followed` : 'redirect without a Location header';
      } else if (redirect.origin !== this.baseUrl.origin) {
        message = `redirected to ${location}, another origin; not followed, since the request carries the token (point the base URL at the final address)`;
      } else {
        message = `more than ${MAX_REDIRECTS} redirects (${redirects} followed); last to ${location}`;
      }
      return { error: null, message: this.#redact(message) };
    }
    const encoded = unaskedEncoding(headers['content-encoding'], 'error body');
    if (encoded) return { error: null, message: this.#redact(`${encoded}; not shown`) };
    // Some gateways echo the Authorization header back in their error text.
    const described = describeErrorBody(text, headerValue(headers['content-type']), this.#redact);
    return { ...described, message: this.#redact(described.message) };
  }

  #timeoutText(): string {
    const seconds = this.#options.timeoutMs / 1000;
    return `within ${seconds} s (--timeout ${seconds}; raise it with --timeout or PLANTS_TIMEOUT)`;
  }

  /** Masks the token; a function value, since excerpts take it to mask before they cut. */
  readonly #redact: Redact = (text) => redactToken(text, this.#token);

  #debug(line: string, headers?: Record<string, string | string[] | undefined>): void {
    const write = this.#options.debug;
    if (!write) return;
    write(this.#redact(line));
    for (const [name, value] of Object.entries(headers ?? {})) {
      const lower = name.toLowerCase();
      const text = lower === 'location' || lower === 'content-location' ? maskUrl(String(value)) : String(value);
      const shown = lower === 'authorization' ? 'Bearer ***' : excerpt(text, 300, this.#redact);
      write(this.#redact(`  ${name}: ${shown}`));
    }
  }
}
