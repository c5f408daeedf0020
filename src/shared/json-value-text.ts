/** The text of one JSON value as JsonValueBuilder reads it: where it ends, and a large string decoded in pieces. */

/** Character codes of JSON's delimiters. */
export const QUOTE = 34;
const BACKSLASH = '\\';
export const COMMA = 44;
export const COLON = 58;
export const OPEN_BRACKET = 91;
export const CLOSE_BRACKET = 93;
export const OPEN_BRACE = 123;
export const CLOSE_BRACE = 125;
/** What JSON.parse refuses unescaped in a string. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/;
/** A large string's decoded pieces are joined in runs of this many code units. */
const RUN = 1024 * 1024;

/** JSON's whitespace: space, line feed, carriage return, tab. */
export function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/** The index of `search` in `text` from `from`, or the text's length when absent. */
function indexOrEnd(text: string, search: string, from: number): number {
  const found = text.indexOf(search, from);
  return found === -1 ? text.length : found;
}

/**
 * The text of one value, read until it ends by the rules JsonArraySplitter
 * follows for an item: a string at its closing quote, an object or array
 * where its brackets balance, anything else before a delimiter.
 */
export class ValueText {
  readonly kind: 'string' | 'container' | 'scalar';
  /** The text so far, from the value's first character. */
  readonly pieces: string[] = [];
  length = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #started = false;

  constructor(first: number) {
    this.kind = first === QUOTE ? 'string' : first === OPEN_BRACE || first === OPEN_BRACKET ? 'container' : 'scalar';
  }

  /** Reads from `from`; returns the index just after the value, or -1 when it goes on past this text (kept). */
  read(text: string, from: number): number {
    let i = from;
    if (!this.#started) {
      this.#started = true;
      if (this.kind === 'string') this.#inString = true;
      else if (this.kind === 'container') this.#depth = 1;
      if (this.kind !== 'scalar') i += 1;
    }
    for (; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (code === 92) this.#escaped = true;
        else if (code === QUOTE) {
          this.#inString = false;
          if (this.kind === 'string') return this.#end(text, from, i + 1);
        }
        continue;
      }
      if (this.kind === 'scalar') {
        if (code === COMMA || code === CLOSE_BRACKET || code === CLOSE_BRACE || isSpace(code)) {
          return this.#end(text, from, i);
        }
        continue;
      }
      if (code === QUOTE) this.#inString = true;
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) this.#depth += 1;
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        this.#depth -= 1;
        if (this.#depth === 0) return this.#end(text, from, i + 1);
      }
    }
    this.pieces.push(text.slice(from));
    this.length += text.length - from;
    return -1;
  }

  #end(text: string, from: number, end: number): number {
    this.pieces.push(text.slice(from, end));
    return end;
  }

  /** The whole text (the value ended, or the text did). */
  close(): string {
    const text = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join('');
    this.pieces.length = 0;
    return text;
  }
}

/**
 * A large string, decoded piece by piece as its text arrives (an escape
 * the text of a piece ends inside waits for the next), and joined once it
 * ends: the pieces and the string are all that is held.
 */
export class StringPieces {
  readonly kind = 'string';
  /** Decoded text in runs of about RUN code units. */
  #decoded: string[] = [];
  /** The latest decoded pieces, not yet a run: joined while young, they are never copied into the old generation. */
  #run: string[] = [];
  #runLength = 0;
  /** The start of an escape that the last text ended inside. */
  #tail = '';
  #value: string | undefined;

  /** Reads from `from` (just after the opening quote, or on); returns the index just after the closing quote, or -1. */
  read(text: string, from: number): number {
    const tail = this.#tail;
    // The tail is an escape's start: read with what follows, from the escape on.
    const str = tail === '' ? text : tail + text.slice(from);
    const start = tail === '' ? from : 0;
    // Where the closing quote is, passing escapes; the first and last escape on the way.
    let quote = -1;
    let slash = -1;
    let first = -1;
    let last = -1;
    for (let at = start; ;) {
      if (quote < at) quote = indexOrEnd(str, '"', at);
      if (slash < at) slash = indexOrEnd(str, BACKSLASH, at);
      if (slash >= quote) break;
      if (first === -1) first = slash;
      last = slash;
      at = slash + 2;
    }
    const ended = quote < str.length;
    let stop = ended ? quote : str.length;
    if (!ended && last !== -1) {
      // An escape cut off by the end of this text (`\`, or `\u` and fewer than four digits) waits.
      const size = str.charCodeAt(last + 1) === 117 ? 6 : 2;
      if (last + size > str.length) stop = last;
    }
    if (stop > start) {
      const raw = str.slice(start, stop);
      const escaped = first !== -1 && first < stop;
      if (!escaped && CONTROL.test(raw)) throw new SyntaxError('a control character in a string');
      // Cut between escapes, each part decodes as the whole would: JSON.parse checks and decodes one with escapes.
      this.#add(escaped ? (JSON.parse(`"${raw}"`) as string) : raw);
    }
    if (!ended) {
      this.#tail = str.slice(stop);
      return -1;
    }
    this.#tail = '';
    this.#endRun();
    this.#value = this.#decoded.length === 1 ? this.#decoded[0]! : this.#decoded.join('');
    this.#decoded = [];
    return quote + 1 - tail.length + (tail === '' ? 0 : from);
  }

  #add(text: string): void {
    this.#run.push(text);
    this.#runLength += text.length;
    if (this.#runLength >= RUN) this.#endRun();
  }

  /**
   * The run as one string, an object of its own outside the heap's pages:
   * kept as the body's pieces (64 KiB each, a few to a page), they would
   * take a third more memory, and each be copied when it grows old.
   */
  #endRun(): void {
    if (this.#run.length > 0) this.#decoded.push(this.#run.length === 1 ? this.#run[0]! : this.#run.join(''));
    this.#run = [];
    this.#runLength = 0;
  }

  /** The string, once its closing quote was read. */
  value(): string {
    return this.#value!;
  }
}
