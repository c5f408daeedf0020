import { redactToken } from './redact.js';

/**
 * The secrets this run knows (the token in effect, and any other a message
 * may quote), registered where each is read. Text is masked against all of
 * them where it leaves the process, so a message written anywhere needs no
 * masking of its own.
 */
const SECRETS = new Set<string>();

/** Remember a secret read by this run (an empty or missing one is no secret). */
export function registerSecret(value: string | undefined): void {
  if (value) SECRETS.add(value);
}

/** `text` with every secret this run knows hidden, in every form redactToken knows. */
export function maskSecrets(text: string): string {
  let masked = text;
  for (const secret of SECRETS) masked = redactToken(masked, secret);
  return masked;
}

/** Forget every secret: for tests that run many commands in one process. */
export function forgetSecrets(): void {
  SECRETS.clear();
}
