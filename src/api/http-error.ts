import { HttpError, type ServiceError } from '../shared/errors.js';
import { maskedUrl, maskSecrets } from '../secrets/registry.js';
import { excerpt } from '../shared/text.js';
import type { Headers, Target } from '../http/attempt.js';
import { unaskedEncoding } from '../http/body.js';
import { describeUnfollowedRedirect } from './redirect-text.js';
import { describeErrorBody, notAnErrorObject } from './responses.js';
import { LOST_RESPONSE_STATUSES, retryAfterMs, type Attempts } from '../http/retry.js';
import { headerValue, statusText } from '../http/status.js';
import { formatBaseUrl } from '../shared/url.js';

/** After a 401, when the client was not told whose token it sends. */
const AUTH_HINT = "run 'plants auth login' or set PLANTS_TOKEN";

/** After a 403 to a request that named no plant (the list): a permission, not a bad token. */
const NO_PERMISSION = "the service refused this token the permission: ask the service's owner for access";

/** Everything an error response's description is made from. */
export interface HttpErrorFacts {
  response: { statusCode: number; headers: Headers };
  /** `METHOD url`, as the request is named in messages. */
  label: string;
  attempts: Attempts;
  /** The error body, as much as an excerpt needs. */
  text: string;
  /** The client's base URL: named when a 404 suggests it is wrong. */
  baseUrl: URL;
  /** Said after a 401 or 403: whose token was refused and how to replace it (default AUTH_HINT). */
  refusedToken?: string;
  /** The request named one plant (a DELETE): a 404 is about the plant, not the base URL. */
  addressedPlant?: boolean;
  /** For a 3xx: where it pointed, when it is a redirect that is followed. */
  redirect?: Target;
  /** For a 3xx: how many redirects were followed before it. */
  redirects?: number;
  /** For a 3xx: the request follows none (a DELETE). */
  redirectsOff?: boolean;
}

/** An error response as an HttpError: what the service said, the request, the attempts, a hint. */
export function describeHttpError(facts: HttpErrorFacts): HttpError {
  const { response, label, attempts, baseUrl, addressedPlant = false, refusedToken = AUTH_HINT } = facts;
  const status = response.statusCode;
  const serviceError = describeServiceError(facts);
  const code = serviceError.error === null ? '' : ` (error ${serviceError.error})`;
  let message = `${label} → ${statusText(status)}: ${serviceError.message}${code}${attempts.suffix()}`;
  // 401: the token itself was refused. 403: the token was accepted, and what it asked was not allowed.
  if (status === 401) message += `; ${refusedToken}`;
  if (status === 403 && !addressedPlant) message += `; ${NO_PERMISSION}`;
  // A missing plant is answered with the interface's Error object; a 404 without one is a
  // router's or a proxy's: most likely the address is wrong, not the plant (and a retry elsewhere would not help).
  // 410 Gone says so itself, with or without a body: no router answers it for a wrong address.
  const plantMissing = addressedPlant && ((status === 404 && serviceError.error !== null) || status === 410);
  if (status === 404 && !plantMissing) {
    const advice = `check the base URL (${formatBaseUrl(baseUrl)})${pathHint(baseUrl)}`;
    if (!addressedPlant) message += `; ${advice}`;
    // An answer to HEAD has no body: without one, a missing plant and a wrong address look alike.
    else if (label.startsWith('HEAD ')) {
      message += `; an answer to HEAD has no body to tell a missing plant from a wrong address: GET the same path to see which, or ${advice}`;
    } else {
      // A DELETE's outcome is counted (delete, prune, the journal); a GET's is only shown.
      // After a lost answer it is counted as unknown (the lost attempt may have deleted it), not as failed.
      const counted = !label.startsWith('DELETE ')
        ? ''
        : attempts.responseMayBeLost
          ? ': not counted as a missing plant'
          : ': counted as failed, not as a missing plant';
      const shape = notAnErrorObject(facts.text);
      const without = shape
        ? `with a body that is not the interface's Error object (${shape})`
        : 'with no Error object from the service';
      message += `; ${without}, as a router or proxy answers a wrong address${counted}; ${advice}`;
    }
  }
  const error = new HttpError(message, status, serviceError, plantMissing);
  error.responseLost = attempts.responseMayBeLost || LOST_RESPONSE_STATUSES.has(status);
  if (status === 429 || status === 503) error.retryAfterMs = retryAfterMs(headerValue(response.headers['retry-after']));
  return error;
}

/** A base URL that already ends in /plants: plants adds that segment itself. */
function pathHint(baseUrl: URL): string {
  const path = baseUrl.pathname.replace(/\/+$/, '');
  if (!/\/plants$/i.test(path)) return '';
  const root = new URL(baseUrl.href);
  root.pathname = path.slice(0, -'/plants'.length) || '/';
  return `: it ends in /plants, which plants adds itself; use ${formatBaseUrl(root)}`;
}

/** What the service said, normalised, with the secrets masked (it goes to stdout in delete --json). */
function describeServiceError({
  response,
  text,
  baseUrl,
  redirect,
  redirects = 0,
  redirectsOff = false,
}: HttpErrorFacts): ServiceError {
  const { statusCode: status, headers } = response;
  if (status >= 300 && status < 400) {
    const location = excerpt(maskedUrl(headerValue(headers.location) ?? ''), 200);
    return {
      error: null,
      message: maskSecrets(
        describeUnfollowedRedirect(status, location, redirect, baseUrl.origin, redirects, redirectsOff),
      ),
    };
  }
  const encoded = unaskedEncoding(headers['content-encoding'], 'error body');
  if (encoded) return { error: null, message: maskSecrets(`${encoded}; not shown`) };
  // Some gateways echo the Authorization header back in their error text.
  const described = describeErrorBody(text, headerValue(headers['content-type']));
  return { ...described, message: maskSecrets(described.message) };
}
