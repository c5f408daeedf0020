import { getSystemErrorMap } from 'node:util';

/**
 * Descriptions of errors the libuv in node 20 has no name for: a full quota
 * arrives as code "Unknown system error -122".
 */
const UNNAMED: Record<string, string> = { EDQUOT: 'disk quota exceeded' };

/**
 * Why a file operation failed, for a one-line message: `no space left on
 * device (ENOSPC)`. The system's description and the code people search
 * for, without node's syscall and path (the message names the file itself).
 */
export function fsReason(err: unknown): string {
  const { errno, message } = (err ?? {}) as NodeJS.ErrnoException;
  if (typeof errno === 'number') {
    const known = getSystemErrorMap().get(errno);
    if (known) return `${known[1]} (${known[0]})`;
    // node:os only here, on a rare path: a run that fails no file operation never loads it.
    const errnos: Record<string, number> = process.getBuiltinModule('node:os').constants.errno;
    const name = Object.keys(errnos).find((key) => errnos[key] === -errno);
    if (name) return `${UNNAMED[name] ?? 'system error'} (${name})`;
  }
  return typeof message === 'string' && message !== '' ? message.split('\n')[0]! : String(err);
}

/** The code of a file operation's error (`ENOENT`), if it has one. */
export function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}
