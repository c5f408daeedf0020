import { maskSecrets } from '../secrets/registry.js';
import { excerpt } from '../shared/text.js';
import { shownHeaderValue } from './secret-headers.js';

/** How much of a response body --debug shows (docs/configuration.md, PLANTS_DEBUG). */
export const DEBUG_BODY_CHARACTERS = 1000;

/**
 * The --debug lines of a client: the run's secrets masked in every line
 * (maskSecrets: this log is one of the places text leaves the process), and
 * the values of headers that carry secrets (credentials, challenges,
 * cookies, keys, URLs in Location headers) masked as shownHeaderValue says.
 */
export class DebugLog {
  readonly #write: ((line: string) => void) | undefined;

  constructor(write: ((line: string) => void) | undefined) {
    this.#write = write;
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
    this.#write(`  body${size}: ${excerpt(maskSecrets(text), DEBUG_BODY_CHARACTERS)}`);
  }

  line(line: string, headers?: Record<string, string | string[] | undefined>): void {
    const write = this.#write;
    if (!write) return;
    write(maskSecrets(line));
    for (const [name, value] of Object.entries(headers ?? {})) {
      // The secrets are masked first, while they are whole: masking a header's parts may split one.
      const masked = Array.isArray(value) ? value.map(maskSecrets) : value && maskSecrets(value);
      write(maskSecrets(`  ${name}: ${excerpt(maskSecrets(shownHeaderValue(name, masked)), 300)}`));
    }
  }
}
