import { INVISIBLE } from './loose-text.js';

/**
 * Texts and numbers a service may take an id for before it reads the
 * number in it (protections.ts, idReadings): what protects plant 7 must
 * protect each of them too.
 */

/** Printable ASCII without `%`: NFKC, invisible characters and percent-decoding change nothing (the fast path). */
const PLAIN = /^[\x21-\x24\x26-\x7e]*$/;

/** Percent-decodings of one id at most: a proxy and an app that each decode make two; three leave room. */
const MAX_DECODES = 3;

/** A run of percent-escaped bytes. */
const ESCAPED = /(?:%[\da-fA-F]{2})+/g;
const utf8 = new TextDecoder('utf-8');

/**
 * `id`, then the texts a service may read it as: its NFKC form (`７`, `⁷`,
 * `⑦` are 7; `Ⅶ` is `VII`), that form without invisible characters
 * (`\u200b7` is 7: zero-width space, joiners, BOM, bidi marks, controls),
 * and each percent-decoding of that, as an app behind a proxy that decodes
 * once more reads `%37` (sent as `%2537`) as 7, up to MAX_DECODES times,
 * each decoded text read the same way. At most 3 + 3 × MAX_DECODES texts;
 * a printable ASCII id without `%` is only itself.
 */
export function idSpellings(id: string): string[] {
  if (PLAIN.test(id)) return [id];
  const found = new Set([id]);
  let clean = readable(id, found);
  for (let round = 0; round < MAX_DECODES && clean.includes('%'); round += 1) {
    const decoded = percentDecoded(clean);
    if (decoded === clean) break;
    found.add(decoded);
    clean = readable(decoded, found);
  }
  return [...found];
}

/** Add `text`'s NFKC form and that without invisible characters to `found`; return the latter. */
function readable(text: string, found: Set<string>): string {
  const normal = text.normalize('NFKC');
  const clean = normal.replace(INVISIBLE, '');
  found.add(normal).add(clean);
  return clean;
}

/**
 * Each run of valid `%XX` escapes as the UTF-8 it spells (a byte that is
 * not UTF-8 as U+FFFD), the rest as it is: a lenient decoder, where
 * decodeURIComponent would throw on `%zz` and read nothing.
 */
function percentDecoded(text: string): string {
  return text.replace(ESCAPED, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    return utf8.decode(bytes);
  });
}

const BITS_64 = 2n ** 64n;
/** Whole numbers a service holds as they are in any integer type: 0 to 2^31 - 1, written without a sign. */
const SMALL = /^\d{1,9}$/;
const WHOLE = /^-?\d+$/;
const NONE: readonly string[] = Object.freeze([]);
/** 2^63, the first number an int64 cannot hold. */
const INT64_LIMIT = '9223372036854775808';

/**
 * The numbers a service holding ids in a fixed-size integer reads a whole
 * number (in its plain decimal form, idKey) as: mod 2^32 unsigned and
 * signed (a C cast, JavaScript's `x | 0` and `x >>> 0`, Java's `(int)` of a
 * long) for a number outside 0 to 2^31 - 1, negative ones included (`-7`
 * is 4294967289 to a uint32), and mod 2^64 likewise outside 0 to 2^63 - 1
 * (strtoull of `-7`, a Java long of 2^64 + 7). None for a small number or text: the common case
 * costs one test.
 */
export function wrappedReadings(key: string): readonly string[] {
  if (SMALL.test(key) || !WHOLE.test(key)) return NONE;
  const negative = key.startsWith('-');
  const low64 = lowBits64(negative ? key.slice(1) : key);
  // The digits mod 2^64 carry every bit either width keeps; a negative number is their two's complement.
  const wrapped64 = negative ? (BITS_64 - low64) % BITS_64 : low64;
  const value = BigInt.asUintN(32, wrapped64);
  const readings = [value.toString(), BigInt.asIntN(32, value).toString()];
  if (negative || key.length > 19 || (key.length === 19 && key >= INT64_LIMIT))
    readings.push(wrapped64.toString(), BigInt.asIntN(64, wrapped64).toString());
  return [...new Set(readings)].filter((reading) => reading !== key);
}

/** Decimal digits mod 2^64, read 15 at a time: linear in the digits, however many (BigInt() of a megabyte is not). */
function lowBits64(digits: string): bigint {
  let value = 0n;
  for (let start = 0; start < digits.length; start += 15) {
    const chunk = digits.slice(start, start + 15);
    value = BigInt.asUintN(64, value * 10n ** BigInt(chunk.length) + BigInt(chunk));
  }
  return value;
}
