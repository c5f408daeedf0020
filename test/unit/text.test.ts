import { describe, expect, it } from 'vitest';
import { describeErrorBody } from '../../src/api/responses.js';
import { redactToken } from '../../src/config/settings.js';
import { excerpt } from '../../src/output/text.js';

const TOKEN = 'canary-7f3a9c1e-token';
const redact = (text: string) => redactToken(text, TOKEN);
const pieces = Array.from({ length: TOKEN.length - 7 }, (_, start) => TOKEN.slice(start, start + 8));

describe('excerpt masks the token before it cuts', () => {
  it.each([200, 300, 500])('wherever a cut at %i falls in the token', (max) => {
    for (let into = 0; into <= TOKEN.length; into += 1) {
      for (const token of [TOKEN, `Bearer ${TOKEN}`]) {
        const shown = excerpt(`${'x'.repeat(max - into)}${token} and more`, max, redact);
        expect(shown.startsWith('x'.repeat(max - into)), shown).toBe(true);
        for (const piece of pieces) expect(shown).not.toContain(piece);
      }
    }
  });

  it('in every kind of error body, the token decoded from JSON escapes too', () => {
    const escaped = TOKEN.replaceAll('-', '\\u002d');
    for (let into = 0; into <= TOKEN.length; into += 1) {
      const bodies: [string, string][] = [
        [`${'t'.repeat(200 - into)}${TOKEN}`, 'text/plain'],
        [`{"message":"${'m'.repeat(500 - into)}${escaped}"}`, 'application/json'],
        [`{"title":"T","detail":"${'d'.repeat(497 - into)}${escaped}"}`, 'application/problem+json'],
        [`{"error":"${'e'.repeat(500 - into)}${escaped}"}`, 'application/json'],
        [`<title>${'h'.repeat(200 - into)}${TOKEN}</title>`, 'text/html'],
        [`<p>${'h'.repeat(200 - into)}${TOKEN}</p>`, 'text/html'],
      ];
      for (const [body, type] of bodies) {
        const { message } = describeErrorBody(body, type, redact);
        for (const piece of pieces) expect(message, body).not.toContain(piece);
      }
    }
  });
});
