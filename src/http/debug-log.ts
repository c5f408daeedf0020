import { excerpt, type Redact } from '../shared/text.js';
import { shownHeaderValue } from './secret-headers.js';

/** How much of a response body --debug shows (docs/commands.md, Global options). */
export const DEBUG_BODY_CHARACTERS = 1000;

/**
 * The --debug lines of a client: the token masked in every line, and the
 * values of headers that carry secrets (credentials, challenges, cookies,
 * keys, URLs in Location headers) masked as shownHeaderValue says.
 */
export class DebugLog {
  readonly #write: ((line: string) => void) | undefined;
  readonly #redact: Redact;

  constructor(write: ((line: string) => void) | undefined, redact: Redact) {
    this.#write = write;
    this.#redact = redact;
  }

  /** Whether lines go anywhere: callers skip building costly ones otherwise. */
  get on(): boolean {
    return this.#write !== undefined;
  }

  /**
   * A response body, as --debug shows it: the token masked (before the cut),
   * on one line, its first DEBUG_BODY_CHARACTERS characters; `bytes`, when
   * known, says how much there was in all.
   */
  body(text: string, bytes?: number): void {
    if (!this.#write) return;
    if (text === '' && !bytes) {
      this.#write('  (no body)');
      return;
    }
    const size = bytes === undefined ? '' : ` (${bytes} bytes)`;
    this.#write(`  body${size}: ${excerpt(this.#redact(text), DEBUG_BODY_CHARACTERS)}`);
  }

  line(line: string, headers?: Record<string, string | string[] | undefined>): void {
    const write = this.#write;
    if (!write) return;
    write(this.#redact(line));
    for (const [name, value] of Object.entries(headers ?? {})) {
      // The token is masked first, while it is whole: masking a header's parts may split it.
      const redacted = Array.isArray(value) ? value.map(this.#redact) : value && this.#redact(value);
      write(this.#redact(`  ${name}: ${excerpt(this.#redact(shownHeaderValue(name, redacted, this.#redact)), 300)}`));
    }
  }
}
