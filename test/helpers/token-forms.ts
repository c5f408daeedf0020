import { expect } from 'vitest';

const base64 = (text: string) => Buffer.from(text).toString('base64');
const base64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (char: string) => char.charCodeAt(0).toString(16);

/** Each form a service may echo a token in (issue #22), made from the token it received. */
export const ECHO_FORMS: [string, (token: string) => string][] = [
  ['as is', (token) => token],
  ['percent-encoded', (token) => encodeURIComponent(token)],
  ['percent-encoded in part, lower-case hex', (token) => token.replaceAll('+', '%2b').replaceAll('/', '%2f')],
  ['every character percent-encoded', (token) => Array.from(token, (c) => `%${hex(c).toUpperCase()}`).join('')],
  ['base64', (token) => base64(token)],
  ['base64url of Bearer and the token', (token) => base64url(`Bearer ${token}`)],
  ['base64 inside a longer value (offset 1)', (token) => base64(`x${token}.exp=1`)],
  ['base64url inside a longer value (offset 2)', (token) => base64url(`user:${token}`)],
  ['JSON \\u escapes', (token) => Array.from(token, (c) => `\\u${hex(c).padStart(4, '0')}`).join('')],
  [
    'HTML named references',
    (token) => token.replaceAll('+', '&plus;').replaceAll('/', '&sol;').replaceAll('=', '&equals;'),
  ],
  [
    'HTML decimal and hexadecimal references',
    (token) => Array.from(token, (c, i) => (i % 2 ? `&#${c.charCodeAt(0)};` : `&#X${hex(c)};`)).join(''),
  ],
  ['split across lines', (token) => `${token.slice(0, 5)}\n${token.slice(5, 12)}\r\n  ${token.slice(12)}`],
  ['hexadecimal of its bytes', (token) => Buffer.from(token).toString('hex')],
  [
    'upper-case hexadecimal inside a longer value',
    (token) => `0x${Buffer.from(`k=${token};`).toString('hex').toUpperCase()}`,
  ],
  [
    'hexadecimal in mixed case, wrapped',
    (token) => {
      const mixed = Array.from(Buffer.from(token).toString('hex'), (c, i) => (i % 3 ? c : c.toUpperCase())).join('');
      return `${mixed.slice(0, 20)}\n${mixed.slice(20)}`;
    },
  ],
  // Issue #40: characters a reader does not see between the token's own.
  ['split by zero-width, format and other invisible characters', (token) => splitBy(token, INVISIBLES.slice(0, 17))],
  [
    'split by invisible characters JSON-escaped, as HTML references or percent-encoded',
    (token) => splitBy(token, INVISIBLES.slice(17)),
  ],
  [
    'base64 split by invisible characters',
    (token) => splitBy(base64(`x${token}`), ['\u200b', '\u2060', '\u00ad', '\u{e0020}']),
  ],
];

/** `text` with `between[i]` (in turn) after each of its characters but the last. */
function splitBy(text: string, between: string[]): string {
  return Array.from(text, (char, i) => (i === 0 ? '' : between[(i - 1) % between.length]!) + char).join('');
}

/**
 * Characters a reader does not see between a token's own (issue #40), as
 * they are and as a service may encode them: zero-width, format and bidi
 * characters, a soft hyphen, a tag character, a variation selector, spaces
 * of every width, NUL; JSON escapes, HTML references, percent-encoded UTF-8.
 */
export const INVISIBLES = [
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\u00ad',
  '\ufeff',
  '\u200e',
  '\u202e',
  '\u2066',
  '\u180e',
  '\u{e0041}',
  '\ufe0f',
  '\u00a0',
  '\u2009',
  '\u202f',
  '\u3000',
  '\u0000',
  '\\u200b',
  '\\u00AD',
  '\\udb40\\udc20',
  '&#8203;',
  '&#x200D;',
  '&shy;',
  '&nbsp;',
  '&ZeroWidthSpace;',
  '%E2%80%8B',
  '%C2%A0',
  '%c2%ad',
];

/** HTML names the check below undoes (the ones ECHO_FORMS and INVISIBLES use, and what escaping output adds). */
const NAMED: Record<string, string> = {
  plus: '+',
  sol: '/',
  equals: '=',
  amp: '&',
  quot: '"',
  lt: '<',
  gt: '>',
  shy: '\u00ad',
  nbsp: '\u00a0',
  ZeroWidthSpace: '\u200b',
};

/**
 * What a reader does not see, by Unicode's properties (src/shared/ignorable.ts
 * writes them out as ranges; this check does not lean on those).
 */
const INVISIBLE_RUN = /[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\uFFFD]+/gu;

/** Text with every invisible character taken out, and those a terminal shows as `\u200b`. */
export function withoutInvisibles(text: string): string {
  return text
    .replace(/\\u([\dA-Fa-f]{4})/g, (escape, code: string) => {
      const char = String.fromCharCode(parseInt(code, 16));
      return char.replace(INVISIBLE_RUN, '') === '' ? '' : escape;
    })
    .replace(INVISIBLE_RUN, '');
}

/**
 * Text as a reader could decode it, worked out apart from src/shared
 * (decoded-text.ts), so the check does not lean on what it checks.
 */
function decodedForCheck(text: string): string {
  return text
    .replace(/\\u([0-9a-fA-F]{4})/g, (_m, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/\\([/"\\])/g, '$1')
    .replace(/\\[nrt]/g, ' ')
    .replace(/&#[xX]([0-9a-fA-F]+);?/g, (_m, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&#([0-9]+);?/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&([a-zA-Z]+);/g, (m, name: string) => NAMED[name] ?? m)
    .replace(/(%[0-9a-fA-F]{2})+/g, (bytes) => {
      try {
        return decodeURIComponent(bytes);
      } catch {
        return bytes.replace(/%([0-9a-fA-F]{2})/g, (_m, code: string) => String.fromCharCode(parseInt(code, 16)));
      }
    })
    .replace(INVISIBLE_RUN, '');
}

/**
 * Fails when `text` holds any form of `token`: no 8 characters of it in a
 * row, as is or decoded (percent, JSON, HTML, white space and every
 * invisible character left out, raw or as a terminal escapes it), and no
 * 8 characters in a row of the base64 characters that encode only the
 * token's bits, at any alignment, in either alphabet, and no 8 of its bytes
 * in a row as hexadecimal, in either case.
 */
export function expectNoFormOf(token: string, text: string, where = 'the text'): void {
  const plain = withoutInvisibles(text);
  const decoded = decodedForCheck(text);
  for (let start = 0; start + 8 <= token.length; start += 1) {
    const piece = token.slice(start, start + 8);
    expect(plain, `${where} holds ${piece}`).not.toContain(piece);
    expect(decoded, `${where}, decoded, holds ${piece}`).not.toContain(piece);
  }
  // Hexadecimal: no 8 bytes of the token in a row, in either case.
  const hexText = plain.toLowerCase();
  const tokenHex = Buffer.from(token).toString('hex');
  for (let start = 0; start + 16 <= tokenHex.length; start += 2) {
    expect(hexText, `${where} holds ${tokenHex.slice(start, start + 16)}, hexadecimal of the token`).not.toContain(
      tokenHex.slice(start, start + 16),
    );
  }
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), Buffer.from(token)]).toString('base64');
    const core = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + token.length) * 8) / 6));
    for (const form of [core, core.replaceAll('+', '-').replaceAll('/', '_')]) {
      for (let start = 0; start + 8 <= form.length; start += 1) {
        const piece = form.slice(start, start + 8);
        expect(plain, `${where} holds ${piece}, base64 of the token`).not.toContain(piece);
        expect(decoded, `${where}, decoded, holds ${piece}, base64 of the token`).not.toContain(piece);
      }
    }
  }
}
