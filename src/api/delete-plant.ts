import type { DebugLog } from '../http/debug-log.js';
import type { HttpResponse } from '../http/request.js';
import type { Attempts } from '../http/retry.js';
import { headerValue, statusText } from '../http/status.js';
import { NotTheServiceError } from '../shared/errors.js';
import { formatBaseUrl } from '../shared/url.js';
import { describeErrorBody, htmlSummary, mediaType } from './responses.js';

/** A response to a request of the plant store, with what the interface's rules found in it. */
export interface ServiceResponse extends HttpResponse {
  /**
   * A DELETE repeated after a lost answer found the plant missing (see
   * afterLostAnswer): it most likely deleted it.
   */
  readonly gone?: boolean;
}

/**
 * Whether a DELETE's 404 or 410 says the plant is missing: a 410 Gone does,
 * with or without a body (no router answers it for a wrong address); a 404
 * only with the service's Error object. A router's 404 says the address is
 * wrong.
 */
export function saysPlantMissing(status: number, text: string, contentType: string | undefined): boolean {
  if (status === 410) return true;
  return status === 404 && describeErrorBody(text, contentType).error !== null;
}

/**
 * A DELETE's lost-answer rule: when an earlier attempt's answer was lost
 * (or was a 500, after which the service may have made the change), a 404
 * with the service's Error object, or a 410, to the repeated request means
 * the plant is gone: that attempt most likely deleted it. A 404 without
 * one leaves unknown what the lost attempt did. Where the rule applies, the
 * body is read (`text`, shown by --debug; the response closed unless gone);
 * otherwise the response is returned as it is.
 */
export async function afterLostAnswer(response: HttpResponse, log: DebugLog): Promise<ServiceResponse> {
  const { attempt, attempts } = response;
  const status = attempt.statusCode;
  if (!(status === 404 || status === 410) || !attempts.mayHaveActed) return response;
  const text = await attempt.errorText();
  log.body(text);
  // Stryker disable next-line StringLiteral: the Error object is found by parsing the body, whatever its type says
  if (saysPlantMissing(status, text, headerValue(attempt.headers['content-type']))) {
    log.line(`${status} after a lost response or a 500: an earlier attempt most likely deleted it`);
    return { ...response, text, gone: true };
  }
  attempt.close();
  return { ...response, text };
}

/** An HTML document's start (its doctype, or an html, head, body or title element): a web page, not an API's answer. */
const HTML_DOCUMENT = /<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|title[\s>])/i;

/**
 * A DELETE's 2xx is success and its body is ignored, but for a web page:
 * its body is read when it may hold one (or --debug shows it), else dropped
 * unread, as a bulk delete's answers mostly are. The response is closed.
 */
export async function checkDeleteAnswer(response: HttpResponse, log: DebugLog, baseUrl: URL): Promise<void> {
  const { attempt, attempts, label } = response;
  const type = mediaType(headerValue(attempt.headers['content-type']));
  // A 204, or a body of no bytes, holds no page.
  const empty = attempt.statusCode === 204 || headerValue(attempt.headers['content-length']) === '0';
  const mayBePage = !empty && (type === '' || type === 'text/html' || type === 'application/xhtml+xml');
  if (log.on || mayBePage) {
    const body = await attempt.errorText();
    log.body(body);
    if (mayBePage && HTML_DOCUMENT.test(body.slice(0, 8192))) {
      attempt.close();
      throw notThePlantStore(label, attempt.statusCode, body, attempts, baseUrl);
    }
  } else await attempt.discard();
  attempt.close();
}

/**
 * A DELETE's 2xx with an HTML page (a document: not any text sent as
 * text/html, as PHP sends every answer by default). No plant store
 * answers so; a web site does (a front end that serves any path, a
 * portal). Most likely the base URL is wrong and nothing was deleted, but
 * a 2xx came: the outcome is unknown, and a bulk run stops (as at a 404
 * without an Error object).
 */
export function notThePlantStore(
  label: string,
  status: number,
  page: string,
  attempts: Attempts,
  baseUrl: URL,
): NotTheServiceError {
  const error = new NotTheServiceError(
    `${label} → ${statusText(status)}, but with an HTML page (${htmlSummary(page)}), not the plant store's answer${attempts.suffix()}; check the base URL (${formatBaseUrl(baseUrl)})`,
    status,
  );
  error.responseLost = true;
  return error;
}
