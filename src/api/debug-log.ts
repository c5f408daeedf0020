import { excerpt, type Redact } from '../shared/text.js';
import { maskUrl } from '../shared/url.js';

/**
 * The --debug lines of a client: the token masked in every line, the
 * Authorization header never shown, URLs in Location headers masked.
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

  line(line: string, headers?: Record<string, string | string[] | undefined>): void {
    const write = this.#write;
    if (!write) return;
    write(this.#redact(line));
    for (const [name, value] of Object.entries(headers ?? {})) {
      const lower = name.toLowerCase();
      const text = lower === 'location' || lower === 'content-location' ? maskUrl(String(value)) : String(value);
      const shown = lower === 'authorization' ? 'Bearer ***' : excerpt(text, 300, this.#redact);
      write(this.#redact(`  ${name}: ${shown}`));
    }
  }
}
