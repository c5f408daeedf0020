import { StringDecoder } from 'node:string_decoder';
import { maskSecrets } from '../secrets/registry.js';
import { asUtf8 } from '../shared/charset.js';
import { BadResponseError } from '../shared/errors.js';
import { JsonNumber, parseJson } from '../shared/json.js';
import { LARGE_TEXT } from '../shared/large-values.js';
import { TooLargeError } from '../shared/read-text.js';
import { excerpt, type PlainRows } from '../shared/text.js';
import { Utf8Checker } from '../shared/utf8.js';
import { JsonArraySplitter, TooDeepError, type LargeItem } from './json-array.js';
import { noteRepeatedFields } from './repeated-fields.js';
import { checkPlant, parsePlantList, type Plant } from './responses.js';

const WHAT = 'expected a JSON array of plants';
const JSON_BLANK = /^[ \t\n\r]*$/;
const LEADING_BLANK = /^[ \t\n\r]+/;

/**
 * Whether JSON text may hold a secret in one of its strings: as maskSecrets
 * finds it in the text, or in a string's own JSON escapes (`\u0054`, which
 * the text holds as `\\u0054`). The strings are then masked one by one.
 */
function mayHoldSecret(text: string): boolean {
  if (maskSecrets(text) !== text) return true;
  if (!text.includes('\\\\')) return false;
  const unescaped = text.replaceAll('\\\\', '\\');
  return maskSecrets(unescaped) !== unescaped;
}

/**
 * The plant with the secrets masked in every string it holds, its keys too,
 * its id aside: the id names the plant to the service (a DELETE of a masked
 * id would name another plant, or none), and shows as sent.
 */
function maskedPlant(plant: Plant): Plant {
  const masked = (value: unknown): unknown => {
    if (typeof value === 'string') return maskSecrets(value);
    if (Array.isArray(value)) return value.map(masked);
    if (value !== null && typeof value === 'object' && !(value instanceof JsonNumber)) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [maskSecrets(key), masked(item)]));
    }
    return value;
  };
  return Object.fromEntries(
    Object.entries(plant).map(([key, value]) => (key === 'id' ? [key, value] : [maskSecrets(key), masked(value)])),
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

/** Bytes that are not UTF-8 are shown as U+FFFD: said once, with where the first one is. */
class Utf8Warning {
  readonly #checker: Utf8Checker | undefined;
  readonly #warn: ((text: string) => void) | undefined;
  #said = false;

  constructor(warn: ((text: string) => void) | undefined) {
    this.#warn = warn;
    this.#checker = warn && new Utf8Checker();
  }

  push(chunk: Buffer): void {
    if (this.#checker && !this.#said) this.#say(this.#checker.push(chunk));
  }

  end(): void {
    if (this.#checker && !this.#said) this.#say(this.#checker.end());
  }

  #say(bad: number | undefined): void {
    if (bad === undefined || !this.#warn) return;
    this.#warn(
      `the response body is not valid UTF-8 from byte ${bad} on (counting from 0); such bytes are shown as U+FFFD (\ufffd)`,
    );
    this.#said = true;
  }
}

/** The items of the array, parsed: in one parse for the batch, or one at a time to say which is broken. */
function parseItems(texts: (string | LargeItem)[], index: number): { parsed: unknown[]; joined?: string } {
  let joined: string | undefined;
  try {
    // A large item is parsed alone: it is not copied again into a batch.
    if (texts.some((item) => typeof item !== 'string' || item.length > LARGE_TEXT)) {
      return { parsed: texts.map(parseItem) };
    }
    joined = (texts as string[]).join(',');
    return { parsed: parseJson(`[${joined}]`) as unknown[], joined };
  } catch {
    const parsed = texts.map((item, offset) => {
      try {
        return parseItem(item);
      } catch {
        const shown = typeof item === 'string' ? item : item.head;
        throw new BadResponseError(
          `item ${index + offset + 1} of the plant list is not valid JSON: ${excerpt(maskSecrets(shown), 200)}`,
        );
      }
    });
    return { parsed, joined };
  }
}

/** The array's items as checked plants, batch by batch; past `cap` (--limit) nothing is checked. */
class PlantBatches {
  readonly #splitter = new JsonArraySplitter();
  readonly #contentType: string | undefined;
  readonly #cap: number;
  #index = 0;

  constructor(contentType: string | undefined, cap: number) {
    this.#contentType = contentType;
    this.#cap = cap;
  }

  /** The plants the next piece of text completes. */
  next(text: string): PlantBatch {
    let texts: (string | LargeItem)[];
    try {
      texts = this.#splitter.push(text);
    } catch (err) {
      if (err instanceof TooDeepError) throw new BadResponseError(`${WHAT}, but ${err.message}`);
      throw new BadResponseError(
        `${WHAT}, but received ${this.#contentType || 'a body'} that is not JSON (${(err as Error).message}) near: ${excerpt(maskSecrets(text), 200)}`,
      );
    }
    // The same plants pass however the body was cut up.
    const overflow = this.#index + texts.length > this.#cap;
    if (overflow) texts = texts.slice(0, Math.max(0, this.#cap - this.#index));
    if (texts.length === 0) return Object.assign([], overflow ? { overflow } : {});
    const read = parseItems(texts, this.#index);
    let parsed = read.parsed;
    const { joined } = read;
    for (const item of parsed) {
      checkPlant(item, this.#index);
      this.#index += 1;
    }
    // A service that echoes a secret in a plant (in any form maskSecrets knows, JSON's escapes
    // included, which only the text as sent still has): masked there before anything shows it.
    const holdsSecret =
      joined === undefined
        ? texts.some((item) => typeof item === 'string' && mayHoldSecret(item))
        : mayHoldSecret(joined);
    if (holdsSecret) parsed = parsed.map((plant) => maskedPlant(plant as Plant));
    noteRepeatedFields(texts, parsed as Plant[], joined);
    const batch: PlantBatch = Object.assign(parsed as Plant[], overflow ? { overflow } : {});
    // JSON writes a backslash and every C0 control in a string as an escape, which starts with one.
    if (joined !== undefined && !joined.includes('\\')) batch.plain = true;
    return batch;
  }

  /** The input ended: an array not closed is malformed. */
  end(): void {
    try {
      this.#splitter.end();
    } catch (err) {
      throw new BadResponseError(`${WHAT}, but received JSON that ${(err as Error).message}`);
    }
  }
}

/**
 * The plants of a list response, validated as they arrive (the same checks
 * as parsePlantList), in batches (those completed by each piece of the
 * body), without holding the whole body. A body that is not an array is
 * read whole (up to `limit`) so the error can say what it is. The run's
 * secrets are masked in the plants and in the excerpts of errors.
 */
export async function* streamPlantList(
  body: AsyncIterable<Buffer>,
  contentType: string | undefined,
  limit: number,
  cap = Infinity,
  warn?: (text: string) => void,
): AsyncGenerator<PlantBatch> {
  // UTF-16 or UTF-32 (by its BOM or charset) read as UTF-8, which JSON is.
  body = asUtf8(body, contentType);
  const decoder = new StringDecoder('utf8');
  const utf8 = new Utf8Warning(warn);
  const plants = new PlantBatches(contentType, cap);
  let size = 0;
  const received = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) throw new TooLargeError(`larger than ${limit} bytes`);
    utf8.push(chunk);
  };
  let bomChecked = false;
  // Text before the first non-blank character shows whether this is an array at all.
  let pending = '';
  let started = false;
  for await (const chunk of body) {
    received(chunk);
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
          received(rest);
          pending += decoder.write(rest);
        }
        utf8.end();
        parsePlantList(pending + decoder.end(), contentType);
      }
      text = pending;
    }
    const batch = plants.next(text);
    if (batch.length || batch.overflow) yield batch;
    if (batch.overflow) return;
  }
  utf8.end();
  const rest = bomChecked ? decoder.end() : dropBom(decoder.end());
  if (!started) parsePlantList(rest, contentType); // empty, or only blanks: says so
  const batch = plants.next(rest);
  if (batch.length || batch.overflow) yield batch;
  if (batch.overflow) return;
  plants.end();
}
