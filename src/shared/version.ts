declare const __PLANTS_VERSION__: string;

/** The package version, inlined at build time by tsup (and by vitest's `define`). */
export const VERSION: string = __PLANTS_VERSION__;
