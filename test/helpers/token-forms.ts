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
];

/** HTML names the check below undoes (the ones ECHO_FORMS uses, and what escaping output adds). */
const NAMED: Record<string, string> = { plus: '+', sol: '/', equals: '=', amp: '&', quot: '"', lt: '<', gt: '>' };

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
    .replace(/&([a-z]+);/g, (m, name: string) => NAMED[name] ?? m)
    .replace(/%([0-9a-fA-F]{2})/g, (_m, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/\s+/g, '');
}

/**
 * Fails when `text` holds any form of `token`: no 8 characters of it in a
 * row, as is or decoded (percent, JSON, HTML, white space left out), and no
 * 8 characters in a row of the base64 characters that encode only the
 * token's bits, at any alignment, in either alphabet, and no 8 of its bytes
 * in a row as hexadecimal, in either case.
 */
export function expectNoFormOf(token: string, text: string, where = 'the text'): void {
  const plain = text.replace(/\s+/g, '');
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
