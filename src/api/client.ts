import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { redactToken } from '../config/settings.js';
import { BadResponseError, HttpError, NetworkError, type ServiceError } from '../errors.js';
import { excerpt } from '../output/text.js';
import { readText, TooLargeError } from '../read-text.js';
import { describeNetworkFailure } from './network.js';
import { describeErrorBody, parsePlantList, type Plant } from './responses.js';
import { endpoint, formatBaseUrl } from './url.js';

export interface PlantStoreClientOptions {
  baseUrl: URL;
  token: string;
  /** The one shared dispatcher (an undici Agent; a MockAgent in unit tests). */
  dispatcher: Dispatcher;
  userAgent: string;
  /** Largest response body accepted, in bytes. */
  maxResponseBytes?: number;
}

/** What a successful DELETE answered. */
export interface DeleteResponse {
  status: number;
}

type Method = 'GET' | 'DELETE';

const DEFAULT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
/** Error bodies are only shown as an excerpt; more than this is never needed. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

const AUTH_HINT = "run 'plants auth login' or set PLANTS_TOKEN";

/**
 * The plant store service over undici: one request path that adds auth and
 * identification headers, checks statuses, and turns every failure into a
 * typed error naming the request.
 */
export class PlantStoreClient {
  readonly baseUrl: URL;
  readonly #token: string;
  readonly #dispatcher: Dispatcher;
  readonly #userAgent: string;
  readonly #maxResponseBytes: number;

  constructor(options: PlantStoreClientOptions) {
    this.baseUrl = options.baseUrl;
    this.#token = options.token;
    this.#dispatcher = options.dispatcher;
    this.#userAgent = options.userAgent;
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** GET /plants?limit=N: the validated list, every field of every item kept. */
  async listPlants(options: { limit?: number } = {}): Promise<Plant[]> {
    const { response, label } = await this.#send('GET', ['plants'], { limit: options.limit });
    const where = `${label} → ${response.statusCode}`;
    let text: string;
    try {
      text = await readText(response.body, this.#maxResponseBytes);
    } catch (err) {
      if (err instanceof TooLargeError) {
        throw new BadResponseError(`${where}: the response is ${err.message}; refusing it`, response.statusCode);
      }
      const failure = describeNetworkFailure(err, this.baseUrl.host);
      if (failure.timeout) throw new NetworkError(`${label} failed: ${failure.message}`, true);
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

  /** DELETE /plants/{id}: any 2xx is success and its body is ignored. */
  async deletePlant(id: string): Promise<DeleteResponse> {
    const { response } = await this.#send('DELETE', ['plants', id], {}, true);
    await response.body.dump();
    return { status: response.statusCode };
  }

  async #send(
    method: Method,
    segments: string[],
    query: Record<string, number | undefined> = {},
    addressedPlant = false,
  ): Promise<{ response: Dispatcher.ResponseData; label: string }> {
    const target = endpoint(this.baseUrl, segments, query);
    const label = `${method} ${target.href}`;
    let response: Dispatcher.ResponseData;
    try {
      // dispatcher.request takes origin and path as they are; undici's
      // top-level request() would re-parse the URL and resolve %2E%2E.
      response = await this.#dispatcher.request({
        origin: target.origin,
        path: target.path,
        method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          accept: 'application/json',
          'user-agent': this.#userAgent,
        },
      });
    } catch (err) {
      const failure = describeNetworkFailure(err, this.baseUrl.host);
      throw new NetworkError(`${label} failed: ${failure.message}`, failure.timeout);
    }
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { response, label };
    throw await this.#httpError(response, label, addressedPlant);
  }

  async #httpError(response: Dispatcher.ResponseData, label: string, addressedPlant: boolean): Promise<HttpError> {
    const status = response.statusCode;
    const reason = STATUS_CODES[status] ?? 'Unknown Status';
    let text = '';
    try {
      text = await readText(response.body, MAX_ERROR_BODY_BYTES, { truncate: true });
    } catch {
      // The status already says what went wrong; a broken error body adds nothing.
    }
    const serviceError = this.#serviceError(status, text, response.headers);
    const code = serviceError.error === null ? '' : ` (error ${serviceError.error})`;
    let message = `${label} → ${status} ${reason}: ${serviceError.message}${code}`;
    if (status === 401 || status === 403) message += `; ${AUTH_HINT}`;
    if (status === 404 && !addressedPlant) message += `; check the base URL (${formatBaseUrl(this.baseUrl)})`;
    return new HttpError(message, status, serviceError, addressedPlant);
  }

  #serviceError(status: number, text: string, headers: Dispatcher.ResponseData['headers']): ServiceError {
    if (status >= 300 && status < 400) {
      const location = headerValue(headers.location);
      return {
        error: null,
        message: location
          ? `redirected to ${excerpt(location)}; redirects are not followed, so point the base URL at the final address`
          : 'redirect without a Location header',
      };
    }
    const described = describeErrorBody(text, headerValue(headers['content-type']));
    // Some gateways echo the Authorization header back in their error text.
    return { ...described, message: this.#redact(described.message) };
  }

  #redact(text: string): string {
    return redactToken(text, this.#token);
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
