import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOURNAL_FILE, stateDir } from '../../src/deletion/journal/location.js';

// Where the deletion journal lives, chosen from the environment alone (nothing is made or read).

describe('stateDir', () => {
  it('PLANTS_STATE_DIR first, made absolute', () => {
    expect(stateDir({ PLANTS_STATE_DIR: '/srv/state', XDG_STATE_HOME: '/xdg', HOME: '/home/u' })).toBe('/srv/state');
    expect(stateDir({ PLANTS_STATE_DIR: 'rel/state' })).toBe(resolve('rel/state'));
  });

  it('an empty PLANTS_STATE_DIR is no choice: XDG_STATE_HOME/plants next', () => {
    expect(stateDir({ PLANTS_STATE_DIR: '', XDG_STATE_HOME: '/xdg', HOME: '/home/u' })).toBe('/xdg/plants');
  });

  it('a relative XDG_STATE_HOME is ignored, as the XDG spec says', () => {
    expect(stateDir({ XDG_STATE_HOME: 'xdg', HOME: '/home/u' })).toBe('/home/u/.local/state/plants');
    expect(stateDir({ XDG_STATE_HOME: '', HOME: '/home/u' })).toBe('/home/u/.local/state/plants');
  });

  it('LOCALAPPDATA counts on Windows only', () => {
    const expected = process.platform === 'win32' ? join('C:\\local', 'plants') : '/home/u/.local/state/plants';
    expect(stateDir({ LOCALAPPDATA: 'C:\\local', HOME: '/home/u' })).toBe(expected);
  });

  it("HOME, else the user's home directory", () => {
    expect(stateDir({ HOME: '/home/u' })).toBe('/home/u/.local/state/plants');
    expect(stateDir({ HOME: '' })).toBe(join(homedir(), '.local', 'state', 'plants'));
    expect(stateDir({})).toBe(join(homedir(), '.local', 'state', 'plants'));
  });

  it('the journal file is deletions.jsonl', () => {
    expect(JOURNAL_FILE).toBe('deletions.jsonl');
  });
});
