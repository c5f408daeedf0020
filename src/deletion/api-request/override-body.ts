import { bodyEncoding } from '../../shared/body-encoding.js';
import { stringEnd } from '../../shared/json-keys.js';

/**
 * A request body read as the parsers that honour a method override read
 * it: the parts of a multipart body, the members of a JSON object (each of
 * a key written twice: a parser that keeps the first reads another value
 * than JSON.parse, which keeps the last).
 */

/**
 * A body's text: UTF-16 when it is (its byte order mark, a declared
 * charset, an ASCII start in UTF-16, as bodyEncoding tells), else UTF-8; a
 * byte order mark dropped, as body parsers drop it.
 */
export function requestBodyText(body: Buffer, contentType: string | undefined): string {
  const encoding = bodyEncoding(contentType, body);
  const text =
    encoding === 'utf8'
      ? body.toString('utf8')
      : (encoding === 'utf16be' ? Buffer.from(body.subarray(0, body.length & ~1)).swap16() : body).toString('utf16le');
  return text.replace(/^\uFEFF/, '');
}

/** The names and values of a multipart body's parts (a value up to the line break before the next boundary). */
export function multipartParts(text: string): [names: string[], value: string][] {
  const parts: [string[], string][] = [];
  for (const part of text.split(/\r?\n--/)) {
    const blank = /\r?\n\r?\n/.exec(part);
    if (!blank) continue;
    const disposition = /content-disposition:([^\r\n]*)/i.exec(part.slice(0, blank.index))?.[1] ?? '';
    // `name=` and the RFC 5987 / 2231 extended `name*=UTF-8''%5Fmethod`: either may be the one read.
    const names = [...disposition.matchAll(/;\s*name(\*?)\s*=\s*(?:"([^"]*)"|([^;\s]*))/gi)].map((match) =>
      match[1] === '*' ? extValue(match[2] ?? match[3] ?? '') : (match[2] ?? match[3] ?? ''),
    );
    if (names.length > 0) parts.push([names, part.slice(blank.index + blank[0].length).trim()]);
  }
  return parts;
}

/** An RFC 5987 value, `charset'language'percent-encoded`, decoded (as it is when it cannot be). */
function extValue(value: string): string {
  const text = value.replace(/^[^']*'[^']*'/, '');
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The members of the JSON object `json` is (valid JSON, already parsed),
 * every one, a key written twice twice: its string values, and the strings
 * in an array value (a parser may read any of them).
 */
export function jsonMembers(json: string): [key: string, values: string[]][] {
  const members: [string, string[]][] = [];
  let i = skipSpace(json, 0);
  if (json[i] !== '{') return members;
  i = skipSpace(json, i + 1);
  while (json[i] === '"') {
    const keyEnd = stringEnd(json, i);
    const key = JSON.parse(json.slice(i, keyEnd + 1)) as string;
    const start = skipSpace(json, skipSpace(json, keyEnd + 1) + 1);
    const end = valueEnd(json, start);
    const value = JSON.parse(json.slice(start, end)) as unknown;
    const values = Array.isArray(value) ? value : [value];
    members.push([key, values.filter((item): item is string => typeof item === 'string')]);
    i = skipSpace(json, end);
    if (json[i] === ',') i = skipSpace(json, i + 1);
  }
  return members;
}

function skipSpace(json: string, from: number): number {
  let i = from;
  while (i < json.length && ' \t\r\n'.includes(json[i]!)) i += 1;
  return i;
}

/** Where the value that starts at `start` ends (exclusive): at a `,` or `}` outside any string, array or object. */
function valueEnd(json: string, start: number): number {
  let depth = 0;
  for (let i = start; i < json.length; i += 1) {
    const char = json[i]!;
    if (char === '"') i = stringEnd(json, i);
    else if (char === '{' || char === '[') depth += 1;
    else if ((char === '}' || char === ']') && depth > 0) depth -= 1;
    else if ((char === ',' || char === '}') && depth === 0) return trimEnd(json, start, i);
  }
  return trimEnd(json, start, json.length);
}

function trimEnd(json: string, start: number, end: number): number {
  let i = end;
  while (i > start && ' \t\r\n'.includes(json[i - 1]!)) i -= 1;
  return i;
}
