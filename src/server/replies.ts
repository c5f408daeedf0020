import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson } from '../shared/json.js';

// How the local store answers, and reads the JSON bodies of its creates and updates.

export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The interface's Error object; `error` carries the HTTP status. */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJsonText(res, status, JSON.stringify({ error: status, message }), headers);
}

/** Largest body a create or an update accepts. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Read the request's body as a JSON object and hand it on; a 400 or 413 (`expected` says what to send) when it is not one. */
export function readJsonObject(
  req: IncomingMessage,
  res: ServerResponse,
  expected: string,
  then: (fields: Record<string, unknown>) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > MAX_BODY_BYTES) {
      sendError(res, 413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
      return;
    }
    let fields: unknown;
    try {
      fields = parseJson(Buffer.concat(chunks).toString('utf8'));
    } catch {
      sendError(res, 400, 'the body is not JSON');
      return;
    }
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
      sendError(res, 400, expected);
      return;
    }
    then(fields as Record<string, unknown>);
  });
}
