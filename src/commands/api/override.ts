import { bodyEncoding } from '../../output/masked-body.js';

/**
 * Where a request of another method asks the service to take it for a
 * DELETE: a method-override header, or a method parameter in the query or
 * in a form, multipart or JSON body (Rails, Laravel, Symfony, Spring,
 * Express's method-override, Google APIs). A service that honours it
 * deletes: `plants api` guards and records it as the DELETE it is.
 */

/** Headers by which a service may take a request for another method; names compared in lower case, `_` read as `-`. */
const OVERRIDE_HEADERS = ['x-http-method-override', 'x-http-method', 'x-method-override'];

/**
 * A parameter's name as the parsers that read `_method` may take it, in
 * any case: PHP drops leading spaces and reads `.` and a space as `_`
 * (`.method`, ` method`, `+method` in a query), Rack 2 drops a leading
 * bracket (`[_method]`).
 */
export function isMethodKey(name: string): boolean {
  const bare = name.replace(/^\[+/, '').replace(/\]+$/, '');
  return [bare, bare.trimStart()].some((key) => key.replace(/[.\s]/g, '_').toLowerCase() === '_method');
}

/** A value naming DELETE: in any case, white space around it, or one of a comma-separated list. */
export function namesDelete(value: unknown): boolean {
  return typeof value === 'string' && value.split(',').some((part) => part.trim().toUpperCase() === 'DELETE');
}

/** The values of `_method` (under any name isMethodKey takes) in a query or form text (`+` is a space). */
function methodParams(text: string): string[] {
  return [...new URLSearchParams(text)].filter(([name]) => isMethodKey(name)).map(([, value]) => value);
}

/** The values of the multipart parts named `_method` (as isMethodKey reads a name). */
function multipartMethods(text: string): string[] {
  const values: string[] = [];
  // Each part: its headers, a blank line, then its value up to the line break before the next boundary.
  for (const part of text.split(/\r?\n--/)) {
    const blank = /\r?\n\r?\n/.exec(part);
    if (!blank) continue;
    const name = /content-disposition:[^\r\n]*;\s*name\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(part.slice(0, blank.index));
    if (name && isMethodKey(name[1] ?? name[2] ?? '')) values.push(part.slice(blank.index + blank[0].length).trim());
  }
  return values;
}

/**
 * A body's text: UTF-16 when it is (its byte order mark, a declared
 * charset, an ASCII start in UTF-16, as bodyEncoding tells), else UTF-8; a
 * byte order mark dropped, as body parsers drop it.
 */
function bodyText(body: Buffer, contentType: string | undefined): string {
  const encoding = bodyEncoding(contentType, body);
  const text =
    encoding === 'utf8'
      ? body.toString('utf8')
      : (encoding === 'utf16be' ? Buffer.from(body.subarray(0, body.length & ~1)).swap16() : body).toString('utf16le');
  return text.replace(/^\uFEFF/, '');
}

/** Is this a JSON media type? */
const isJson = (type: string) => /^application\/(?:[^\s;]+\+)?json\b/.test(type);

/**
 * Where the request asks to be taken for a DELETE (said as in "asked by …"),
 * or undefined. `path` is the request target (its query read), `body` the
 * whole body, or as much of its start as is inspected. Read loosely: a form
 * body whatever its Content-Type says (unless it is JSON that parses), a
 * JSON body whatever its first character (white space, a byte order mark)
 * or Content-Type.
 */
export function deleteOverride(
  headers: Readonly<Record<string, string>>,
  path: string,
  body: Buffer | undefined,
): string | undefined {
  // PHP and other CGI-style servers read a `_` in a header's name as a `-` (both become HTTP_X_HTTP_METHOD_OVERRIDE).
  for (const [name, value] of Object.entries(headers)) {
    if (OVERRIDE_HEADERS.includes(name.toLowerCase().replaceAll('_', '-')) && namesDelete(value)) {
      return `its ${name} header`;
    }
  }
  const query = path.indexOf('?');
  if (query !== -1 && methodParams(path.slice(query + 1)).some(namesDelete)) return '_method=DELETE in its query';
  if (body === undefined || body.length === 0) return undefined;
  const text = bodyText(body, headers['content-type']);
  const type = (headers['content-type'] ?? '').toLowerCase();
  if ((type.startsWith('multipart/') || text.startsWith('--')) && multipartMethods(text).some(namesDelete)) {
    return 'a _method part of its multipart body';
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    for (const [key, value] of Object.entries(parsed)) {
      if (isMethodKey(key) && namesDelete(value)) return '"_method": "DELETE" in its JSON body';
    }
  }
  // A form, whatever its Content-Type says (some parsers read a form without one); not JSON sent as JSON.
  if (!(isJson(type) && parsed !== undefined) && methodParams(text).some(namesDelete)) {
    return '_method=DELETE in its form body';
  }
  return undefined;
}
