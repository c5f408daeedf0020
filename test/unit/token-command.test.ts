import { afterEach, describe, expect, it } from 'vitest';
import { runTokenCommand } from '../../src/config/token-command.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';
import { AuthError } from '../../src/shared/errors.js';

afterEach(() => forgetSecrets());

describe('runTokenCommand: the last line of a failed command', () => {
  it('every secret the run knows is masked in it before it is cut to 200 characters', async () => {
    const secret = `Qok_${'A1b2C3d4'.repeat(8)}`;
    registerSecret(secret);
    const command = `printf '%s%s\\n' '${'x'.repeat(180)}' '${secret}' >&2; exit 1`;
    const failed = await runTokenCommand(command, {
      env: { PATH: process.env.PATH },
      terminal: false,
      what: 'it',
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(AuthError);
    expect((failed as Error).message).toBe(`it exited with status 1: ${'x'.repeat(180)}***; no token`);
  });
});
