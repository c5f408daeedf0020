import { Option } from 'commander';
import { UsageError } from '../shared/errors.js';
import { refuseDash } from '../deletion/journal/open-file.js';
import { quoted } from '../shared/text.js';
import { DEFAULT_FORMATS, isOutputFormat, OUTPUT_FORMATS, type OutputFormat } from '../output/format-writers.js';

/** A plant id is opaque text; only the empty string is never an id. */
export function parsePlantId(raw: string): string {
  if (raw === '') throw new UsageError('invalid plant id: it must not be empty');
  return raw;
}

/** `--journal-file <path>`: a path, never empty (an empty one names no file in any message). */
export function parseJournalFile(raw: string): string {
  if (raw === '')
    throw new UsageError('invalid --journal-file "": give the path of a file, such as --journal-file run.jsonl');
  return raw;
}

/** `--journal-file <path>` of a command that writes it: never `-` (stdout has the run's results), refused as it is parsed. */
export function parseJournalOutput(raw: string): string {
  refuseDash(parseJournalFile(raw));
  return raw;
}

/** Help text block listing real invocations. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}\n`;
}

/** `-o, --output`. */
export function parseOutputFormat(raw: string): OutputFormat {
  const format = raw.trim().toLowerCase();
  if (!isOutputFormat(format)) {
    throw new UsageError(`invalid --output ${JSON.stringify(raw)}: expected one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  return format;
}

/** `-o, --output <format>`, one of the output formats. */
export function outputOption(): Option {
  return new Option(
    '-o, --output <format>',
    `output format (default: ${DEFAULT_FORMATS.terminal} on a terminal, ${DEFAULT_FORMATS.piped} when piped)`,
  )
    .choices(OUTPUT_FORMATS)
    .argParser(parseOutputFormat);
}

/** The format `--json` stands for. */
const JSON_FLAG_FORMAT = 'json' satisfies OutputFormat;

/** `--json` is `-o json`; asking for both JSON and another format is a mistake worth naming. */
export function outputFormat(flags: { output?: OutputFormat; json?: boolean }): OutputFormat | undefined {
  if (flags.json && flags.output !== undefined && flags.output !== JSON_FLAG_FORMAT) {
    throw new UsageError(`--json conflicts with --output ${flags.output}; use one of them`);
  }
  return flags.json ? JSON_FLAG_FORMAT : flags.output;
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

/**
 * For an option that takes one value where a repeated one could be read
 * two ways (`--name a* --name *`: both, or either?): a second is refused
 * rather than silently taking the place of the first. `hint` says what to
 * do instead.
 */
export function once(flag: string, hint: string): (value: string, previous: string | undefined) => string {
  return (value, previous) => {
    if (previous !== undefined) {
      throw new UsageError(`${flag} given twice (${quoted(previous)} and ${quoted(value)}): give it once; ${hint}`);
    }
    return value;
  };
}
