import type { Target } from '../http/attempt.js';
import { HttpClient, type HttpClientOptions, type HttpRequest, type HttpResponse } from '../http/request.js';
import { withRequestId } from '../http/request-id.js';
import { headerValue } from '../http/status.js';
import { RefusedError } from '../shared/errors.js';
import { endpoint } from '../shared/url.js';
import { afterLostAnswer, checkDeleteAnswer, type ServiceResponse } from './delete-plant.js';
import { describeHttpError } from './http-error.js';
import { movedList, namesNextPage, NEXT_PAGE_WARNING } from './plant-list.js';
import { streamPlantList, type PlantBatch } from './plant-stream.js';
import type { Plant } from './responses.js';

export { newRequestId } from '../http/request-id.js';
export type { ServiceResponse } from './delete-plant.js';

/** The transport's options, but the base URL and token in place of the origin, host and Authorization made from them. */
export interface PlantStoreClientOptions extends Omit<HttpClientOptions, 'origin' | 'host' | 'authorization'> {
  baseUrl: URL;
  token: string;
  /**
   * Said when the service refuses the token (401, 403): whose it is and how
   * to replace it. Default: how to log in or set PLANTS_TOKEN.
   */
  refusedToken?: string;
  /** Where a warning about a response goes (a list body that is not valid UTF-8), once per response. */
  warn?: (text: string) => void;
}

/** Per request: `signal` stops retries (Ctrl-C); `requestId` is its X-Request-Id (a fresh UUID when not given). */
type RequestOptions = Pick<HttpRequest, 'signal' | 'requestId'>;

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
 * A request of `plants api`, and whether its path names one plant: a 404
 * with the service's Error object to it says that plant is missing (exit
 * 3), not that the address is wrong (see errorFor).
 */
export interface ServiceRequest extends HttpRequest {
  addressedPlant: boolean;
}

/**
 * The plant store's interface over the transport (http/): the list, as it
 * arrives; a plant's deletion; any request for `plants api`. The
 * interface's rules are here: what a status means, when a 404 is a missing
 * plant, when a DELETE's plant is gone, when a list is another address's.
 */
export class PlantStoreClient {
  readonly baseUrl: URL;
  readonly #base: { origin: string; pathname: string };
  readonly #options: PlantStoreClientOptions;
  readonly #http: HttpClient;
  /** Said once a run: a Link header naming a next page; a list moved to another address. */
  #nextPageSaid = false;
  #movedSaid = false;

  constructor(options: PlantStoreClientOptions) {
    const { baseUrl, token, dispatcher, userAgent, maxResponseBytes, timeoutMs, retries } = options;
    this.baseUrl = baseUrl;
    // Read once: a URL's getters build their strings on every read, and a bulk delete builds thousands of targets.
    this.#base = { origin: baseUrl.origin, pathname: baseUrl.pathname };
    this.#options = options;
    this.#http = new HttpClient({
      origin: baseUrl.origin,
      host: baseUrl.host,
      authorization: `Bearer ${token}`,
      dispatcher,
      userAgent,
      maxResponseBytes,
      timeoutMs,
      retries,
      debug: options.debug,
      proxy: options.proxy,
      traceparent: options.traceparent,
    });
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
   * `forDeletion` (delete's look-ups, prune): a list from another address
   * is refused rather than warned of.
   */
  async *streamPlants(
    options: { limit?: number; forDeletion?: boolean } & RequestOptions = {},
  ): AsyncGenerator<PlantBatch> {
    const asked = this.address(['plants'], { limit: options.limit });
    const { signal, requestId } = options;
    const response = await this.#succeeded(
      await this.#http.request({ method: 'GET', target: asked, signal, requestId }),
    );
    const { attempt } = response;
    this.#checkList(asked, response, options.forDeletion ?? false);
    try {
      const type = headerValue(attempt.headers['content-type']);
      const { maxResponseBytes, warn } = this.#options;
      yield* streamPlantList(this.#http.body(response), type, maxResponseBytes, options.limit, warn);
    } catch (err) {
      throw this.#http.bodyError(err, response);
    } finally {
      // Stopped early, or failed: close the response rather than read the rest.
      attempt.close();
    }
  }

  #checkList(asked: Target, response: HttpResponse, forDeletion: boolean): void {
    const moved = movedList(asked, response.target);
    if (moved && forDeletion) {
      response.attempt.close();
      throw new RefusedError(moved.refusal);
    }
    if (moved && !this.#movedSaid) {
      this.#movedSaid = true;
      this.#options.warn?.(moved.warning);
    }
    // Once a run: delete may list twice (the cap, then the names to show).
    if (!this.#nextPageSaid && namesNextPage(headerValue(response.attempt.headers.link))) {
      this.#nextPageSaid = true;
      this.#options.warn?.(NEXT_PAGE_WARNING);
    }
  }

  /**
   * DELETE /plants/{id}: any 2xx is success and its body is ignored (but for
   * a web page: checkDeleteAnswer). A 404 after an attempt whose response
   * was lost is success too when the plant is gone (afterLostAnswer). A
   * redirect is not followed: it could name another plant, or all of them.
   */
  async deletePlant(id: string, options: RequestOptions = {}): Promise<DeleteResponse> {
    const response = await this.sendDelete({ method: 'DELETE', target: this.address(['plants', id]), ...options });
    const { attempt, attempts } = response;
    if (!response.gone) {
      await this.#succeeded(response, true);
      await checkDeleteAnswer(response, this.#http.log, this.baseUrl);
    }
    attempt.close();
    return { status: attempt.statusCode, afterLostResponse: attempts.mayHaveActed, attempts: attempts.count };
  }

  /**
   * Any request, as `plants api` sends it: the final answer, whatever its
   * status, its body unread. Throws when no answer came, or when retries
   * ended on a status worth another try (Ctrl-C, a Retry-After too long).
   */
  async send(request: HttpRequest): Promise<ServiceResponse> {
    return this.#unlessUnretried(await this.#http.request(request));
  }

  /**
   * A DELETE of any path: never redirected (the path was checked against
   * the protections and named in the journal; where a redirect points was
   * not), and after a lost answer the plant may be `gone` (afterLostAnswer).
   */
  async sendDelete(request: HttpRequest): Promise<ServiceResponse> {
    const response = this.#unlessUnretried(await this.#http.request({ ...request, followRedirects: false }));
    return afterLostAnswer(response, this.#http.log);
  }

  /** A response's whole body, within --max-response-size and the attempt's time; the response closed after. */
  readBody(response: ServiceResponse): Promise<Buffer> {
    return this.#http.readBody(response);
  }

  /** A response's body as it arrives (readBody's rules), passed on without being held. */
  streamBody(response: ServiceResponse): AsyncGenerator<Buffer> {
    return this.#http.streamBody(response);
  }

  /**
   * A non-2xx response as the error it stands for: what the service said
   * (`text`, its body), the request, a hint. `addressedPlant`: the request
   * named one plant (see ServiceRequest).
   */
  errorFor(response: HttpResponse, text: string, addressedPlant = false): Error {
    const { attempt, label, attempts, requestId, redirect, redirects, redirectsOff } = response;
    const error = describeHttpError({
      response: attempt,
      label,
      attempts,
      addressedPlant,
      redirect,
      redirects,
      redirectsOff,
      text,
      baseUrl: this.baseUrl,
      refusedToken: this.#options.refusedToken,
    });
    error.attempts = attempts.count;
    return withRequestId(error, requestId) as Error;
  }

  /** A target below the base URL (its path prefix kept): each segment sent as one path segment. */
  address(segments: readonly string[], query?: Record<string, string | number | undefined>): Target {
    return endpoint(this.#base, segments, query);
  }

  /** The response when it is a 2xx; otherwise the error it stands for, its body read (and shown by --debug). */
  async #succeeded(response: HttpResponse, addressedPlant = false): Promise<HttpResponse> {
    const { attempt } = this.#unlessUnretried(response);
    if (attempt.statusCode >= 200 && attempt.statusCode < 300) return response;
    let { text } = response;
    if (text === undefined) {
      text = await attempt.errorText();
      this.#http.log.body(text);
    }
    attempt.close();
    throw this.errorFor(response, text, addressedPlant);
  }

  /** The response, unless retries ended on it (RetriedAnswer's `unretried`): then the error it stands for. */
  #unlessUnretried(response: HttpResponse): HttpResponse {
    if (!response.unretried) return response;
    const error = this.errorFor(response, response.text ?? '');
    error.message += response.unretried.note;
    throw error;
  }
}
