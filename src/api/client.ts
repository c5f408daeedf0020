import type { Dispatcher } from 'undici';
import { redactToken } from '../shared/redact.js';
import { BadResponseError, CliError, NetworkError } from '../errors.js';
import type { Redact } from '../shared/text.js';
import { ReadTimeoutError, TooLargeError } from '../read-text.js';
import { Attempt, headerValue, type Method, type Target } from './attempt.js';
import { DEBUG_BODY_CHARACTERS, DebugLog } from './debug-log.js';
import { describeHttpError, type HttpErrorFacts } from './http-error.js';
import { describeNetworkFailure } from './network.js';
import { streamPlantList, type PlantBatch } from './plant-stream.js';
import { mayFollow, redirectTarget } from './redirects.js';
import { describeErrorBody, unaskedEncoding, type Plant } from './responses.js';
import { sendWithRetries } from './retrying.js';
import { type Attempts, statusText } from './retry.js';
import { endpoint, maskUrl } from '../shared/url.js';
import { boundYoungGeneration } from './young-generation.js';

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
interface DeleteResponse {
  status: number;
  /**
   * The response to an earlier attempt was lost, so this one answers a
   * repeated request: a 404 then means the plant is gone, most likely
   * deleted by that attempt, but it may never have existed.
   */
  afterLostResponse: boolean;
  /** How many attempts it took. */
  attempts: number;
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
  async *streamPlants(options: { limit?: number } & RequestOptions = {}): AsyncGenerator<PlantBatch> {
    const target = endpoint(this.#base, ['plants'], { limit: options.limit });
    const requestId = options.requestId ?? newRequestId();
    const { attempt, label, attempts } = await this.#send('GET', target, false, options.signal, requestId);
    const where = `${label} → ${attempt.statusCode}`;
    const limit = this.#options.maxResponseBytes;
    const declared = Number(headerValue(attempt.headers['content-length']));
    const refusal =
      unaskedEncoding(attempt.headers['content-encoding'], 'response') ??
      (declared > limit
        ? `the response is ${declared} bytes, more than --max-response-size (${limit} bytes); refusing it`
        : undefined);
    if (refusal) {
      attempt.close();
      throw withRequestId(new BadResponseError(`${where}: ${this.#redact(refusal)}`, attempt.statusCode), requestId);
    }
    try {
      const body = boundYoungGeneration(this.#log.on ? this.#tapped(attempt.timedBody()) : attempt.timedBody());
      yield* streamPlantList(body, headerValue(attempt.headers['content-type']), limit, this.#redact, options.limit);
    } catch (err) {
      throw withRequestId(this.#bodyError(err, where, label, attempt, attempts), requestId);
    } finally {
      // Stopped early, or failed: close the response rather than read the rest.
      attempt.close();
    }
  }

  /** The list's body passed on as it comes, its start and size shown by --debug once it has been read. */
  async *#tapped(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
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
      this.#log.body(Buffer.concat(start).toString('utf8'), bytes);
    }
  }

  /** A failure while reading the list's body, as the error to throw. */
  #bodyError(err: unknown, where: string, label: string, attempt: Attempt, attempts: Attempts): unknown {
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
    const failure = describeNetworkFailure(err, this.baseUrl.host, this.#redact, this.#deadline());
    return new BadResponseError(
      `${where}: the response body was cut short (${failure.message})${attempts.suffix()}`,
      attempt.statusCode,
    );
  }

  /**
   * DELETE /plants/{id}: any 2xx is success and its body is ignored. A 404
   * after an attempt whose response was lost is success too: that attempt
   * most likely deleted the plant.
   */
  async deletePlant(id: string, options: RequestOptions = {}): Promise<DeleteResponse> {
    const { attempt, attempts } = await this.#send(
      'DELETE',
      endpoint(this.#base, ['plants', id]),
      true,
      options.signal,
      options.requestId ?? newRequestId(),
    );
    // Nobody reads a DELETE's body; --debug shows its start.
    if (this.#log.on) this.#log.body(await attempt.errorText());
    else await attempt.discard();
    attempt.close();
    return { status: attempt.statusCode, afterLostResponse: attempts.responseMayBeLost, attempts: attempts.count };
  }

  /** A request, retried and redirected as needed: resolves with a 2xx response (or a DELETE's 404 after a lost response), unread. */
  async #send(
    method: Method,
    first: Target,
    addressedPlant: boolean,
    signal: AbortSignal | undefined,
    requestId: string,
  ): Promise<{ attempt: Attempt; label: string; attempts: Attempts }> {
    const tries = { count: 0 };
    try {
      return await this.#sendFollowing(method, first, addressedPlant, signal, requestId, tries);
    } catch (err) {
      if (err instanceof CliError && err.attempts === null && tries.count > 0) err.attempts = tries.count;
      throw withRequestId(err, requestId);
    }
  }

  async #sendFollowing(
    method: Method,
    first: Target,
    addressedPlant: boolean,
    signal: AbortSignal | undefined,
    requestId: string,
    tries: { count: number },
  ): Promise<{ attempt: Attempt; label: string; attempts: Attempts }> {
    let target = first;
    for (let redirects = 0; ; redirects += 1) {
      // A redirect's target is the service's: its userinfo, query and fragment may be secrets.
      const label = `${method} ${redirects === 0 ? target.href : maskUrl(target.href)}`;
      const { attempt, attempts } = await sendWithRetries({
        label,
        retries: this.#options.retries,
        signal,
        log: this.#log,
        send: (attempts) => {
          tries.count = attempts.count;
          return this.#attempt(method, target, label, attempts, requestId);
        },
        describeFailure: (error) =>
          describeNetworkFailure(error, this.baseUrl.host, this.#redact, this.#deadline(), this.#options.proxy),
        httpError: (response, attempts, text) => this.#httpError({ response, label, attempts, text }),
      });
      const status = attempt.statusCode;
      if (status >= 200 && status < 300) return { attempt, label, attempts };
      if (method === 'DELETE' && status === 404 && attempts.responseMayBeLost) {
        // Gone only when the service says the plant is missing (its Error object); a router's
        // 404 says the address is wrong, and what the lost attempt did stays unknown.
        const text = await attempt.errorText();
        this.#log.body(text);
        if (describeErrorBody(text, headerValue(attempt.headers['content-type']), this.#redact).error !== null) {
          this.#log.line('404 after a lost response: an earlier attempt deleted it');
          return { attempt, label, attempts };
        }
        attempt.close();
        throw this.#httpError({ response: attempt, label, attempts, addressedPlant, redirects, text });
      }
      const next = redirectTarget(method, attempt, target);
      if (mayFollow(next, this.baseUrl.origin, redirects)) {
        // Not read: a redirect's body says nothing, and a slow one would only cost time.
        attempt.close();
        if (this.#log.on) this.#log.line(`following ${statusText(status)} to ${maskUrl(next.href)}`);
        target = next;
        continue;
      }
      const text = await attempt.errorText();
      this.#log.body(text);
      attempt.close();
      throw this.#httpError({ response: attempt, label, attempts, addressedPlant, redirect: next, redirects, text });
    }
  }

  /** One attempt, its whole life (headers and body) bounded by the timeout. */
  #attempt(method: Method, target: Target, label: string, attempts: Attempts, requestId: string): Promise<Attempt> {
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
    if (this.#log.on) this.#log.line(`→ ${label}${attempts.count > 1 ? ` (attempt ${attempts.count})` : ''}`, headers);
    return Attempt.send({ dispatcher, method, target, headers, timeoutMs });
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
}

/** A fresh X-Request-Id: a random UUID, so a service's log line can be found for any outcome. */
export function newRequestId(): string {
  return globalThis.crypto.randomUUID();
}

/** The error, naming the request it came from (the first request named wins: the innermost). */
function withRequestId(err: unknown, requestId: string): unknown {
  if (err instanceof CliError && err.requestId === null) err.requestId = requestId;
  return err;
}
