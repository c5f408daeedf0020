import { interceptors, type Dispatcher, type RetryHandler } from 'undici';
import { redactToken } from '../config/settings.js';
import { BadResponseError, HttpError, NetworkError, type ServiceError } from '../errors.js';
import { excerpt } from '../output/text.js';
import { readText, ReadTimeoutError, TooLargeError } from '../read-text.js';
import { causeCode, describeNetworkFailure } from './network.js';
import { describeErrorBody, parsePlantList, type Plant } from './responses.js';
import {
  Attempts,
  backoffMs,
  LOST_RESPONSE_CODES,
  RETRY_ERROR_CODES,
  RETRY_STATUSES,
  retryAfterMs,
  statusText,
} from './retry.js';
import { endpoint, formatBaseUrl } from './url.js';

export interface PlantStoreClientOptions {
  baseUrl: URL;
  token: string;
  /** The one shared dispatcher (an undici Agent; a MockAgent in unit tests). */
  dispatcher: Dispatcher;
  userAgent: string;
  /** Largest response body accepted, in bytes. */
  maxResponseBytes: number;
  /** Bound on each attempt: connecting, waiting for the response, reading the body. */
  timeoutMs: number;
  /** Further attempts after a transient failure (0: none). */
  retries: number;
  /** Where debug lines go, when --debug is on. */
  debug?: (line: string) => void;
}

/** What a successful DELETE answered. */
export interface DeleteResponse {
  status: number;
}

type Method = 'GET' | 'DELETE';
type Target = { origin: string; path: string; href: string };

/** Error bodies are only shown as an excerpt; more than this is never needed. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const AUTH_HINT = "run 'plants auth login' or set PLANTS_TOKEN";

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The plant store service over undici: one request path that adds auth and
 * identification headers, retries transient failures (undici's retry
 * interceptor, with this client's policy), follows same-origin redirects,
 * bounds time and size, and turns every failure into a typed error naming
 * the request.
 */
export class PlantStoreClient {
  readonly baseUrl: URL;
  readonly #token: string;
  readonly #dispatcher: Dispatcher;
  readonly #options: PlantStoreClientOptions;

  constructor(options: PlantStoreClientOptions) {
    this.baseUrl = options.baseUrl;
    this.#token = options.token;
    this.#options = options;
    this.#dispatcher = options.dispatcher.compose(interceptors.retry());
  }

  /** GET /plants?limit=N: the validated list, every field of every item kept. */
  async listPlants(options: { limit?: number } = {}): Promise<Plant[]> {
    const { response, label, attempts } = await this.#send('GET', endpoint(this.baseUrl, ['plants'], { limit: options.limit }));
    const where = `${label} → ${response.statusCode}`;
    const limit = this.#options.maxResponseBytes;
    const declared = Number(headerValue(response.headers['content-length']));
    if (declared > limit) {
      response.body.on('error', () => {}).destroy();
      throw new BadResponseError(
        `${where}: the response is ${declared} bytes, more than --max-response-size (${limit} bytes); refusing it`,
        response.statusCode,
      );
    }
    let text: string;
    try {
      const left = this.#options.timeoutMs - (Date.now() - attempts.startedAt);
      text = await readText(response.body, limit, { timeoutMs: left });
    } catch (err) {
      if (err instanceof TooLargeError) {
        throw new BadResponseError(
          `${where}: the response is ${err.message}, more than --max-response-size; refusing it`,
          response.statusCode,
        );
      }
      if (err instanceof ReadTimeoutError) {
        throw new NetworkError(`${label} failed: the response body did not arrive ${this.#timeoutText()}`, true);
      }
      const failure = describeNetworkFailure(err, this.baseUrl.host);
      if (failure.timeout) throw new NetworkError(`${label} failed: ${failure.message} ${this.#timeoutText()}`, true);
      throw new BadResponseError(`${where}: the response body was cut short (${failure.message})`, response.statusCode);
    }
    try {
      return parsePlantList(text, headerValue(response.headers['content-type']));
    } catch (err) {
      if (err instanceof BadResponseError) {
        throw new BadResponseError(`${where}: ${this.#redact(err.message)}`, response.statusCode);
      }
      throw err;
    }
  }

  /**
   * DELETE /plants/{id}: any 2xx is success and its body is ignored. A 404
   * after an attempt whose response was lost is success too: that attempt
   * most likely deleted the plant.
   */
  async deletePlant(id: string): Promise<DeleteResponse> {
    const { response } = await this.#send('DELETE', endpoint(this.baseUrl, ['plants', id]), true);
    await response.body.dump();
    return { status: response.statusCode };
  }

  async #send(
    method: Method,
    first: Target,
    addressedPlant = false,
  ): Promise<{ response: Dispatcher.ResponseData; label: string; attempts: Attempts }> {
    let target = first;
    for (let redirects = 0; ; redirects += 1) {
      const label = `${method} ${target.href}`;
      const attempts = new Attempts();
      const response = await this.#request(method, target, label, attempts);
      const status = response.statusCode;
      if (status >= 200 && status < 300) return { response, label, attempts };
      if (method === 'DELETE' && status === 404 && attempts.responseMayBeLost) {
        this.#debug(`404 after a lost response: an earlier attempt deleted it`);
        return { response, label, attempts };
      }
      const next = this.#redirectTarget(response, target);
      if (next && next.origin === this.baseUrl.origin && redirects < MAX_REDIRECTS) {
        await response.body.dump();
        this.#debug(`following ${statusText(status)} to ${next.href}`);
        target = next;
        continue;
      }
      throw await this.#httpError(response, label, attempts, addressedPlant, next, redirects);
    }
  }

  #redirectTarget(response: Dispatcher.ResponseData, current: Target): Target | undefined {
    const location = headerValue(response.headers.location);
    if (!REDIRECT_STATUSES.has(response.statusCode) || !location) return undefined;
    try {
      const url = new URL(location, current.href);
      return { origin: url.origin, path: url.pathname + url.search, href: url.href };
    } catch {
      return undefined;
    }
  }

  async #request(method: Method, target: Target, label: string, attempts: Attempts): Promise<Dispatcher.ResponseData> {
    const { timeoutMs, retries, userAgent } = this.#options;
    const headers = {
      authorization: `Bearer ${this.#token}`,
      accept: 'application/json',
      'user-agent': userAgent,
    };
    const started = Date.now();
    this.#debug(`→ ${label}`, headers);
    try {
      // dispatcher.request takes origin and path as they are; undici's
      // top-level request() would re-parse the URL and resolve %2E%2E.
      const retryOptions: RetryHandler.RetryOptions = {
        // Let the last response through (with its body) instead of an error.
        throwOnError: false,
        maxRetries: retries,
        methods: ['GET', 'DELETE'],
        retry: (err, { state }, next) => this.#retryPolicy(err, state.counter, attempts, next),
      };
      const request: Dispatcher.RequestOptions & { retryOptions: RetryHandler.RetryOptions } = {
        origin: target.origin,
        path: target.path,
        method,
        headers,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        retryOptions,
      };
      const response = await this.#dispatcher.request(request);
      this.#debug(`← ${statusText(response.statusCode)} in ${Date.now() - started} ms${attempts.suffix()}`, response.headers);
      return response;
    } catch (err) {
      const failure = describeNetworkFailure(err, this.baseUrl.host);
      const message = failure.timeout ? `${failure.message} ${this.#timeoutText()}` : failure.message;
      this.#debug(`✗ ${message} after ${Date.now() - started} ms${attempts.suffix()}`);
      const tries = attempts.count > 1 ? ` after ${attempts.count} attempts` : '';
      throw new NetworkError(`${label} failed${tries}: ${message}`, failure.timeout);
    }
  }

  /** Decide whether a failed attempt is tried again, and when. */
  #retryPolicy(err: Error, counter: number, attempts: Attempts, next: (stop?: Error | null) => void): void {
    const { statusCode, headers } = err as Error & { statusCode?: number; headers?: Record<string, string | string[]> };
    const code = statusCode === undefined ? causeCode(err) : '';
    const retryable = statusCode === undefined ? RETRY_ERROR_CODES.has(code) : RETRY_STATUSES.has(statusCode);
    if (!retryable || counter > this.#options.retries) {
      next(err);
      return;
    }
    const wait = (statusCode === undefined ? undefined : retryAfterMs(headers?.['retry-after'])) ?? backoffMs(counter);
    attempts.lastCause = statusCode === undefined ? describeNetworkFailure(err, this.baseUrl.host).message : statusText(statusCode);
    if (LOST_RESPONSE_CODES.has(code)) attempts.responseMayBeLost = true;
    this.#debug(`retrying in ${wait} ms after ${attempts.lastCause} (attempt ${attempts.count + 1} of ${this.#options.retries + 1})`);
    setTimeout(() => {
      attempts.count += 1;
      attempts.startedAt = Date.now();
      next(null);
    }, wait);
  }

  async #httpError(
    response: Dispatcher.ResponseData,
    label: string,
    attempts: Attempts,
    addressedPlant: boolean,
    redirect: Target | undefined,
    redirects: number,
  ): Promise<HttpError> {
    const status = response.statusCode;
    let text = '';
    try {
      text = await readText(response.body, MAX_ERROR_BODY_BYTES, { truncate: true, timeoutMs: this.#options.timeoutMs });
    } catch {
      // The status already says what went wrong; a broken error body adds nothing.
    }
    const serviceError = this.#serviceError(status, text, response.headers, redirect, redirects);
    const code = serviceError.error === null ? '' : ` (error ${serviceError.error})`;
    let message = `${label} → ${statusText(status)}: ${serviceError.message}${code}${attempts.suffix()}`;
    if (status === 401 || status === 403) message += `; ${AUTH_HINT}`;
    if (status === 404 && !addressedPlant) message += `; check the base URL (${formatBaseUrl(this.baseUrl)})`;
    return new HttpError(message, status, serviceError, addressedPlant);
  }

  #serviceError(
    status: number,
    text: string,
    headers: Dispatcher.ResponseData['headers'],
    redirect: Target | undefined,
    redirects: number,
  ): ServiceError {
    if (REDIRECT_STATUSES.has(status) || (status >= 300 && status < 400)) {
      const location = excerpt(headerValue(headers.location) ?? '');
      let message: string;
      if (!redirect) message = location ? `redirect to ${location} not followed` : 'redirect without a Location header';
      else if (redirect.origin !== this.baseUrl.origin) {
        message = `redirected to ${location}, another origin; not followed, since the request carries the token (point the base URL at the final address)`;
      } else message = `more than ${MAX_REDIRECTS} redirects (${redirects} followed); last to ${location}`;
      return { error: null, message };
    }
    const described = describeErrorBody(text, headerValue(headers['content-type']));
    // Some gateways echo the Authorization header back in their error text.
    return { ...described, message: this.#redact(described.message) };
  }

  #timeoutText(): string {
    const seconds = this.#options.timeoutMs / 1000;
    return `within ${seconds} s (--timeout ${seconds}; raise it with --timeout or PLANTS_TIMEOUT)`;
  }

  #redact(text: string): string {
    return redactToken(text, this.#token);
  }

  #debug(line: string, headers?: Record<string, string | string[] | undefined>): void {
    const write = this.#options.debug;
    if (!write) return;
    write(this.#redact(line));
    for (const [name, value] of Object.entries(headers ?? {})) {
      const shown = name.toLowerCase() === 'authorization' ? 'Bearer ***' : excerpt(String(value), 300);
      write(`  ${name}: ${this.#redact(shown)}`);
    }
  }
}
