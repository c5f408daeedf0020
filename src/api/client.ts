import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { BadResponseError, HttpError, NetworkError } from '../errors.js';
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

export interface DeleteOutcome {
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
    const text = await this.#readBody(response, label, this.#maxResponseBytes);
    try {
      return parsePlantList(text, headerValue(response.headers['content-type']));
    } catch (err) {
      if (err instanceof BadResponseError) {
        throw new BadResponseError(`${label} → ${response.statusCode}: ${err.message}`, response.statusCode);
      }
      throw err;
    }
  }

  /** DELETE /plants/{id}: any 2xx is success and its body is ignored. */
  async deletePlant(id: string): Promise<DeleteOutcome> {
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
      throw new NetworkError(`${label} failed: ${failure.message}`, failure.timeout ? 'timeout' : 'network');
    }
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { response, label };
    throw await this.#httpError(response, label, addressedPlant);
  }

  async #httpError(response: Dispatcher.ResponseData, label: string, addressedPlant: boolean): Promise<HttpError> {
    const status = response.statusCode;
    const reason = STATUS_CODES[status] ?? 'Unknown Status';
    const location = headerValue(response.headers.location);
    let text = '';
    try {
      text = await readText(response.body, MAX_ERROR_BODY_BYTES, true);
    } catch {
      // The status already says what went wrong; a broken error body adds nothing.
    }
    const serviceError =
      status >= 300 && status < 400
        ? {
            error: null,
            message: location
              ? `redirected to ${location}; redirects are not followed, so point the base URL at the final address`
              : 'redirect without a Location header',
          }
        : describeErrorBody(text, headerValue(response.headers['content-type']));
    const code = serviceError.error === null ? '' : ` (error ${serviceError.error})`;
    let message = `${label} → ${status} ${reason}: ${serviceError.message}${code}`;
    if (status === 401 || status === 403) message += `; ${AUTH_HINT}`;
    if (status === 404 && !addressedPlant) message += `; check the base URL (${formatBaseUrl(this.baseUrl)})`;
    return new HttpError(message, status, serviceError, addressedPlant);
  }

  async #readBody(response: Dispatcher.ResponseData, label: string, limit: number): Promise<string> {
    try {
      return await readText(response.body, limit, false);
    } catch (err) {
      if (err instanceof BadResponseError) {
        throw new BadResponseError(`${label} → ${response.statusCode}: ${err.message}`, response.statusCode);
      }
      const failure = describeNetworkFailure(err, this.baseUrl.host);
      if (failure.timeout) throw new NetworkError(`${label} failed: ${failure.message}`, 'timeout');
      throw new BadResponseError(
        `${label} → ${response.statusCode}: the response body was cut short (${failure.message})`,
        response.statusCode,
      );
    }
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Read a body as UTF-8 with a size cap. With `truncate`, stop quietly at the
 * cap (error excerpts); otherwise refuse the response.
 */
async function readText(
  body: AsyncIterable<Buffer> & { destroy(err?: Error): unknown },
  limit: number,
  truncate: boolean,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      if (truncate) {
        chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
        break;
      }
      throw new BadResponseError(`the response is larger than ${limit} bytes; refusing it`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
