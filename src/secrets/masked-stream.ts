import { maskSecrets } from './registry.js';

/**
 * Text that arrives in pieces (a response body streamed through), masked
 * as `mask` (maskSecrets) masks a whole text, with memory bounded by WINDOW, not by the
 * text's size. A token may be cut between two pieces: the last KEEP
 * characters are held back until more comes, and text is only let out up
 * to a cut that no masked span crosses. KEEP is the longest spelling of a
 * token that is masked whole across a cut: 64 KiB, far more than a token
 * (a 2 KB JWT) written with every character escaped (`&#x0002B;`, `\u002B`,
 * `%E2%82%AC`) or spaced out.
 */
const KEEP = 64 * 1024;
/** Text is let out in runs of about this much. */
const WINDOW = 1024 * 1024;
/**
 * Held at most: past this, every cut tried was crossed by a masked span (a
 * text of back-to-back tokens), and the text held is let out masked whole
 * (a token cut at its very end would show its first part).
 */
const MOST_HELD = 4 * WINDOW;
/** Cuts tried, each a little before the last: one that no masked span crosses is found at the first try but in text dense with tokens. */
const CUTS_TRIED = 8;
const CUT_STEP = 4099;

export class MaskedStream {
  readonly #mask: (text: string) => string;
  #held = '';

  /** `mask`: the secrets this run knows, or (tests) one token's redaction. */
  constructor(mask: (text: string) => string = maskSecrets) {
    this.#mask = mask;
  }

  /** The next piece; returns what can be let out, masked (often ''). */
  push(piece: string): string {
    this.#held += piece;
    if (this.#held.length < WINDOW + KEEP) return '';
    const text = this.#held;
    const masked = this.#mask(text);
    // Nothing masked: all but the held-back end goes out as it is.
    // Stryker disable next-line ConditionalExpression: a shortcut; the first cut tried below lets out the same.
    if (masked === text) return this.#letOut(text.length - KEEP, text.slice(0, text.length - KEEP));
    // A cut where the text before it, masked alone, reads as the start of the whole masked: no
    // masked span crosses it (one that did would show its first characters unmasked before the cut).
    for (let tried = 0, cut = text.length - KEEP; tried < CUTS_TRIED && cut > 0; tried += 1, cut -= CUT_STEP) {
      const head = this.#mask(text.slice(0, cut));
      if (masked.startsWith(head)) return this.#letOut(cut, head);
    }
    if (text.length < MOST_HELD) return '';
    this.#held = '';
    return masked;
  }

  /** The end of the text: whatever is held, masked. */
  end(): string {
    const text = this.#held;
    this.#held = '';
    return this.#mask(text);
  }

  #letOut(cut: number, shown: string): string {
    this.#held = this.#held.slice(cut);
    return shown;
  }
}
