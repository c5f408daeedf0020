import { JsonValueBuilder } from '../shared/json-builder.js';
import { LARGE_TEXT } from '../shared/large-values.js';
import { WATCHED_FIELDS } from './repeated-fields.js';

/**
 * A JSON array read as it arrives, item by item: the splitter finds each
 * item's text (a large one built into its value as it comes), so memory
 * holds one item, not the whole array.
 */

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
