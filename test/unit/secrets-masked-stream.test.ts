import { describe, expect, it } from 'vitest';
import { MaskedStream } from '../../src/secrets/masked-stream.js';

// The stream's sizes (masked-stream.ts): let out in runs of WINDOW, KEEP held back, at most MOST_HELD held.
const KEEP = 64 * 1024;
const WINDOW = 1024 * 1024;
const MOST_HELD = 4 * WINDOW;
const CUT_STEP = 4099;

/** A run of `x` masked as its length: a cut inside one never reads as the start of the whole. */
const runLengths = (text: string) => text.replace(/x+/g, (run) => `<${run.length}>`);
/** `SECRET` masked: a small span a cut may cross. */
const secrets = (text: string) => text.replaceAll('SECRET', '***');

describe('MaskedStream, at its sizes', () => {
  it('holds text until a window and the kept end have come, then lets out all but the kept end', () => {
    const stream = new MaskedStream(secrets);
    expect(stream.push('a'.repeat(WINDOW + KEEP - 1))).toBe('');
    expect(stream.push('b')).toBe('a'.repeat(WINDOW));
    expect(stream.end()).toBe(`${'a'.repeat(KEEP - 1)}b`);
    expect(stream.end()).toBe('');
  });

  it('cuts before a masked span that crosses the first cut, one step back', () => {
    const stream = new MaskedStream(secrets);
    const cut = WINDOW; // where the first cut falls: the text's length less KEEP
    const text = `${'a'.repeat(cut - 3)}SECRET${'a'.repeat(KEEP - 3)}`;
    expect(stream.push(text)).toBe('a'.repeat(cut - CUT_STEP));
    expect(stream.end()).toBe(`${'a'.repeat(CUT_STEP - 3)}***${'a'.repeat(KEEP - 3)}`);
  });

  it('tries eight cuts, each a step before the last, and holds the text when a span crosses each', () => {
    const cuts = Array.from({ length: 8 }, (_, tried) => WINDOW - tried * CUT_STEP);
    let text = 'a'.repeat(WINDOW + KEEP);
    for (const cut of cuts) text = `${text.slice(0, cut - 3)}SECRET${text.slice(cut + 3)}`;
    const stream = new MaskedStream(secrets);
    expect(stream.push(text)).toBe('');
    expect(stream.end()).toBe(secrets(text));
  });

  it('lets out what it holds, masked whole, once it holds MOST_HELD and no cut is clear', () => {
    const stream = new MaskedStream(runLengths);
    expect(stream.push('x'.repeat(WINDOW + KEEP))).toBe('');
    expect(stream.push('x'.repeat(WINDOW - KEEP))).toBe('');
    expect(stream.push('x'.repeat(WINDOW))).toBe('');
    expect(stream.push('x'.repeat(WINDOW))).toBe(`<${MOST_HELD}>`);
    expect(stream.end()).toBe('');
  });
});
