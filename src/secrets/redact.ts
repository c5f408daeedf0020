import { DecodedText } from './decoded-text.js';
import { findForms, mayHoldSpaced, tokenForms, type TokenForms } from './token-forms.js';

/**
 * Hide a token in text about to be shown, in every form a service may echo
 * it in: as is; with any of its characters percent-encoded, written as a
 * JSON escape (`\u002B`, `\"`, `\\`, `\/`) or an HTML character reference
 * (`&plus;`, `&#43;`, `&#x2b;`); split by white space or line breaks; in
 * base64 or base64url, alone or inside a longer encoded text; as the
 * hexadecimal of its bytes. Each becomes
 * `***`. `Bearer <token>` (and its base64, an Authorization header echoed
 * encoded) is always masked; a bare occurrence only for tokens of 8 or more
 * characters, since masking a short token would garble ordinary words (and
 * a short token is no secret).
 *
 * The text is decoded once (decoded-text.ts) and searched for what was
 * worked out once per token (token-forms.ts): no pattern grows with the
 * token, so a long one (a JWT) costs no more to set up than a short one.
 */
export function redactToken(text: string, token: string): string {
  if (token === '') return text;
  const forms = formsOf(token);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut; text this short holds no form anyway.
  if (text.length < forms.shortest) return text;
  // Most text holds nothing encoded: without its white space it reads as it is, and a quick
  // search there tells whether there is anything to mask (decoding is what costs).
  if (!mayBeEncoded(text) && !mayHoldSpaced(text, forms)) return text;
  const decoded = new DecodedText(text);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut; findForms finds nothing in it.
  if (decoded.plain.length < forms.shortest) return text;
  const found = findForms(decoded, forms);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a shortcut; the loop copies the text.
  if (found.length === 0) return text;
  // In the text: each span from where its first character starts to where its last one ends, overlaps merged.
  const masked = found
    .map(({ start, end }) => ({ start: decoded.start(start), end: decoded.end(end - 1) }))
    .sort((a, b) => a.start - b.start);
  let shown = '';
  let copied = 0;
  for (let i = 0; i < masked.length; i += 1) {
    const { start } = masked[i]!;
    let { end } = masked[i]!;
    while (i + 1 < masked.length && masked[i + 1]!.start <= end) end = Math.max(end, masked[++i]!.end);
    shown += `${text.slice(copied, start)}***`;
    copied = end;
  }
  return shown + text.slice(copied);
}

/**
 * What starts an encoding decoded-text.ts undoes (or a little more): `%XX`,
 * a JSON escape, `&#` or `&` and a letter. Not a bare `%` or `&` (`50%`,
 * `Salt & Pepper`), which would send a list's every block to be decoded.
 */
// Stryker disable next-line Regex: a pattern that matches more only sends more text to be decoded.
const ENCODED = /%[\dA-Fa-f]{2}|\\[nrt"\\/u]|&[#A-Za-z]/;

/** ENCODED's test, after a search for the three characters it starts with (much faster on Node 22 than the pattern alone). */
function mayBeEncoded(text: string): boolean {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: a shortcut; answering yes more often only decodes more.
  return (text.includes('%') || text.includes('\\') || text.includes('&')) && ENCODED.test(text);
}

/** This runs on every message and debug line: what to look for is worked out once per token. */
const FORMS = new Map<string, TokenForms>();
// The token in effect, and those of the profiles whose base URLs or journal records are shown (redactKnownTokens).
const FORMS_KEPT = 16;

function formsOf(token: string): TokenForms {
  let forms = FORMS.get(token);
  // Stryker disable next-line ConditionalExpression: a cache; without it the forms are worked out again, the same.
  if (forms === undefined) {
    // Stryker disable next-line all: the cache's bound; another bound keeps more or fewer, each found again when needed.
    if (FORMS.size >= FORMS_KEPT) FORMS.delete(FORMS.keys().next().value!);
    forms = tokenForms(token);
    FORMS.set(token, forms);
  }
  return forms;
}
