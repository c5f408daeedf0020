import { UsageError } from '../errors.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../output/plants.js';

export const INT32_MAX = 2_147_483_647;

/** `--limit`: a decimal integer from 0 to 2147483647 (the interface's int32, not negative). */
export function parseLimit(raw: string): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) > INT32_MAX) {
    throw new UsageError(
      `invalid --limit ${JSON.stringify(raw)}: expected a whole number of plants from 0 to ${INT32_MAX}`,
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

/** `-o, --output`. */
export function parseOutputFormat(raw: string): OutputFormat {
  const format = raw.trim().toLowerCase();
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`invalid --output ${JSON.stringify(raw)}: expected one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  return format as OutputFormat;
}

/** `--columns id,name,extra.height`: field paths, dotted into nested objects. */
export function parseColumns(raw: string): string[] {
  const columns = raw.split(',').map((column) => column.trim());
  if (columns.some((column) => column === '' || column.split('.').includes(''))) {
    throw new UsageError(
      `invalid --columns ${JSON.stringify(raw)}: expected field names separated by commas, such as id,name,tag,extra.height`,
    );
  }
  return columns;
}

/** `--concurrency`: requests in flight, 1 to 64. */
export function parseConcurrency(raw: string): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 64) {
    throw new UsageError(
      `invalid --concurrency ${JSON.stringify(raw)}: expected a whole number of requests from 1 to 64`,
    );
  }
  return Number(text);
}

/** Repeatable options (`--tag a --tag b`) collect into a list. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
};

/** `--max-response-size`: bytes, or with a binary unit: 512K, 256MiB, 1G. */
export function parseSize(raw: string): number {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  const bytes = match && unit ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new UsageError(
      `invalid --max-response-size ${JSON.stringify(raw)}: expected a number of bytes, or a size such as 512K, 256MiB or 1G`,
    );
  }
  return bytes;
}
