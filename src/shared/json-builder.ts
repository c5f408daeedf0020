import { parseJson } from './json.js';
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

const QUOTE = 34;
const BACKSLASH = '\\';
const COMMA = 44;
const COLON = 58;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
/** What JSON.parse refuses unescaped in a string. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/;
/** A large string's decoded pieces are joined in runs of this many code units. */
const RUN = 1024 * 1024;
/** Small members are parsed together once their text is this long. */
const GATHER = 64 * 1024;

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/** The index of `search` in `text` from `from`, or the text's length when absent. */
function indexOrEnd(text: string, search: string, from: number): number {
  const found = text.indexOf(search, from);
  return found === -1 ? text.length : found;
}

/** A value's text parsed alone: in an array, so that parseJson sees a number after a delimiter. */
function smallValue(text: string): unknown {
  return (parseJson(`[${text}]`) as unknown[])[0];
}

/** As JSON.parse makes a member: an own property, even `__proto__`; an earlier one of that key keeps its place. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** An object or array being built. */
class Container {
  readonly array: boolean;
  readonly target: Record<string, unknown> | unknown[];
  /** What comes next: a first member or the end, a key (after a comma), a colon, a value, a comma or the end. */
  next: 'first' | 'key' | 'colon' | 'value' | 'comma' = 'first';
  /** The current member's key: its text (parsed with its value when that is small too), else the key (large). */
  keyText: string | undefined;
  key = '';
  /** A large string is in it, as a member or deeper. */
  large = false;
  /** Text of the small members not yet parsed: `"key":value` or a value. */
  #gathered: string[] = [];
  #gatheredLength = 0;

  constructor(array: boolean) {
    this.array = array;
    this.target = array ? [] : {};
  }

  /** A small member's text, parsed with the next ones. */
  gather(text: string): void {
    this.#gathered.push(text);
    this.#gatheredLength += text.length;
    if (this.#gatheredLength >= GATHER) this.flush();
  }

  /** A member already built (large, or under a large key), after those gathered before it. */
  add(value: unknown): void {
    this.flush();
    if (Array.isArray(this.target)) this.target.push(value);
    else define(this.target, this.keyText === undefined ? this.key : (JSON.parse(this.keyText) as string), value);
  }

  /** Parse the gathered members, in order. */
  flush(): void {
    if (this.#gathered.length === 0) return;
    const text = this.#gathered.join(',');
    this.#gathered = [];
    this.#gatheredLength = 0;
    if (Array.isArray(this.target)) {
      for (const item of parseJson(`[${text}]`) as unknown[]) this.target.push(item);
      return;
    }
    const members = parseJson(`{${text}}`) as Record<string, unknown>;
    for (const key of Object.keys(members)) define(this.target, key, members[key]);
  }
}

/**
 * The text of one value, read until it ends by the rules JsonArraySplitter
 * follows for an item: a string at its closing quote, an object or array
 * where its brackets balance, anything else before a delimiter.
 */
class ValueText {
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
class StringPieces {
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
