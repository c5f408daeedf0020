/**
 * A CommonJS package bundled into an ES module chunk (see tsup.config.ts)
 * exposes its exports as `default` when imported dynamically; unbundled (in
 * tests), by name. This gives the exports either way.
 */
export function commonJs<T extends object>(module: T): T {
  const inner = (module as { default?: unknown }).default;
  return (typeof inner === 'object' && inner !== null ? inner : module) as T;
}
