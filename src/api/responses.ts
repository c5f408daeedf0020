import { BadResponseError, type ServiceError } from '../shared/errors.js';
import { JsonNumber, numberText, parseJson, stringifyJson } from '../shared/json.js';
import { maskSecrets } from '../secrets/registry.js';
import { excerpt, quoted } from '../shared/text.js';

/**
 * A plant as the service sends it: `name` and optional `tag`, plus any fields
 * the interface does not show (such as `id`). Numbers that a JavaScript
 * number would change (ids above 2^53) are JsonNumber.
 */
export interface Plant {
  name: string;
  tag?: string | null;
  id?: unknown;
  [field: string]: unknown;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof JsonNumber) return 'a number';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function looksLikeHtml(text: string, type: string): boolean {
  return type === 'text/html' || /^\s*<(!doctype|html)/i.test(text);
}

/** Parse JSON, or return undefined (the callers explain what arrived instead). */
function tryJson(text: string): { value: unknown } | undefined {
  try {
    return { value: parseJson(text) };
  } catch {
    return undefined;
  }
}

/** HTML error pages: their <title> says more than their markup. */
export function htmlSummary(text: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  if (title?.trim()) return excerpt(maskSecrets(title), 200);
  return excerpt(maskSecrets(text.replace(/<[^>]*>/g, ' ')), 200);
}

/**
 * Normalise an error response body to `{error, message}`: the interface's
 * Error object, an RFC 9457 problem document, a bare `{message}`/`{error: "…"}`,
 * an HTML page, or any text. The run's secrets are masked in what is shown
 * (maskSecrets), before it is cut to an excerpt.
 */
export function describeErrorBody(text: string, contentType: string | undefined): ServiceError {
  const type = mediaType(contentType);
  const body = jsonObject(text);
  if (body) {
    const code = integerError(body.error);
    if (hasMessage(body)) {
      return { error: code, message: excerpt(maskSecrets(body.message), 500) };
    }
    // application/problem+json (RFC 9457): title and detail.
    const detail = hasText(body.detail) ? body.detail : undefined;
    const title = hasText(body.title) ? body.title : undefined;
    if (detail || title) {
      return { error: code, message: excerpt(maskSecrets([title, detail].filter(Boolean).join(': ')), 500) };
    }
    if (typeof body.error === 'string' && body.error.trim()) {
      return { error: null, message: excerpt(maskSecrets(body.error), 500) };
    }
  }
  if (!text.trim()) return { error: null, message: '(empty body)' };
  if (looksLikeHtml(text, type)) return { error: null, message: htmlSummary(text) };
  return { error: null, message: excerpt(maskSecrets(text), 200) };
}

/** The text as a JSON object, or undefined when it is not one. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  const parsed = text.trim() ? tryJson(text) : undefined;
  const value = parsed?.value;
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The Error object's `error` when it is an integer, as JSON Schema counts
 * one (`404`, and `404.0` or `4.04e2` too, which have no fraction), else null.
 */
function integerError(value: unknown): number | null {
  const number = value instanceof JsonNumber ? Number(numberText(value)) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : null;
}

/** A string with more than white space in it. */
function hasText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function hasMessage(body: Record<string, unknown>): body is { message: string } {
  return hasText(body.message);
}

/**
 * Why a JSON object sent as an error body is not the interface's Error
 * object (an integer `error` and a string `message`): `its "error" is the
 * string "not_found", not an integer`. Undefined when the body is one, or
 * is no JSON object at all (nothing to explain).
 */
export function notAnErrorObject(text: string): string | undefined {
  const body = jsonObject(text);
  if (!body) return undefined;
  if (!('error' in body)) return 'it has no "error"';
  if (integerError(body.error) === null) {
    const value = body.error;
    const shown =
      typeof value === 'string'
        ? `the string ${quoted(excerpt(maskSecrets(value), 40))}`
        : value instanceof JsonNumber
          ? numberText(value)
          : typeof value === 'number'
            ? String(value)
            : kindOf(value);
    return `its "error" is ${shown}, not an integer`;
  }
  // As describeErrorBody reads it: a message, or a problem's title or detail.
  if (hasMessage(body) || hasText(body.detail) || hasText(body.title)) return undefined;
  if (!('message' in body)) return 'it has no "message"';
  return typeof body.message === 'string' ? 'its "message" is empty' : `its "message" is ${kindOf(body.message)}`;
}

/**
 * Check a list response against the interface: a JSON array of objects, each
 * with a string `name` and, where present, a string `tag`. Every field is kept.
 * The run's secrets are masked in the excerpts of errors.
 */
export function parsePlantList(text: string, contentType: string | undefined): Plant[] {
  const what = 'expected a JSON array of plants';
  if (!text.trim()) throw new BadResponseError(`${what}, but the response body was empty`);
  const parsed = tryJson(text);
  if (!parsed) {
    const type = mediaType(contentType) || 'no content type';
    const shown = looksLikeHtml(text, mediaType(contentType)) ? htmlSummary(text) : excerpt(maskSecrets(text), 200);
    throw new BadResponseError(`${what}, but received ${type} that is not JSON: ${shown}`);
  }
  const items = parsed.value;
  if (!Array.isArray(items)) {
    throw new BadResponseError(`${what}, but received ${kindOf(items)}: ${excerpt(maskSecrets(text), 200)}`);
  }
  items.forEach((item: unknown, index) => checkPlant(item, index));
  return items as Plant[];
}

/** `index` counts from 0; messages count from 1 (`item 1 of the plant list`). */
export function checkPlant(item: unknown, index: number): void {
  const where = `item ${index + 1} of the plant list`;
  // A large number parses as a JsonNumber, an object: it is still no plant object.
  if (typeof item !== 'object' || item === null || Array.isArray(item) || item instanceof JsonNumber) {
    throw new BadResponseError(
      `${where} is ${kindOf(item)}, expected a plant object: ${excerpt(maskSecrets(stringifyJson(item)), 200)}`,
    );
  }
  const plant = item as Record<string, unknown>;
  if (typeof plant.name !== 'string') {
    const problem = 'name' in plant ? `its "name" is ${kindOf(plant.name)}` : 'it has no "name"';
    throw new BadResponseError(
      `${where} is not a plant: ${problem}, expected a string: ${excerpt(maskSecrets(stringifyJson(item)), 200)}`,
    );
  }
  if (plant.tag !== undefined && plant.tag !== null && typeof plant.tag !== 'string') {
    throw new BadResponseError(
      `${where} is not a plant: its "tag" is ${kindOf(plant.tag)}, expected a string: ${excerpt(maskSecrets(stringifyJson(item)), 200)}`,
    );
  }
}
