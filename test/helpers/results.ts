/**
 * A value with every `request_id` key taken out: delete results and JSON
 * error lines carry a fresh random X-Request-Id each run, which tests about
 * something else compare without (the request-id tests check them).
 */
export function withoutRequestIds<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => withoutRequestIds(item)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (key !== 'request_id') copy[key] = withoutRequestIds(item);
  return copy as T;
}
