import { bodyEncoding as charsetOf } from './charset.js';

/** The encodings a body is read in where a token must be found in it, or a method override read from it. */
export type BodyEncoding = 'utf8' | 'utf16le' | 'utf16be';

/** Bytes a body's encoding is told from. */
export const SNIFFED = 4;

/**
 * The encoding to read a body in, from its Content-Type and its first bytes
 * (at least 4, unless it is shorter), as charset.ts tells it: UTF-16
 * by its byte order mark, declared charset or ASCII start; anything else,
 * UTF-32 too (its NULs are characters the masker passes over), as UTF-8.
 */
export function bodyEncoding(contentType: string | undefined, start: Uint8Array): BodyEncoding {
  const encoding = charsetOf(start.subarray(0, SNIFFED), contentType);
  return encoding === 'utf-16le' ? 'utf16le' : encoding === 'utf-16be' ? 'utf16be' : 'utf8';
}
