import { maskUrl } from '../shared/url.js';
import { redactToken } from './redact.js';

/**
 * The secrets this run knows, registered where each is read: the token in
 * effect (context.ts, config/settings.ts lookupToken), PLANTS_TOKEN as set,
 * and every profile's stored token a message may quote (known-tokens.ts).
 * Text is masked against all of them where it leaves the process (the
 * stdout and stderr writers, the journal writer, the debug log), and where
 * it is cut first (an excerpt: a cut token's first part would not be found).
 *
 * One kind of secret: a token, masked in every form redactToken knows;
 * the secrets of headers given to `plants api -H` are registered as tokens
 * (header-secrets.ts). Other secrets are masked by where they stand, not
 * by value: a base URL's userinfo and query (maskUrl; a base URL with
 * credentials is refused), a secret header's value in the debug log
 * (http/secret-headers.ts), whatever it holds.
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

/**
 * A URL, or text meant as one, as shown: the secrets masked in it whole,
 * then its userinfo and its query's values (maskUrl, the parameters' names
 * shown: no token is left to be cut at an `=`).
 */
export function maskedUrl(text: string): string {
  return maskUrl(maskSecrets(text), true);
}

/** Forget every secret: for tests that run many commands in one process. */
export function forgetSecrets(): void {
  SECRETS.clear();
}
