import { printable } from '../shared/text.js';
import { escapeForTerminal } from './formats.js';

/**
 * A response as `plants api` shows it on a terminal: JSON indented and
 * coloured, every token kept exactly as the service wrote it (numbers of
 * any size, escapes, key order, duplicate keys); other text with whatever a
 * terminal would act on escaped. In a pipe the body goes out as received
 * (the command masks the token and nothing else).
 */

/** Is this a JSON media type (`application/json`, `application/problem+json`)? */
export function isJsonType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^[a-z]+\/[^\s/]+\+json$/.test(type);
}

/** How each kind of JSON token is painted (a chalk instance will do). */
type Paint = Record<'blue' | 'green' | 'yellow' | 'gray', (text: string) => string>;

/**
 * JSON text indented by two spaces, one member or element per line, each
 * token as written and painted; strings escaped for a terminal
 * (escapeForTerminal: the JSON still reads back as the same data).
 * Undefined when the text is not one JSON value, or nests deeper than
 * MAX_INDENTED_DEPTH (indenting it would take depth² space: it is shown as text).
 */
export function indentJson(text: string, paint?: Paint): string | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const out: string[] = [];
  let depth = 0;
  const newline = () => `\n${'  '.repeat(depth)}`;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i += 1;
    } else if (ch === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const token = escapeForTerminal(text.slice(i, end + 1));
      i = end + 1;
      const isKey = text[nextToken(text, i)] === ':';
      out.push(paint ? (isKey ? paint.blue(token) : paint.green(token)) : token);
    } else if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      const next = nextToken(text, i + 1);
      if (text[next] === close) {
        out.push(ch + close);
        i = next + 1;
      } else {
        depth += 1;
        if (depth > MAX_INDENTED_DEPTH) return undefined;
        out.push(ch + newline());
        i += 1;
      }
    } else if (ch === '}' || ch === ']') {
      depth -= 1;
      out.push(newline() + ch);
      i += 1;
    } else if (ch === ',') {
      out.push(`,${newline()}`);
      i += 1;
    } else if (ch === ':') {
      out.push(': ');
      i += 1;
    } else {
      // A number or a literal: up to the next delimiter.
      let end = i;
      while (end < text.length && !/[\s,:\]}]/.test(text[end]!)) end += 1;
      const token = text.slice(i, end);
      i = end;
      out.push(paint ? (token === 'null' ? paint.gray(token) : paint.yellow(token)) : token);
    }
  }
  return `${out.join('')}\n`;
}

/** Deeper JSON is shown as text, not indented. */
export const MAX_INDENTED_DEPTH = 100;

/** Where the next token starts (after white space). */
function nextToken(text: string, from: number): number {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i += 1;
  return i;
}

/** Text for a terminal: line breaks and tabs kept, every other character a terminal would act on escaped (`\u001b`). */
export function terminalText(text: string): string {
  if (text === '') return text;
  const shown = terminalLines(text);
  return shown.endsWith('\n') ? shown : `${shown}\n`;
}

function terminalLines(text: string): string {
  return text
    .split(/(\r?\n|\t)/)
    .map((part, index) => (index % 2 === 1 ? part : printable(part)))
    .join('');
}

/** terminalText for text that comes in pieces (a large body), shown as it comes: the same text, piece by piece. */
export class TerminalTextStream {
  /** A `\r` at a piece's end, which may start a `\r\n` with the next. */
  #held = '';
  #shown = false;
  #endsInLineBreak = false;

  push(piece: string): string {
    let text = this.#held + piece;
    this.#held = text.endsWith('\r') ? '\r' : '';
    text = text.slice(0, text.length - this.#held.length);
    if (text === '') return '';
    this.#shown = true;
    this.#endsInLineBreak = text.endsWith('\n');
    return terminalLines(text);
  }

  end(): string {
    const rest = this.#held === '' ? '' : terminalLines(this.#held);
    if (rest !== '') this.#endsInLineBreak = false;
    return rest + ((this.#shown || rest !== '') && !this.#endsInLineBreak ? '\n' : '');
  }
}

/**
 * The status line and headers, as `-i` shows them before the body:
 * `HTTP/1.1 200 OK`, then `name: value` lines (names as undici gives them,
 * lower case), then a blank line; lines end in `\n`, in a pipe too, and a
 * value never breaks its line. `status` is `200 OK`.
 */
export function headerBlock(
  status: string,
  headers: Record<string, string | string[] | undefined>,
  terminal: boolean,
  paint?: { bold(text: string): string },
): string {
  const show = terminal ? printable : (text: string) => text.replace(/[\r\n]/g, ' ');
  let block = `HTTP/1.1 ${status}\n`;
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      block += `${paint ? paint.bold(show(name)) : show(name)}: ${show(one)}\n`;
    }
  }
  return `${block}\n`;
}
