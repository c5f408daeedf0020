import { describe, expect, it } from 'vitest';
import { asUtf8, bodyEncoding, bodyText, declaredCharset } from '../../src/shared/charset.js';

const TEXT = 'plant “Ficus” 🌱 é';
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
const utf32 = (text: string, bigEndian: boolean) =>
  Buffer.concat(
    Array.from(text, (char) => {
      const unit = Buffer.alloc(4);
      if (bigEndian) unit.writeUInt32BE(char.codePointAt(0)!);
      else unit.writeUInt32LE(char.codePointAt(0)!);
      return unit;
    }),
  );
const BOM = '\ufeff';

describe('declaredCharset', () => {
  it('reads the charset parameter, quoted or not, in any case', () => {
    expect(declaredCharset('text/plain; charset=UTF-16LE')).toBe('utf-16le');
    expect(declaredCharset('text/plain;CHARSET="utf-16"; format=flowed')).toBe('utf-16');
    expect(declaredCharset('application/json')).toBeUndefined();
    expect(declaredCharset(undefined)).toBeUndefined();
    expect(declaredCharset('text/plain; charset=')).toBeUndefined();
  });
});

describe('bodyText', () => {
  it.each([
    ['UTF-8', Buffer.from(TEXT), undefined],
    ['UTF-8 with a BOM', Buffer.from(BOM + TEXT), 'text/plain; charset=utf-16'],
    ['UTF-16LE by its BOM', Buffer.from(BOM + TEXT, 'utf16le'), undefined],
    ['UTF-16LE by its BOM, over a declared UTF-8', Buffer.from(BOM + TEXT, 'utf16le'), 'text/plain; charset=utf-8'],
    ['UTF-16BE by its BOM', utf16be(BOM + TEXT), 'text/html'],
    ['UTF-16LE declared', Buffer.from(TEXT, 'utf16le'), 'text/plain; charset=utf-16le'],
    ['UTF-16BE declared', utf16be(TEXT), 'application/json; charset="UTF-16BE"'],
    ['utf-16 declared, big-endian by its NULs', utf16be(TEXT), 'text/plain; charset=utf-16'],
    ['utf-16 declared, little-endian by its NULs', Buffer.from(TEXT, 'utf16le'), 'text/plain; charset=utf-16'],
    ['UTF-16BE undeclared, by its NULs', utf16be(TEXT), 'application/json'],
    ['UTF-16LE undeclared, by its NULs', Buffer.from(TEXT, 'utf16le'), undefined],
    ['UTF-32LE by its BOM', utf32(BOM + TEXT, false), undefined],
    ['UTF-32BE by its BOM', utf32(BOM + TEXT, true), 'text/plain; charset=utf-8'],
    ['UTF-32BE declared', utf32(TEXT, true), 'text/plain; charset=utf-32be'],
    ['utf-32 declared, big-endian by its NULs', utf32(TEXT, true), 'text/plain; charset=utf-32'],
    ['UTF-32LE undeclared, by its NULs', utf32(TEXT, false), undefined],
  ])('decodes %s', (_name, bytes, contentType) => {
    expect(bodyText(bytes, contentType)).toBe(TEXT);
    expect(bodyText(bytes, contentType, true)).toBe(TEXT);
  });

  it('honours another declared charset only with `legacy` (an error page; JSON is UTF-8)', () => {
    const latin1 = Buffer.from('caf\u00e9\u00a0ok', 'latin1');
    expect(bodyText(latin1, 'text/html; charset=ISO-8859-1', true)).toBe('caf\u00e9\u00a0ok');
    expect(bodyText(latin1, 'text/html; charset=ISO-8859-1')).toBe('caf\ufffdok');
    // ASCII (text/plain's default name), unknown, or one that would read as one U+FFFD: UTF-8.
    expect(bodyText(Buffer.from('café'), 'text/plain; charset=US-ASCII', true)).toBe('café');
    expect(bodyText(Buffer.from('café'), 'text/plain; charset=x-unknown', true)).toBe('café');
    expect(bodyText(Buffer.from('café'), 'text/plain; charset=iso-2022-kr', true)).toBe('café');
  });

  it('reads what is no character as U+FFFD: a cut UTF-16 or UTF-32 unit, a surrogate or more than U+10FFFF in UTF-32', () => {
    expect(bodyText(Buffer.from(BOM + 'ab', 'utf16le').subarray(0, 5), undefined)).toBe('a\ufffd');
    const bad = Buffer.concat([
      utf32('a', true),
      Buffer.from([0, 0, 0xd8, 0]),
      Buffer.from([0, 0x11, 0, 0]),
      Buffer.from([0, 0]),
    ]);
    expect(bodyText(bad, 'text/plain; charset=utf-32be')).toBe('a\ufffd\ufffd\ufffd');
  });

  it('takes short bodies as UTF-8 unless they say otherwise', () => {
    expect(bodyText(Buffer.from(''), undefined)).toBe('');
    expect(bodyText(Buffer.from('a'), undefined)).toBe('a');
    expect(bodyEncoding(Buffer.from('ab'), undefined)).toBe('utf-8');
    expect(bodyEncoding(Buffer.from([0x61, 0]), 'text/plain; charset=utf-16')).toBe('utf-16le');
  });
});

describe('asUtf8', () => {
  async function collect(pieces: Buffer[], contentType?: string) {
    async function* body() {
      for (const piece of pieces) yield await Promise.resolve(piece);
    }
    const out: Buffer[] = [];
    for await (const chunk of asUtf8(body(), contentType)) out.push(chunk);
    return out;
  }

  it('passes UTF-8 on untouched, piece by piece', async () => {
    const pieces = [Buffer.from('[{"na'), Buffer.from('me":"é"}'), Buffer.from(']')];
    const out = await collect(pieces);
    expect(out.map(String)).toEqual(pieces.map(String));
  });

  it('decodes UTF-16 and UTF-32 cut anywhere, even inside the BOM and inside a character', async () => {
    for (const bytes of [Buffer.from(BOM + TEXT, 'utf16le'), utf16be(TEXT), utf32(BOM + TEXT, true)]) {
      for (let size = 1; size <= 7; size += 1) {
        const pieces = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
          bytes.subarray(i * size, (i + 1) * size),
        );
        const contentType = bytes[0] === 0 && bytes[1] !== 0 ? 'application/json; charset=utf-16be' : undefined;
        expect(Buffer.concat(await collect(pieces, contentType)).toString()).toBe(TEXT);
      }
    }
  });

  it('closes the body when its reader stops early', async () => {
    let closed = false;
    async function* body() {
      try {
        yield await Promise.resolve(Buffer.from(BOM + 'ab', 'utf16le'));
        yield Buffer.from('cd', 'utf16le');
      } finally {
        closed = true;
      }
    }
    for await (const chunk of asUtf8(body(), undefined)) {
      expect(chunk.toString()).toBe('ab');
      break;
    }
    expect(closed).toBe(true);
  });
});
