import { parseJson } from './json.js';
import { Container } from './json-container.js';
import {
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  isSpace,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  StringPieces,
  ValueText,
} from './json-value-text.js';
import { LARGE_TEXT, markHoldsLarge } from './large-values.js';

/**
 * One JSON value built from its text given piece by piece, for a value too
 * large to parse from one string: a plant with a 400 MB name. Joining its
 * pieces into one text and parsing that would hold the pieces, the text and
 * the parsed name at once (three times the name); here a large string is
 * kept as its decoded pieces and joined once when it ends, so at most the
 * pieces and the string are held (twice the name), and nothing else of the
 * value is copied whole.
 *
 * Everything but the large strings goes through parseJson: the members of
 * an object or array are gathered as text and parsed in groups, and a value
 * whose text grows past LARGE_TEXT is built member by member in turn. The
 * result is what parseJson of the whole text gives (numbers JSON.parse
 * would change as JsonNumber, `__proto__` an own key, the last of two equal
 * keys where the first was), and finish() throws a SyntaxError where
 * parseJson would. The objects and arrays that hold a large string are
 * marked (markHoldsLarge), so that they are written in pieces too.
 *
 * It does not look for the end of the value, nor limit nesting: the caller
 * (JsonArraySplitter) gives it exactly the value's text, already checked.
 */
export class JsonValueBuilder {
  /** The objects and arrays open around the current place, outermost first. */
  readonly #open: Container[] = [];
  /** The value being read: its text, or a large string's pieces. */
  #reading: ValueText | StringPieces | undefined;
  #result: { value: unknown } | undefined;
  #error: Error | undefined;
  /** A value whose text grows longer than this is built member by member, a string in pieces (smaller in tests). */
  readonly #large: number;
  /** Keys of the outermost object whose every value is kept, where parsing keeps only the last. */
  readonly #watch: ReadonlySet<string> | undefined;
  readonly #watched = new Map<string, unknown[]>();
  /** The watched key whose value comes next, at the top level. */
  #watchedKey: string | undefined;

  /** `watch`: keys of the outermost object to keep every value of, when one is written twice (repeatedValues). */
  constructor(large = LARGE_TEXT, watch?: ReadonlySet<string>) {
    this.#large = large;
    this.#watch = watch;
  }

  /** Each watched key the outermost object wrote more than once, with every value it was given, in order. */
  repeatedValues(): Map<string, unknown[]> | undefined {
    const repeated = new Map([...this.#watched].filter(([, values]) => values.length > 1));
    return repeated.size > 0 ? repeated : undefined;
  }

  /** A member of the outermost object was read: keep it if its key is watched (a small value as its text, parsed). */
  #watchValue(value: unknown, text?: string): void {
    if (this.#watchedKey === undefined || this.#open.length !== 1) return;
    const values = this.#watched.get(this.#watchedKey) ?? [];
    values.push(text === undefined ? value : smallValue(text));
    this.#watched.set(this.#watchedKey, values);
    this.#watchedKey = undefined;
  }

  /** The next piece of the value's text. */
  feed(text: string): void {
    if (this.#error !== undefined) return;
    try {
      this.#read(text, 0);
    } catch (err) {
      // Kept for finish(); the rest of the text is not read, and what was built is let go.
      this.#error = err instanceof Error ? err : new SyntaxError(String(err));
      this.#open.length = 0;
      this.#reading = undefined;
    }
  }

  /** The value, once all its text was fed; throws where parseJson of that text would (a SyntaxError). */
  finish(): unknown {
    if (this.#error !== undefined) throw this.#error;
    const reading = this.#reading;
    // A number (or true, …) at the top ends with the text.
    if (reading instanceof ValueText && reading.kind === 'scalar' && this.#open.length === 0) {
      this.#reading = undefined;
      this.#result = { value: parseJson(reading.close()) };
    }
    if (this.#result === undefined || this.#reading !== undefined) throw new SyntaxError('the value is not complete');
    return this.#result.value;
  }

  #read(text: string, from: number): void {
    let i = from;
    while (i < text.length) {
      const reading = this.#reading;
      if (reading !== undefined) {
        const end = reading.read(text, i);
        if (end === -1) {
          if (reading instanceof ValueText && reading.length > this.#large) this.#enlarge(reading);
          return;
        }
        this.#reading = undefined;
        this.#place(reading);
        i = end;
        continue;
      }
      const code = text.charCodeAt(i);
      if (isSpace(code)) {
        i += 1;
        continue;
      }
      const top = this.#open.at(-1);
      if (top === undefined) {
        if (this.#result !== undefined) throw new SyntaxError('text after the value');
        // The value is large: an object or array is built member by member, a string in pieces.
        if (code === OPEN_BRACE || code === OPEN_BRACKET) {
          this.#open.push(new Container(code === OPEN_BRACKET));
          i += 1;
        } else if (code === QUOTE) {
          this.#reading = new StringPieces();
          i += 1;
        } else this.#begin(code);
        continue;
      }
      i = this.#step(top, i, code);
    }
  }

  /** One character between the members of `top`; returns where to read on. */
  #step(top: Container, i: number, code: number): number {
    const close = top.array ? CLOSE_BRACKET : CLOSE_BRACE;
    switch (top.next) {
      case 'first':
        if (code === close) return this.#close(i);
        if (!top.array && code !== QUOTE) throw new SyntaxError('expected a key');
        this.#begin(code);
        return i;
      case 'key':
        if (code !== QUOTE) throw new SyntaxError('expected a key');
        this.#begin(code);
        return i;
      case 'colon':
        if (code !== COLON) throw new SyntaxError('expected a colon');
        top.next = 'value';
        return i + 1;
      case 'value':
        this.#begin(code);
        return i;
      case 'comma':
        if (code === close) return this.#close(i);
        if (code !== COMMA) throw new SyntaxError('expected a comma');
        top.next = top.array ? 'value' : 'key';
        return i + 1;
    }
  }

  /** A value starts at this character: read its text (a delimiter starts none). */
  #begin(code: number): void {
    if (code === COMMA || code === COLON || code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      throw new SyntaxError('expected a value');
    }
    this.#reading = new ValueText(code);
  }

  /** The value being read grew large: a string goes on in pieces, an object or array member by member. */
  #enlarge(reading: ValueText): void {
    if (reading.kind === 'scalar') return;
    const [first = '', ...rest] = reading.pieces;
    if (reading.kind === 'string') {
      const pieces = new StringPieces();
      this.#reading = pieces;
      pieces.read(first, 1);
      for (const piece of rest) pieces.read(piece, 0);
      return;
    }
    // Its text so far is read again, now as members: at most LARGE_TEXT and a piece, once a level.
    this.#reading = undefined;
    this.#open.push(new Container(first.charCodeAt(0) === OPEN_BRACKET));
    this.#read(first, 1);
    for (const piece of rest) this.#read(piece, 0);
  }

  /** The value just read, where it goes: the result, a key, or a member of the object or array around it. */
  #place(reading: ValueText | StringPieces): void {
    const top = this.#open.at(-1);
    if (top === undefined) {
      this.#result = { value: reading instanceof StringPieces ? reading.value() : parseJson(reading.close()) };
      return;
    }
    if (!top.array && top.next !== 'value') {
      // A key: parsed with its member when both are small.
      if (reading.kind !== 'string') throw new SyntaxError('expected a key');
      if (reading instanceof ValueText) top.keyText = reading.close();
      else {
        top.keyText = undefined;
        top.key = reading.value();
        top.large = true;
      }
      top.next = 'colon';
      if (this.#watch !== undefined && this.#open.length === 1) {
        const key = top.keyText === undefined ? top.key : (JSON.parse(top.keyText) as string);
        this.#watchedKey = this.#watch.has(key) ? key : undefined;
      }
      return;
    }
    top.next = 'comma';
    if (reading instanceof StringPieces) {
      const value = reading.value();
      this.#watchValue(value);
      top.add(value);
      top.large = true;
      return;
    }
    const text = reading.close();
    this.#watchValue(undefined, text);
    if (top.array) top.gather(text);
    else if (top.keyText !== undefined) top.gather(`${top.keyText}:${text}`);
    else top.add(smallValue(text));
  }

  /** The object or array on top ends at `i` (with the right bracket); returns where to read on. */
  #close(i: number): number {
    const done = this.#open.pop()!;
    done.flush();
    if (done.large) markHoldsLarge(done.target);
    const top = this.#open.at(-1);
    if (top === undefined) this.#result = { value: done.target };
    else {
      top.next = 'comma';
      top.add(done.target);
      this.#watchValue(done.target);
      if (done.large) top.large = true;
    }
    return i + 1;
  }
}

/** A value's text parsed alone: in an array, so that parseJson sees a number after a delimiter. */
function smallValue(text: string): unknown {
  return (parseJson(`[${text}]`) as unknown[])[0];
}
