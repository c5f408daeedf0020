/** A response's status and headers, as messages and callers read them. */

/** A header's value; the first, when it came more than once. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `404 Not Found`: for errors and --debug (node:http, for the names, is loaded only then). */
export function statusText(status: number): string {
  const { STATUS_CODES } = process.getBuiltinModule('node:http');
  return `${status} ${STATUS_CODES[status] ?? 'Unknown Status'}`;
}
