import { errorCode } from './fs-reason.js';

/**
 * Whether the process `pid` of this machine is known to have ended:
 * signal 0 checks without sending anything. ESRCH means there is no such
 * process; EPERM means there is one (another user's). Anything that is not
 * a plain positive pid is never taken for ended (0 and negative numbers
 * would name process groups). A live answer may be a later process that was
 * given the same pid: callers also go by age.
 */
export function processHasEnded(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return errorCode(err) === 'ESRCH';
  }
}
