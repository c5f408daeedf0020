import { CliError } from '../shared/errors.js';
import { randomUUID } from '../shared/random.js';

/** A fresh X-Request-Id: a random UUID, so a service's log line can be found for any outcome. */
export function newRequestId(): string {
  return randomUUID();
}

/** The error, naming the request it came from (the first request named wins: the innermost). */
export function withRequestId(err: unknown, requestId: string): unknown {
  if (err instanceof CliError && err.requestId === null) err.requestId = requestId;
  return err;
}
