import { looseText } from '../loose-text.js';
import { jsonMembers, multipartParts, requestBodyText } from './override-body.js';

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
 * bracket (`[_method]`); Rack and PHP read `_method[]`, `_method[0]`,
 * `_method[x]` as an array of `_method`s.
 */
export function isMethodKey(name: string): boolean {
  const bare = name.replace(/^\[+/, '').replace(/\]+$/, '');
  const unbracketed = name.replace(/(?:\[[^[\]]*\])+$/, '');
  return [bare, bare.trimStart(), unbracketed, unbracketed.trimStart()].some(
    (key) => key.replace(/[.\s]/g, '_').toLowerCase() === '_method',
  );
}

/**
 * A value naming DELETE, read as loosely as a server may read it: in any
 * case or Unicode form (fullwidth), one of a comma-separated list, with
 * what a server may strip around it (white space, NBSP, invisible
 * characters, a NUL, `;` or other marks).
 */
export function namesDelete(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    value.split(',').some((part) => looseText(part).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '') === 'delete')
  );
}

/**
 * The values of `_method` (under any name isMethodKey takes) in a query or
 * form text (`+` is a space), its pairs split at `&` and, as PHP's
 * arg_separator, older Go and Python read them, at `;` too.
 */
function methodParams(text: string): string[] {
  return [...new URLSearchParams(text), ...new URLSearchParams(text.replaceAll(';', '&'))]
    .filter(([name]) => isMethodKey(name))
    .map(([, value]) => value);
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
  const text = requestBodyText(body, headers['content-type']);
  const type = (headers['content-type'] ?? '').toLowerCase();
  const multipart = (type.startsWith('multipart/') || text.startsWith('--')) && multipartParts(text);
  if (multipart && multipart.some(([names, value]) => names.some(isMethodKey) && namesDelete(value))) {
    return 'a _method part of its multipart body';
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  // Each member, a key written twice too: a parser that keeps the first reads what JSON.parse dropped.
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    for (const [key, values] of jsonMembers(text)) {
      if (isMethodKey(key) && values.some(namesDelete)) return '"_method": "DELETE" in its JSON body';
    }
  }
  // A form, whatever its Content-Type says (some parsers read a form without one); not JSON sent as JSON.
  if (!(isJson(type) && parsed !== undefined) && methodParams(text).some(namesDelete)) {
    return '_method=DELETE in its form body';
  }
  return undefined;
}
