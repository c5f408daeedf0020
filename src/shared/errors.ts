/**
 * Typed errors. Commands throw these; `cli.ts` turns them into a message and an
 * exit code in exactly one place.
 */

import { fsReason } from './fs-reason.js';

export const ExitCode = {
  ok: 0,
  /** The request failed: service error, network, bad response. */
  failure: 1,
  /** Bad flag, argument or configuration; confirmation missing or declined. */
  usage: 2,
  /** Delete of an id the service does not have. */
  notFound: 3,
  /** 401/403 from the service, or no token configured. */
  auth: 4,
  /** plants apply: a planned plant changed (name or tag) since the plan, so it was not deleted. */
  changed: 5,
  /** Stopped by a signal, as shells report it (128 + the signal's number): SIGHUP. */
  hangup: 129,
  /** Ctrl-C (SIGINT). */
  interrupted: 130,
  /** SIGTERM, as CI systems send to cancel a job. */
  terminated: 143,
} as const;

type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The signals that stop a run gracefully. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The exit code of a run stopped by `signal`, by the shell's convention. */
export function signalExitCode(signal: StopSignal): ExitCodeValue {
  return signal === 'SIGHUP' ? ExitCode.hangup : signal === 'SIGTERM' ? ExitCode.terminated : ExitCode.interrupted;
}

export abstract class CliError extends Error {
  abstract readonly exitCode: ExitCodeValue;
  /** The stable name scripts branch on (the JSON error line; docs/scripting.md). */
  abstract readonly code: ErrorCode;
  /** HTTP status of the response behind the error, when there was one. */
  readonly status: number | null;
  /**
   * A request was sent but its answer was lost (a reset, a gateway's 502 or
   * 504, an interrupted retry): the service may have acted on it.
   */
  responseLost = false;
  /** The X-Request-Id of the request behind the error, when one was sent. */
  requestId: string | null = null;
  /** How many attempts that request took, when it was sent. */
  attempts: number | null = null;

  constructor(message: string, status: number | null = null) {
    super(message);
    this.status = status;
  }

  /** The message of the JSON error line. */
  get summary(): string {
    return this.message;
  }
}

/** The user can fix it: a bad flag, argument or missing setting. */
export class UsageError extends CliError {
  readonly exitCode = ExitCode.usage;
  readonly code = 'usage';
  override name = 'UsageError';
}

/** The configuration file or a configured value is unusable. */
export class ConfigError extends CliError {
  readonly exitCode = ExitCode.usage;
  readonly code = 'config';
  override name = 'ConfigError';
}

/** The person answered "no" (or nothing) to a confirmation prompt. */
export class CancelledError extends CliError {
  readonly exitCode = ExitCode.usage;
  readonly code = 'cancelled';
  override name = 'CancelledError';
}

/** Ctrl-C at a prompt or during work, or another stop signal (SIGTERM, SIGHUP). */
export class InterruptedError extends CliError {
  readonly exitCode: ExitCodeValue;
  readonly code = 'interrupted';
  override name = 'InterruptedError';
  constructor(message = 'interrupted', signal: StopSignal = 'SIGINT') {
    super(message);
    this.exitCode = signalExitCode(signal);
  }
}

/** No token, or the service refused it (401/403). */
export class AuthError extends CliError {
  readonly exitCode = ExitCode.auth;
  readonly code = 'auth';
  override name = 'AuthError';
}

/** The body of an error response, when the service sent the documented Error object. */
export interface ServiceError {
  error: number | null;
  message: string;
}

/** The service answered with a status outside 2xx. */
export class HttpError extends CliError {
  readonly exitCode: ExitCodeValue;
  readonly code: ErrorCode;
  override name = 'HttpError';
  declare readonly status: number;
  /** What the service said, normalised to `{error, message}`. */
  readonly serviceError: ServiceError;
  /** A 429's or 503's Retry-After, as milliseconds from the answer; undefined without one. */
  retryAfterMs: number | undefined;
  /**
   * `addressedPlant`: the request named one plant, so a 404 (or 410) means
   * that plant does not exist (exit 3). Elsewhere a 404 means a wrong
   * address (exit 1).
   */
  constructor(message: string, status: number, serviceError: ServiceError, addressedPlant = false) {
    super(message, status);
    this.serviceError = serviceError;
    if (status === 401 || status === 403) [this.exitCode, this.code] = [ExitCode.auth, 'auth'];
    else if ((status === 404 || status === 410) && addressedPlant) {
      [this.exitCode, this.code] = [ExitCode.notFound, 'not_found'];
    } else [this.exitCode, this.code] = [ExitCode.failure, 'http_error'];
  }
}

/** The request never got a response: refused, DNS, TLS, reset, timeout. */
export class NetworkError extends CliError {
  readonly exitCode = ExitCode.failure;
  override name = 'NetworkError';
  readonly code: ErrorCode;
  readonly timeout: boolean;
  constructor(message: string, timeout = false) {
    super(message);
    this.timeout = timeout;
    this.code = timeout ? 'timeout' : 'network';
  }
}

/** A response arrived but is not what the interface promises. */
export class BadResponseError extends CliError {
  readonly exitCode = ExitCode.failure;
  readonly code = 'bad_response';
  override name = 'BadResponseError';
}

/**
 * A DELETE answered 2xx with an HTML page: a web site's answer (a front
 * end that serves every path, a login or portal page), not the plant
 * store's, so most likely a wrong base URL. What it did is unknown.
 */
export class NotTheServiceError extends BadResponseError {
  override name = 'NotTheServiceError';
}

/**
 * The command already said what went wrong; only the exit code is left to
 * deliver.
 */
export class ExitStatus extends CliError {
  readonly exitCode: ExitCodeValue;
  override name = 'ExitStatus';
  readonly code: ErrorCode;
  readonly #summary: string;
  /** `summary`: for the JSON error line only; the person has seen the details already. */
  constructor(exitCode: ExitCodeValue, code: ErrorCode, summary = '', status: number | null = null) {
    super('', status);
    this.exitCode = exitCode;
    this.code = code;
    this.#summary = summary;
  }

  override get summary(): string {
    return this.#summary;
  }
}

/**
 * A guard rail refused the run before anything was sent (a cap, a
 * protected plant): its own code, so a CI job can tell "too many plants
 * matched" from a mistyped flag.
 */
export class RefusedError extends CliError {
  readonly exitCode = ExitCode.usage;
  readonly code = 'refused';
  override name = 'RefusedError';
}

/**
 * The deletion journal cannot be written (nothing more is deleted, since
 * nothing may be deleted that cannot be recorded), or read back.
 */
export class JournalError extends CliError {
  readonly exitCode = ExitCode.usage;
  readonly code = 'journal';
  override name = 'JournalError';
}

/**
 * stdout could not be written (a full disk, an exceeded quota, an I/O
 * error): what the caller asked for is missing or cut short. Not a bug, and
 * not a reader that went away (`plants list | head -1`), which ends the
 * output quietly.
 */
export class OutputError extends CliError {
  readonly exitCode = ExitCode.failure;
  readonly code = 'output';
  override name = 'OutputError';
  /** The error the write failed with (ENOSPC, EIO, …). */
  readonly reason: unknown;

  /** `done`: what the run had done by then that the lost output would have said (deletions made). */
  constructor(reason: unknown, done?: string) {
    super(`could not write to standard output: ${fsReason(reason)}${done ? `; ${done}` : ''}`);
    this.reason = reason;
  }

  /** The same failure, saying what the run had done before it. */
  after(done: string | undefined): OutputError {
    return done === undefined ? this : new OutputError(this.reason, done);
  }
}

/**
 * A plant of a plan that apply did not send, as the list showed it: no
 * longer listed (not_found, exit 3), or listed with another name or tag
 * than the plan's (changed, exit 5).
 */
export class PlanDriftError extends CliError {
  readonly exitCode: typeof ExitCode.notFound | typeof ExitCode.changed;
  readonly code: 'not_found' | 'changed';
  override name = 'PlanDriftError';

  constructor(kind: 'not_found' | 'changed', message: string) {
    super(message);
    this.code = kind;
    this.exitCode = kind === 'changed' ? ExitCode.changed : ExitCode.notFound;
  }
}

/** `config get` of a key the selected profile does not set: exit 1, as scripts that test for a value expect. */
export class NotSetError extends CliError {
  readonly exitCode = ExitCode.failure;
  readonly code = 'config';
  override name = 'NotSetError';
}

/** Stable names for error classes, for the JSON error line scripts branch on (docs/scripting.md). */
export type ErrorCode =
  | 'usage'
  | 'config'
  | 'cancelled'
  | 'interrupted'
  | 'auth'
  | 'not_found'
  | 'http_error'
  | 'network'
  | 'timeout'
  | 'bad_response'
  | 'partial_failure'
  | 'journal'
  | 'refused'
  | 'changed'
  | 'output'
  | 'internal';
