import { afterEach, describe, expect, it } from 'vitest';
import { isProblem, runEnd } from '../../src/deletion/exit-rule.js';
import type { DeleteOutcome } from '../../src/deletion/results.js';
import { driftOutcome } from '../../src/deletion/plan/verdicts.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';
import { ExitStatus, HttpError, NetworkError, NotTheServiceError, type CliError } from '../../src/shared/errors.js';

// The exit-code rule of a run, from its outcomes alone.

afterEach(() => forgetSecrets());

const ok = (id: string): DeleteOutcome => ({ result: { id, result: 'deleted', status: 204, request_id: `r-${id}` } });
const skipped = (id: string): DeleteOutcome => ({ result: { id, result: 'skipped', status: null, request_id: null } });

function failed(id: string, error: CliError, result: DeleteOutcome['result']['result'] = 'failed'): DeleteOutcome {
  return {
    result: { id, result, status: error.status, request_id: `r-${id}`, error: { error: null, message: error.message } },
    error,
  };
}

const notFound = (id: string) =>
  failed(id, new HttpError(`plant ${id} not found`, 404, { error: 404, message: 'no plant' }, true), 'not_found');
const serverError = (id: string) => failed(id, new HttpError('500 oops', 500, { error: null, message: 'oops' }));
const unknown = (id: string) => {
  const error = new NetworkError('reset; the plant may have been deleted');
  error.responseLost = true;
  return failed(id, error, 'unknown');
};
function throttled(id: string, status: 429 | 503, retryAfterMs?: number): DeleteOutcome {
  const error = new HttpError(`${status}`, status, { error: null, message: 'slow down' });
  error.retryAfterMs = retryAfterMs;
  return failed(id, error);
}

/** The end as plain values: exit code, code, summary, status, request id, and what to say first. */
function endOf(outcomes: DeleteOutcome[], ignoreMissing = false) {
  const end = runEnd(
    outcomes,
    outcomes.filter((o) => isProblem(o, ignoreMissing)),
  );
  if (end === undefined) return undefined;
  expect(end.status).toBeInstanceOf(ExitStatus);
  const { exitCode, code, summary, status, requestId } = end.status;
  return { exitCode, code, summary, status, requestId, sayFirst: end.sayFirst };
}

describe('isProblem', () => {
  it('is an outcome with an error; a missing plant is none with --ignore-missing', () => {
    expect(isProblem(ok('1'), false)).toBe(false);
    expect(isProblem(ok('1'), true)).toBe(false);
    expect(isProblem(notFound('1'), false)).toBe(true);
    expect(isProblem(notFound('1'), true)).toBe(false);
    expect(isProblem(serverError('1'), true)).toBe(true);
    expect(isProblem(unknown('1'), true)).toBe(true);
  });
});

describe('runEnd', () => {
  it('exits 0 when nothing went wrong (or only what --ignore-missing allows)', () => {
    expect(endOf([ok('1'), skipped('2')])).toBeUndefined();
    expect(endOf([ok('1'), notFound('2')], true)).toBeUndefined();
    expect(endOf([])).toBeUndefined();
  });

  it("ends a run of one id with that id's own error: its exit code, code, status and request id", () => {
    expect(endOf([notFound('7')])).toEqual({
      exitCode: 3,
      code: 'not_found',
      summary: 'plant 7 not found',
      status: 404,
      requestId: 'r-7',
      sayFirst: undefined,
    });
    expect(endOf([serverError('7')])).toMatchObject({ exitCode: 1, code: 'http_error', status: 500, requestId: 'r-7' });
  });

  it("masks every secret the run knows in the one id's message", () => {
    registerSecret('s3cret-token-value');
    const error = new HttpError('echoed s3cret-token-value', 500, { error: null, message: 'x' });
    expect(endOf([failed('7', error)])!.summary).toBe('echoed ***');
  });

  it('names a wrong address, and how many plants were not attempted (one, or several)', () => {
    const wrong = failed('1', new HttpError('404 at the wrong address', 404, { error: null, message: 'nope' }));
    expect(endOf([wrong, skipped('2')])).toEqual({
      exitCode: 1,
      code: 'http_error',
      summary: '404 at the wrong address; 1 plant was not attempted',
      status: 404,
      requestId: null,
      sayFirst: undefined,
    });
    const page = failed('1', new NotTheServiceError('an HTML page answered'));
    expect(endOf([ok('0'), page, skipped('2'), skipped('3')])).toMatchObject({
      exitCode: 1,
      code: 'bad_response',
      summary: 'an HTML page answered; 2 plants were not attempted',
      status: null,
    });
  });

  it('masks the wrong address message too', () => {
    registerSecret('s3cret-token-value');
    const wrong = failed('1', new HttpError('at /s3cret-token-value/', 404, { error: null, message: 'nope' }));
    expect(endOf([wrong, ok('2')])!.summary).toBe('at /***/; 0 plants were not attempted');
  });

  it('puts a refused token above every other failure', () => {
    const refused = failed('2', new HttpError('401', 401, { error: 401, message: 'bad token' }));
    expect(endOf([serverError('1'), refused, skipped('3')])).toEqual({
      exitCode: 4,
      code: 'auth',
      summary: 'the service refused the token; 1 plant was not attempted',
      status: 401,
      requestId: null,
      sayFirst: undefined,
    });
  });

  it('puts a wrong address above a refused token', () => {
    const wrong = failed('1', new HttpError('wrong', 404, { error: null, message: 'nope' }));
    const refused = failed('2', new HttpError('401', 401, { error: 401, message: 'bad token' }));
    expect(endOf([wrong, refused])).toMatchObject({ exitCode: 1, summary: 'wrong; 0 plants were not attempted' });
  });

  it('a 403 refuses one plant, not the token: a partial failure', () => {
    const forbidden = failed('1', new HttpError('403', 403, { error: 403, message: 'no' }));
    expect(endOf([forbidden, ok('2')])).toMatchObject({
      exitCode: 1,
      code: 'partial_failure',
      summary: '1 of 2 deletes failed',
    });
  });

  it('says when to send the rest again after a service asked for fewer requests, the longest wait asked', () => {
    const end = endOf([throttled('1', 503, 2000), throttled('2', 429, 61_000), throttled('3', 429), skipped('4')]);
    const said =
      'the service answered 429 Too Many Requests and asks to be retried in 61 s; 1 plant was not attempted, so as not to add to its load: send them again later';
    expect(end).toEqual({
      exitCode: 1,
      code: 'http_error',
      summary: said,
      status: 429,
      requestId: null,
      sayFirst: said,
    });
  });

  it('without a Retry-After, says no wait; the first answer of equal waits is named', () => {
    const end = endOf([throttled('1', 429), throttled('2', 429), skipped('3'), skipped('4')]);
    expect(end!.summary).toBe(
      'the service answered 429 Too Many Requests; 2 plants were not attempted, so as not to add to its load: send them again later',
    );
    const tie = endOf([throttled('1', 503, 1000), throttled('2', 429, 1000), skipped('3')]);
    expect(tie!.status).toBe(503);
  });

  it('a 503 without Retry-After is no request for fewer requests', () => {
    const end = endOf([failed('1', new HttpError('503', 503, { error: null, message: 'down' })), skipped('2')]);
    expect(end).toMatchObject({ code: 'partial_failure', summary: '1 of 2 deletes failed', sayFirst: undefined });
  });

  it('a throttled run with nothing left to send is a partial failure', () => {
    expect(endOf([throttled('1', 429, 5000), ok('2')])).toMatchObject({
      code: 'partial_failure',
      summary: '1 of 2 deletes failed',
    });
  });

  it('exits 3 when every problem is a missing plant', () => {
    expect(endOf([notFound('1'), notFound('2'), ok('3')])).toEqual({
      exitCode: 3,
      code: 'not_found',
      summary: '2 of 3 plants were not found',
      status: null,
      requestId: null,
      sayFirst: undefined,
    });
  });

  it('counts failed and unknown together, saying how many may have been deleted', () => {
    expect(endOf([serverError('1'), unknown('2'), unknown('3'), notFound('4'), ok('5')])).toEqual({
      exitCode: 1,
      code: 'partial_failure',
      summary: '3 of 5 deletes failed (2 of them may have been deleted)',
      status: null,
      requestId: null,
      sayFirst: undefined,
    });
    expect(endOf([serverError('1'), ok('2')])!.summary).toBe('1 of 2 deletes failed');
  });

  it("a plan's plants that changed exit 5, above those not found; --ignore-missing leaves those out; a failure outranks both", () => {
    const changed = (id: string) =>
      driftOutcome({
        planned: { id, id_type: 'number', name: 'a', tag: null },
        action: 'changed',
        why: 'w',
        chosen: true,
      });
    const gone = (id: string) =>
      driftOutcome({ planned: { id, id_type: 'number', name: 'a', tag: null }, action: 'not_found', chosen: true });
    expect(endOf([changed('1'), ok('2')])).toEqual({
      exitCode: 5,
      code: 'changed',
      summary: '1 of 2 plants changed since the plan; make a new plan to delete them',
      status: null,
      requestId: null,
      sayFirst: undefined,
    });
    expect(endOf([changed('1'), changed('2'), gone('3'), notFound('4')])!.summary).toBe(
      '2 of 4 plants changed since the plan, 2 not found; make a new plan to delete them',
    );
    expect(endOf([changed('1'), gone('3')], true)!.summary).toBe(
      '1 of 2 plants changed since the plan; make a new plan to delete them',
    );
    expect(endOf([gone('1'), ok('2')])).toMatchObject({ exitCode: 3, summary: '1 of 2 plants were not found' });
    expect(endOf([gone('1'), ok('2')], true)).toBeUndefined();
    expect(endOf([changed('1'), serverError('2')])).toMatchObject({ exitCode: 1, code: 'partial_failure' });
  });
});
