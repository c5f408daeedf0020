/** Environment variables, as `process.env` holds them (tests pass their own). */
export type Env = Record<string, string | undefined>;
