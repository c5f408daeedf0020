import { UsageError } from '../errors.js';

export const INT32_MAX = 2_147_483_647;

/** `--limit`: a decimal integer from 0 to 2147483647 (the interface's int32, not negative). */
export function parseLimit(raw: string): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) > INT32_MAX) {
    throw new UsageError(
      `invalid --limit ${JSON.stringify(raw)}: expected a whole number from 0 to ${INT32_MAX}`,
    );
  }
  return Number(text);
}

/** A plant id is opaque text; only the empty string is never an id. */
export function parsePlantId(raw: string): string {
  if (raw === '') throw new UsageError('invalid plant id: it must not be empty');
  return raw;
}

/** Help text block listing real invocations. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}\n`;
}
