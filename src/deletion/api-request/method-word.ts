/**
 * A body too large to parse (over INSPECTED_BYTES) is scanned for where a
 * parser could read `method` as a method-override parameter's *name*, and
 * refused when it may: `_method`, `.method`, ` method`, `+method`,
 * `[_method]`, `_method[]` as a key, in any case, each character also as a
 * percent escape or a JSON `\u` escape, a NUL allowed after each (UTF-16).
 * A key is where the word stands at a key's boundary: after the start, `&`,
 * `;`, `?`, `"`, `'`, `{`, `,`, `[`, `(` or `=` (a multipart `name=`), with
 * only `_ . + [` and white space between, and before `=`, `"`, `'`, `:`,
 * `;`, `[`, `]`, `\`, `&` or white space; after white space alone only
 * before one of those marks but a quote or `\` (which end a string value). So `payment_method`, `methodology` and `the
 * method is` pass, and a key is never missed (`the method: x` is refused,
 * erring toward refusing).
 */

/** A character as the pattern takes it: itself (escaped for a RegExp), `%XX`, `\u00XX`; a NUL after it allowed. */
function unit(chars: string): string {
  const forms = [...chars].flatMap((char) => {
    const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
    return [char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'), `%${hex}`, `\\\\u00${hex}`];
  });
  return `(?:${forms.join('|')})\\u0000?`;
}

const WHITE = ' \t\r\n';
const BEFORE = `&;?"'{,[(=`;
/** What a parser drops or reads as `_` before the name (PHP: leading spaces, `.`, a space and `+` as `_`; Rack: `[`). */
const LEADING = `_.+[${WHITE}`;
const AFTER = `="':;[]\\&`;
/** After white space alone: not a quote, which ends a string value (`"a method"`). */
const AFTER_WHITE = '=:;[]&';

const WORD = [...'method'].map(unit).join('');
const KEY_NAMED = new RegExp(
  `(?:${unit(BEFORE)}(?:${unit(LEADING)})*${WORD}(?:${unit(AFTER)}|${unit(WHITE)}))` +
    `|(?:${unit(WHITE)}(?:${unit(LEADING)})*${WORD}${unit(AFTER_WHITE)})`,
  'i',
);

/** How much of a body's end is searched again with the next piece: the longest key spelling matched, and more. */
export const METHOD_WORD_OVERLAP = 256;

/**
 * Whether this piece of a large body may name a method parameter. `first`:
 * it is the body's start (a key may start there); `last`: its end.
 */
export function mayNameMethod(text: string, first = true, last = true): boolean {
  return KEY_NAMED.test(`${first ? '&' : ''}${text}${last ? '=' : ''}`);
}
