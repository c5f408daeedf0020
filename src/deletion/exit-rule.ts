import { ExitCode, ExitStatus, HttpError } from '../shared/errors.js';
import { waitText } from '../http/retry.js';
import { statusText } from '../http/status.js';
import { maskSecrets } from '../secrets/registry.js';
import { countResults } from './run-counts.js';
import { serviceAsksToWait, tokenRefused, wrongAddress, type DeleteOutcome } from './results.js';

// The exit-code rule of a finished run: which outcomes are problems, and the exit status they call for.

/** Whether an outcome is a problem the exit code must tell (a missing plant is not, with --ignore-missing). */
export function isProblem(outcome: DeleteOutcome, ignoreMissing: boolean): boolean {
  return outcome.error !== undefined && !(ignoreMissing && outcome.result.result === 'not_found');
}

/** How a run with problems ends: the status, and a line to say first when the failure lines above do not say it. */
export interface RunEnd {
  status: ExitStatus;
  sayFirst?: string;
}

/**
 * The end of a run that was not stopped, from its outcomes and its problems
 * (isProblem); undefined when there are none (exit 0).
 */
export function runEnd(outcomes: readonly DeleteOutcome[], problems: readonly DeleteOutcome[]): RunEnd | undefined {
  if (problems.length === 0) return undefined;
  if (outcomes.length === 1) {
    const { error, result } = problems[0]!;
    const status = new ExitStatus(error!.exitCode, error!.code, maskSecrets(error!.message), error!.status);
    status.requestId = result.request_id;
    return { status };
  }
  const counts = countResults(outcomes.map((o) => o.result));
  const notAttempted = `${counts.skipped} ${counts.skipped === 1 ? 'plant was' : 'plants were'} not attempted`;
  // A wrong address stopped the run: its message says how to fix it.
  const misaddressed = problems.find(wrongAddress);
  if (misaddressed) {
    const { code, status, message } = misaddressed.error!;
    return { status: new ExitStatus(ExitCode.failure, code, `${maskSecrets(message)}; ${notAttempted}`, status) };
  }
  // A refused token outranks everything: the rest of the run never happened.
  const refused = problems.find(tokenRefused);
  if (refused) {
    const message = `the service refused the token; ${notAttempted}`;
    return { status: new ExitStatus(ExitCode.auth, 'auth', message, refused.error!.status) };
  }
  const throttled = longestWaitAsked(problems);
  if (throttled && counts.skipped > 0) {
    const asked = throttled.retryAfterMs ?? 0;
    const when = asked > 0 ? ` and asks to be retried in ${waitText(asked)}` : '';
    const stopped = `the service answered ${statusText(throttled.status)}${when}; ${notAttempted}, so as not to add to its load: send them again later`;
    // The failure lines say what the service answered, not why the rest were skipped nor when
    // to send them: a person is told that last, as a script is in the JSON error line.
    return { status: new ExitStatus(ExitCode.failure, 'http_error', stopped, throttled.status), sayFirst: stopped };
  }
  const failed = counts.failed + counts.unknown;
  const total = outcomes.length;
  if (failed === 0) {
    // A plan's plants that changed since it was made outrank those gone: a new plan is the way on.
    const changed = problems.filter((o) => o.result.result === 'changed').length;
    if (changed > 0) {
      const missing = problems.length - changed;
      const also = missing > 0 ? `, ${missing} not found` : '';
      return {
        status: new ExitStatus(
          ExitCode.changed,
          'changed',
          `${changed} of ${total} plants changed since the plan${also}; make a new plan to delete them`,
        ),
      };
    }
    return {
      status: new ExitStatus(ExitCode.notFound, 'not_found', `${problems.length} of ${total} plants were not found`),
    };
  }
  const unknown = counts.unknown ? ` (${counts.unknown} of them may have been deleted)` : '';
  return {
    status: new ExitStatus(ExitCode.failure, 'partial_failure', `${failed} of ${total} deletes failed${unknown}`),
  };
}

/**
 * A service asking for fewer requests stopped the run: of several such
 * answers (requests in flight at once), the one asking for the longest wait.
 */
function longestWaitAsked(problems: readonly DeleteOutcome[]): HttpError | undefined {
  return problems
    .filter(serviceAsksToWait)
    .map((outcome) => outcome.error as HttpError)
    .reduce<HttpError | undefined>(
      (longest, error) => ((error.retryAfterMs ?? 0) > (longest?.retryAfterMs ?? 0) ? error : (longest ?? error)),
      undefined,
    );
}
