import { describe, expect, it } from 'vitest';
import { idSpellings } from '../../src/deletion/id-spellings.js';

// The exact texts idSpellings hands idReadings: the id first, then each reading, each once.

describe('idSpellings', () => {
  it('is the id alone for printable ASCII without %', () => {
    expect(idSpellings('7')).toEqual(['7']);
    expect(idSpellings('plant-7.json')).toEqual(['plant-7.json']);
  });

  it('keeps the id first, then its NFKC form, then that without invisible characters', () => {
    expect(idSpellings('\uff17')).toEqual(['\uff17', '7']);
    expect(idSpellings('\u200b7')).toEqual(['\u200b7', '7']);
    expect(idSpellings('\uff17\u200b')).toEqual(['\uff17\u200b', '7\u200b', '7']);
  });

  it('adds each percent-decoding as decoded, then its readable forms', () => {
    expect(idSpellings('%37')).toEqual(['%37', '7']);
    expect(idSpellings('%EF%BC%97')).toEqual(['%EF%BC%97', '\uff17', '7']);
    expect(idSpellings('%37%zz')).toEqual(['%37%zz', '7%zz']);
    expect(idSpellings('%zz')).toEqual(['%zz']);
  });

  it('decodes at most three times', () => {
    expect(idSpellings('%252537')).toEqual(['%252537', '%2537', '%37', '7']);
    expect(idSpellings('%25252537')).toEqual(['%25252537', '%252537', '%2537', '%37']);
  });
});
