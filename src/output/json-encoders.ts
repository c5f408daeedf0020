import { stringifyJson } from '../shared/json.js';
import { jsonPieces } from '../shared/json-writer.js';
import { holdsLarge } from '../shared/large-values.js';
import { escapeForTerminal } from './formats.js';
import type { RowEncoder, RowView, Stdout } from './row-encoder.js';

/** A JSON array, written batch by batch: together they make what JSON.stringify(all, null, 2 or none) would. */
export function jsonEncoder<T>(view: RowView<T>, stdout: Stdout): RowEncoder<T> {
  const { terminal } = stdout;
  let first = true;
  return {
    opening: '[',
    rows(rows) {
      const values = rows.map(view.json);
      const lead = first ? '' : ',';
      first = false;
      if (values.some(holdsLarge)) return jsonRowPieces(values, lead, terminal);
      const whole = stringifyJson(values, terminal ? 2 : undefined);
      // A view of the text, not a copy (V8 slices strings): the pieces go out as they are.
      const inner = terminal ? whole.slice(2, -2) : whole.slice(1, -1);
      const pieces = [`${lead}${terminal ? '\n' : ''}`, inner];
      return terminal ? pieces.map(escapeForTerminal) : pieces;
    },
    end: (count) => [terminal && count > 0 ? '\n]\n' : ']\n'],
  };
}

/**
 * JSON rows holding a large value, as the batch's text would be (after
 * `lead`): each row's JSON in pieces (jsonPieces), one level in.
 */
function* jsonRowPieces(values: readonly unknown[], lead: string, terminal: boolean): Generator<string> {
  for (let i = 0; i < values.length; i += 1) {
    yield `${i === 0 ? lead : ','}${terminal ? '\n  ' : ''}`;
    for (const piece of jsonPieces(values[i], terminal ? 2 : undefined, 1)) {
      yield terminal ? escapeForTerminal(piece) : piece;
    }
  }
}

/** One JSON object a line. */
export function ndjsonEncoder<T>(view: RowView<T>, { terminal }: Stdout): RowEncoder<T> {
  return {
    opening: '',
    rows(rows) {
      const values = rows.map(view.json);
      if (values.some(holdsLarge)) return ndjsonPieces(values, terminal);
      const text = `${values.map((value) => stringifyJson(value)).join('\n')}\n`;
      return terminal ? escapeForTerminal(text) : text;
    },
    end: () => [],
  };
}

/** NDJSON lines, a line holding a large value in pieces. */
function* ndjsonPieces(values: readonly unknown[], terminal: boolean): Generator<string> {
  const shown = (text: string) => (terminal ? escapeForTerminal(text) : text);
  let lines = '';
  for (const value of values) {
    if (!holdsLarge(value)) {
      // As join() writes an undefined row: nothing.
      lines += `${(stringifyJson(value) as string | undefined) ?? ''}\n`;
      continue;
    }
    yield shown(lines);
    lines = '\n';
    for (const piece of jsonPieces(value)) yield shown(piece);
  }
  yield shown(lines);
}
