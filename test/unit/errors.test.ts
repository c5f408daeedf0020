import { describe, expect, it } from 'vitest';
import {
  AuthError,
  BadResponseError,
  CancelledError,
  ConfigError,
  ExitCode,
  ExitStatus,
  HttpError,
  InterruptedError,
  NetworkError,
  NotSetError,
  OutputError,
  UsageError,
  type CliError,
} from '../../src/shared/errors.js';

const body = { error: null, message: '' };

describe('each error carries its code and exit code', () => {
  it.each<[string, CliError, string, number]>([
    ['usage', new UsageError('x'), 'usage', ExitCode.usage],
    ['config', new ConfigError('x'), 'config', ExitCode.usage],
    ['not set', new NotSetError('x'), 'config', ExitCode.failure],
    ['cancelled', new CancelledError('x'), 'cancelled', ExitCode.usage],
    ['interrupted', new InterruptedError(), 'interrupted', ExitCode.interrupted],
    ['auth', new AuthError('x'), 'auth', ExitCode.auth],
    ['401', new HttpError('x', 401, body), 'auth', ExitCode.auth],
    ['403', new HttpError('x', 403, body, true), 'auth', ExitCode.auth],
    ['404 of a plant', new HttpError('x', 404, body, true), 'not_found', ExitCode.notFound],
    ['404 elsewhere', new HttpError('x', 404, body), 'http_error', ExitCode.failure],
    ['500', new HttpError('x', 500, body, true), 'http_error', ExitCode.failure],
    ['network', new NetworkError('x'), 'network', ExitCode.failure],
    ['timeout', new NetworkError('x', true), 'timeout', ExitCode.failure],
    ['bad response', new BadResponseError('x'), 'bad_response', ExitCode.failure],
    ['exit status', new ExitStatus(ExitCode.failure, 'partial_failure', 'y'), 'partial_failure', ExitCode.failure],
    ['output', new OutputError(new Error('x')), 'output', ExitCode.failure],
  ])('%s', (_name, err, code, exitCode) => {
    expect(err.code).toBe(code);
    expect(err.exitCode).toBe(exitCode);
  });

  it('an OutputError names the failed write by its reason, and what the run had done by then', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { errno: -28, code: 'ENOSPC' });
    const err = new OutputError(full);
    expect(err.message).toBe('could not write to standard output: no space left on device (ENOSPC)');
    expect(err.after(undefined)).toBe(err);
    const after = err.after('the DELETE was sent (1 deleted): no journal was kept');
    expect(after).toBeInstanceOf(OutputError);
    expect(after.reason).toBe(full);
    expect(after.message).toBe(
      'could not write to standard output: no space left on device (ENOSPC); the DELETE was sent (1 deleted): no journal was kept',
    );
  });

  it('the JSON summary is the message, or what an ExitStatus says the person has not seen', () => {
    expect(new UsageError('bad flag').summary).toBe('bad flag');
    const status = new ExitStatus(ExitCode.notFound, 'not_found', '2 of 3 plants were not found');
    expect(status.message).toBe('');
    expect(status.summary).toBe('2 of 3 plants were not found');
  });
});
