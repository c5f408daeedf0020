import { StringDecoder } from 'node:string_decoder';
import { BadResponseError } from '../shared/errors.js';
import { JsonNumber, parseJson } from '../shared/json.js';
import { JsonValueBuilder } from '../shared/json-builder.js';
import { LARGE_TEXT } from '../shared/large-values.js';
import { asUtf8 } from '../shared/charset.js';
import { excerpt, type PlainRows, type Redact } from '../shared/text.js';
import { TooLargeError } from '../shared/read-text.js';
import { Utf8Checker } from '../shared/utf8.js';
import { noteRepeatedFields, WATCHED_FIELDS } from './repeated-fields.js';
import { checkPlant, parsePlantList, type Plant } from './responses.js';

const WHAT = 'expected a JSON array of plants';

/**
 * Deeper nesting inside one plant is refused, naming the plant: no real
 * plant nests so, and what shows a plant (JSON.stringify, a table cell)
 * recurses once per level.
 */
export const MAX_PLANT_DEPTH = 1000;

/** An item nests deeper than MAX_PLANT_DEPTH: `item` is its position in the array, from 1. */
export class TooDeepError extends SyntaxError {
  readonly item: number;
  constructor(item: number) {
    super(`item ${item} nests deeper than ${MAX_PLANT_DEPTH} levels`);
    this.item = item;
  }
}
const JSON_BLANK = /^[ \t\n\r]*$/;
const LEADING_BLANK = /^[ \t\n\r]+/;
const QUOTE = 34;

/** The index of `search` in `text` from `from`, or the text's length when absent. */
function indexOrEnd(text: string, search: string, from: number): number {
  const found = text.indexOf(search, from);
  return found === -1 ? text.length : found;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/** How much of a large item's text is kept for an error's excerpt (its white space runs made one space). */
const HEAD = 64 * 1024;
const WHITE_SPACE = /\s+/g;

/**
 * An item whose text grew past LARGE_TEXT before it ended: rather than
 * carried and joined into one text, its text is built into its value as it
 * arrives (JsonValueBuilder), which holds a large string twice at most (its
 * pieces and itself) where the text and its parse held it three times.
 */
export class LargeItem {
  readonly #builder: JsonValueBuilder;
  #head = '';
  #headDone = false;

  /** `large`: see JsonValueBuilder (smaller in tests). */
  constructor(large = LARGE_TEXT) {
    this.#builder = new JsonValueBuilder(large, WATCHED_FIELDS);
  }

  /** The values of `id`, `name` or `tag` when the plant wrote one more than once (repeated-fields.ts). */
  repeatedValues(): Map<string, unknown[]> | undefined {
    return this.#builder.repeatedValues();
  }

  feed(text: string): void {
    if (!this.#headDone) {
      this.#head += text.slice(0, HEAD);
      if (this.#head.length >= HEAD) {
        // excerpt() makes every run of white space one space anyway: what is left is what it shows.
        this.#head = this.#head.replace(WHITE_SPACE, ' ');
        this.#headDone = this.#head.length >= HEAD;
      }
    }
    this.#builder.feed(text);
  }

  /** The item's value; throws a SyntaxError where parseJson of its text would. */
  value(): unknown {
    return this.#builder.finish();
  }

  /** The start of its text, for an excerpt: what excerpt() shows of it is what it would show of the whole text. */
  get head(): string {
    return this.#head;
  }
}

/**
 * Splits a JSON array that arrives in pieces into the text of its items, as
 * each one completes. It only tracks strings and nesting; each item is then
 * parsed on its own, so memory holds one item, not the whole array. An item
 * whose text grows past LARGE_TEXT is built as it comes, a LargeItem.
 */
export class JsonArraySplitter {
  #state: 'before' | 'between' | 'item' | 'after' = 'before';
  #depth = 0;
  #inString = false;
  #escaped = false;
  /**
   * The current item's text from earlier pieces, as pieces: joined once when
   * the item ends (a string grown piece by piece is a rope that would be
   * copied again to be read, beside its pieces).
   */
  #carry: string[] = [];
  #carryLength = 0;
  /** The current item, once its text grew past LARGE_TEXT: its text goes there rather than to the carry. */
  #large: LargeItem | undefined;
  /** A scalar item (number, true, …) ends at a delimiter rather than a bracket. */
  #scalar = false;
  #expectItem = true;
  #count = 0;
  /** An item's text longer than this is built as it comes (smaller in tests). */
  readonly #largeItem: number;

  constructor(largeItem = LARGE_TEXT) {
    this.#largeItem = largeItem;
  }

  /** Feed the next piece; returns the items it completed. Throws SyntaxError on malformed structure. */
  push(text: string): (string | LargeItem)[] {
    const items: (string | LargeItem)[] = [];
    let start = this.#state === 'item' ? 0 : -1;
    // Where the next backslash and quote are, each looked up again only once
    // i has passed it: a long string full of escapes is still read once.
    let backslash = -1;
    let quote = -1;
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      if (this.#state === 'item') {
        if (this.#inString) {
          if (this.#escaped) {
            this.#escaped = false;
            continue;
          }
          // Jump to the string's end, or to the next escape in it.
          if (backslash < i) backslash = indexOrEnd(text, '\\', i);
          if (quote < i) quote = indexOrEnd(text, '"', i);
          if (backslash < quote) {
            i = backslash;
            this.#escaped = true;
          } else if (quote < text.length) {
            i = quote;
            this.#inString = false;
            if (this.#depth === 0 && !this.#scalar) items.push(this.#finish(text, start, i + 1));
          } else {
            i = text.length; // the string goes on in the next piece
          }
          continue;
        }
        if (this.#scalar) {
          if (code === 44 || code === 93 || isSpace(code)) {
            items.push(this.#finish(text, start, i));
            i -= 1; // the delimiter is handled between items
          }
          continue;
        }
        if (code === QUOTE) this.#inString = true;
        else if (code === 123 || code === 91) {
          this.#depth += 1;
          if (this.#depth > MAX_PLANT_DEPTH) throw new TooDeepError(this.#count);
        } else if (code === 125 || code === 93) {
          this.#depth -= 1;
          if (this.#depth === 0) items.push(this.#finish(text, start, i + 1));
        }
        continue;
      }
      if (isSpace(code)) continue;
      if (this.#state === 'before') {
        if (code !== 91) throw new SyntaxError('not an array');
        this.#state = 'between';
        continue;
      }
      if (this.#state === 'after') throw new SyntaxError('text after the end of the array');
      // Between items.
      // `]` closes the array after an item, or right after `[`; not after a comma.
      if (code === 93 && (!this.#expectItem || this.#count === 0)) {
        this.#state = 'after';
        continue;
      }
      if (code === 44 && !this.#expectItem) {
        this.#expectItem = true;
        continue;
      }
      if (!this.#expectItem) throw new SyntaxError('missing comma between items');
      if (code === 93 || code === 44) throw new SyntaxError('a comma with no item after it');
      this.#state = 'item';
      this.#expectItem = false;
      this.#count += 1;
      start = i;
      this.#scalar = code !== 123 && code !== 91 && code !== QUOTE;
      if (code === QUOTE) this.#inString = true;
      else if (!this.#scalar) this.#depth = 1;
    }
    if (this.#state === 'item') this.#keep(text.slice(start));
    return items;
  }

  /** Text of the current item that goes on in the next piece. */
  #keep(text: string): void {
    if (this.#large) {
      this.#large.feed(text);
      return;
    }
    this.#carry.push(text);
    this.#carryLength += text.length;
    // A number that long is carried on: it is no plant, and said so once it ends.
    if (this.#carryLength <= this.#largeItem || this.#scalar) return;
    this.#large = new LargeItem(this.#largeItem);
    for (const piece of this.#carry) this.#large.feed(piece);
    this.#carry = [];
    this.#carryLength = 0;
  }

  #finish(text: string, start: number, end: number): string | LargeItem {
    let item: string | LargeItem = text.slice(start, end);
    if (this.#large) {
      this.#large.feed(item);
      item = this.#large;
      this.#large = undefined;
    } else if (this.#carry.length > 0) {
      this.#carry.push(item);
      item = this.#carry.join('');
      this.#carry = [];
      this.#carryLength = 0;
    }
    this.#state = 'between';
    this.#scalar = false;
    return item;
  }

  /** The input ended: anything unfinished is malformed. */
  end(): void {
    if (this.#state !== 'after') throw new SyntaxError('ends before the array is closed');
  }
}

/**
 * Whether JSON text may hold the token in one of its strings: as redact
 * finds it in the text, or in a string's own JSON escapes (`\u0054`, which
 * the text holds as `\\u0054`). The strings are then masked one by one.
 */
function mayHoldToken(text: string, redact: Redact): boolean {
  if (redact(text) !== text) return true;
  if (!text.includes('\\\\')) return false;
  const unescaped = text.replaceAll('\\\\', '\\');
  return redact(unescaped) !== unescaped;
}

/**
 * The plant with the token masked in every string it holds, its keys too,
 * its id aside: the id names the plant to the service (a DELETE of a masked
 * id would name another plant, or none), and shows as sent.
 */
function maskedPlant(plant: Plant, redact: Redact): Plant {
  const masked = (value: unknown): unknown => {
    if (typeof value === 'string') return redact(value);
    if (Array.isArray(value)) return value.map(masked);
    if (value !== null && typeof value === 'object' && !(value instanceof JsonNumber)) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), masked(item)]));
    }
    return value;
  };
  return Object.fromEntries(
    Object.entries(plant).map(([key, value]) => (key === 'id' ? [key, value] : [redact(key), masked(value)])),
  ) as Plant;
}

function parseItem(item: string | LargeItem): unknown {
  return typeof item === 'string' ? parseJson(item) : item.value();
}

/** The text without a byte order mark at its start. */
function dropBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Plants checked together; `overflow` when the response has more than the cap after them. */
export type PlantBatch = Plant[] & { overflow?: true } & PlainRows;

/**
 * The plants of a list response, validated as they arrive (the same checks
 * as parsePlantList), in batches (those completed by each piece of the
 * body), without holding the whole body. A body that is not an array is
 * read whole (up to `limit`) so the error can say what it is. `redact`
 * masks the token in the excerpts of errors.
 */
export async function* streamPlantList(
  body: AsyncIterable<Buffer>,
  contentType: string | undefined,
  limit: number,
  redact: Redact,
  cap = Infinity,
  warn?: (text: string) => void,
): AsyncGenerator<PlantBatch> {
  // UTF-16 or UTF-32 (by its BOM or charset) read as UTF-8, which JSON is.
  body = asUtf8(body, contentType);
  const decoder = new StringDecoder('utf8');
  // Bytes that are not UTF-8 are shown as U+FFFD: said once, with where the first one is.
  const utf8 = warn && new Utf8Checker();
  const checkUtf8 = (bad: number | undefined) => {
    if (bad === undefined || !warn) return;
    warn(
      `the response body is not valid UTF-8 from byte ${bad} on (counting from 0); such bytes are shown as U+FFFD (\ufffd)`,
    );
    checkUtf8Done = true;
  };
  let checkUtf8Done = false;
  let bomChecked = false;
  const splitter = new JsonArraySplitter();
  let size = 0;
  let index = 0;
  // Text before the first non-blank character shows whether this is an array at all.
  let pending = '';
  let started = false;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new TooLargeError(`larger than ${limit} bytes`);
    if (utf8 && !checkUtf8Done) checkUtf8(utf8.push(chunk));
    let text = decoder.write(chunk);
    if (!bomChecked && text !== '') {
      // A byte order mark before the JSON (RFC 8259 lets a parser ignore it) is not part of it.
      bomChecked = true;
      text = dropBom(text);
    }
    if (!started) {
      pending += text;
      // JSON's own whitespace only: trim() would also skip a BOM or U+00A0.
      if (JSON_BLANK.test(pending)) {
        pending = ''; // only blanks so far: nothing to keep
        continue;
      }
      started = true;
      if (pending.replace(LEADING_BLANK, '')[0] !== '[') {
        // Not an array: read it whole (bounded) so the buffered check can say what it is.
        for await (const rest of body) {
          size += rest.length;
          if (size > limit) throw new TooLargeError(`larger than ${limit} bytes`);
          if (utf8 && !checkUtf8Done) checkUtf8(utf8.push(rest));
          pending += decoder.write(rest);
        }
        if (utf8 && !checkUtf8Done) checkUtf8(utf8.end());
        parsePlantList(pending + decoder.end(), contentType, redact);
      }
      text = pending;
    }
    const batch = items(text);
    if (batch.length || batch.overflow) yield batch;
    if (batch.overflow) return;
  }
  if (utf8 && !checkUtf8Done) checkUtf8(utf8.end());
  const rest = bomChecked ? decoder.end() : dropBom(decoder.end());
  if (!started) parsePlantList(rest, contentType, redact); // empty, or only blanks: says so
  const batch = items(rest);
  if (batch.length || batch.overflow) yield batch;
  if (batch.overflow) return;
  try {
    splitter.end();
  } catch (err) {
    throw new BadResponseError(`${WHAT}, but received JSON that ${(err as Error).message}`);
  }

  function items(text: string): PlantBatch {
    let texts: (string | LargeItem)[];
    try {
      texts = splitter.push(text);
    } catch (err) {
      if (err instanceof TooDeepError) throw new BadResponseError(`${WHAT}, but ${err.message}`);
      throw new BadResponseError(
        `${WHAT}, but received ${contentType || 'a body'} that is not JSON (${(err as Error).message}) near: ${excerpt(redact(text), 200)}`,
      );
    }
    // Past the cap (--limit) nothing is checked: the same plants pass however the body was cut up.
    const overflow = index + texts.length > cap;
    if (overflow) texts = texts.slice(0, Math.max(0, cap - index));
    if (texts.length === 0) return Object.assign([], overflow ? { overflow } : {});
    let parsed: unknown[];
    // The batch's text, when it is one: what is searched for the token.
    let joined: string | undefined;
    try {
      // One parse for the batch (one at a time to find which item is broken); with a large
      // item, each alone: it is not copied again into a batch.
      parsed = texts.some((item) => typeof item !== 'string' || item.length > LARGE_TEXT)
        ? texts.map(parseItem)
        : (parseJson(`[${(joined = (texts as string[]).join(','))}]`) as unknown[]);
    } catch {
      parsed = texts.map((item, offset) => {
        try {
          return parseItem(item);
        } catch {
          const shown = typeof item === 'string' ? item : item.head;
          throw new BadResponseError(
            `item ${index + offset + 1} of the plant list is not valid JSON: ${excerpt(redact(shown), 200)}`,
          );
        }
      });
    }
    for (const item of parsed) {
      checkPlant(item, index, redact);
      index += 1;
    }
    // A service that echoes the token in a plant (in any form redact knows, JSON's escapes
    // included, which only the text as sent still has): masked there before anything shows it.
    const holdsToken =
      joined === undefined
        ? texts.some((item) => typeof item === 'string' && mayHoldToken(item, redact))
        : mayHoldToken(joined, redact);
    if (holdsToken) parsed = parsed.map((plant) => maskedPlant(plant as Plant, redact));
    noteRepeatedFields(texts, parsed as Plant[], redact, joined);
    const batch: PlantBatch = Object.assign(parsed as Plant[], overflow ? { overflow } : {});
    // JSON writes a backslash and every C0 control in a string as an escape, which starts with one.
    if (joined !== undefined && !joined.includes('\\')) batch.plain = true;
    return batch;
  }
}
