import { UsageError } from '../errors.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../output/format-writers.js';

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

/** Repeatable options (`--tag a --tag b`) collect into a list. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
