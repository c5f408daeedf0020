import { spawnSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  KEEP_OLD_FILES,
  oldJournalsInOrder,
  ROLL_OVER_BYTES,
  rollOver,
  writerMayKeep,
} from '../../src/deletion/journal/roll-over.js';
import { markWriter } from '../../src/deletion/journal/writers.js';
import { JournalError } from '../../src/shared/errors.js';
import { tempFiles } from '../helpers/temp-files.js';

// The journal's rollover, on real files in a temp dir.

const { tempDir, fds } = tempFiles('plants-roll-over-');

function endedPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

const WAY_ON = 'run with --no-journal';
const pid = process.pid;

describe('the limits', () => {
  it('16 MiB, four old files', () => {
    expect(ROLL_OVER_BYTES).toBe(16 * 1024 * 1024);
    expect(KEEP_OLD_FILES).toBe(4);
  });
});

describe('oldJournalsInOrder', () => {
  it('oldest first: by time to the millisecond (a name to the second is at .000), then by pid as a number', () => {
    expect(
      oldJournalsInOrder([
        'deletions.20261129T061100.123Z.10000.jsonl',
        'deletions.20261129T061100.123Z.9999.jsonl',
        'deletions.20261129T061100Z.5.jsonl',
        'deletions.20261129T061100.001Z.1.jsonl',
        'deletions.20251231T235959.999Z.77.jsonl',
        'deletions.jsonl',
        'deletions.writer.1.2-3.u',
        'deletions.20261129T061100.12Z.1.jsonl',
        'deletions.2026112T061100Z.1.jsonl',
        'deletions.20261129T061100Z.1.jsonl.gz',
        'old.deletions.20261129T061100Z.1.jsonl',
        'deletions.20261129T061100Z.x.jsonl',
      ]),
    ).toEqual([
      'deletions.20251231T235959.999Z.77.jsonl',
      'deletions.20261129T061100Z.5.jsonl',
      'deletions.20261129T061100.001Z.1.jsonl',
      'deletions.20261129T061100.123Z.9999.jsonl',
      'deletions.20261129T061100.123Z.10000.jsonl',
    ]);
  });

  it('a file being removed sorts as the old journal it was; a tie goes by name', () => {
    expect(
      oldJournalsInOrder([
        'deletions.20261129T061102Z.1.jsonl',
        'deletions.removing.42.deletions.20261129T061101Z.1.jsonl',
        'deletions.removing.7.deletions.20261129T061102Z.1.jsonl',
        'deletions.20261129T061100Z.1.jsonl',
        'deletions.removing.x.deletions.20261129T061100Z.1.jsonl',
        'deletions.removing.7.other.jsonl',
      ]),
    ).toEqual([
      'deletions.20261129T061100Z.1.jsonl',
      'deletions.removing.42.deletions.20261129T061101Z.1.jsonl',
      'deletions.20261129T061102Z.1.jsonl',
      'deletions.removing.7.deletions.20261129T061102Z.1.jsonl',
    ]);
    // A name to the second is at .000: the same time as one at .000, then by pid.
    expect(
      oldJournalsInOrder(['deletions.20261129T061100Z.9.jsonl', 'deletions.20261129T061100.000Z.1.jsonl']),
    ).toEqual(['deletions.20261129T061100.000Z.1.jsonl', 'deletions.20261129T061100Z.9.jsonl']);
    expect(oldJournalsInOrder(['deletions.20261129T061100Z.2.jsonl', 'deletions.20261129T061100Z.1.jsonl'])).toEqual([
      'deletions.20261129T061100Z.1.jsonl',
      'deletions.20261129T061100Z.2.jsonl',
    ]);
  });
});

describe('rollOver', () => {
  it('leaves a journal smaller than the limit; renames one that has reached it, named by the time and this pid', () => {
    const dir = tempDir();
    const path = join(dir, 'deletions.jsonl');
    writeFileSync(path, '123456789\n');
    rollOver(dir, 11, WAY_ON);
    expect(readdirSync(dir)).toEqual(['deletions.jsonl']);
    const before = new Date().toISOString();
    rollOver(dir, 10, WAY_ON);
    const after = new Date().toISOString();
    const names = readdirSync(dir);
    expect(names).toHaveLength(1);
    const [, stamp] = /^deletions\.(\d{8}T\d{6}\.\d{3}Z)\.(\d+)\.jsonl$/.exec(names[0]!) ?? [];
    expect(names[0]).toBe(`deletions.${stamp}.${pid}.jsonl`);
    const iso = stamp!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)/, '$1-$2-$3T$4:$5:$6');
    expect(iso >= before && iso <= after).toBe(true);
    expect(readFileSync(join(dir, names[0]!), 'utf8')).toBe('123456789\n');
  });

  it('nothing to roll over: a missing journal, a missing directory, a link, a directory', () => {
    const dir = tempDir();
    rollOver(dir, 0, WAY_ON);
    rollOver(join(dir, 'missing'), 0, WAY_ON);
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(join(dir, 'target'), 'x'.repeat(100));
    symlinkSync(join(dir, 'target'), join(dir, 'deletions.jsonl'));
    rollOver(dir, 1, WAY_ON);
    expect(readdirSync(dir).sort()).toEqual(['deletions.jsonl', 'target']);
    unlinkSync(join(dir, 'deletions.jsonl'));
    mkdirSync(join(dir, 'deletions.jsonl'));
    rollOver(dir, 0, WAY_ON);
    expect(readdirSync(dir).sort()).toEqual(['deletions.jsonl', 'target']);
  });

  it('a journal that cannot be looked at: a JournalError naming it, the reason and the way on', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    const path = join(dir, 'file', 'deletions.jsonl');
    expect(() => rollOver(join(dir, 'file'), 0, WAY_ON)).toThrow(
      new JournalError(
        `cannot roll over the deletion journal ${path}: not a directory (ENOTDIR); nothing was deleted; ${WAY_ON}`,
      ),
    );
    expect(() => rollOver(join(dir, 'file'), 0, WAY_ON)).toThrow(JournalError);
  });

  it('keeps the four newest old journals, and removes the rest', () => {
    const dir = tempDir();
    const old = [1, 2, 3, 4, 5].map((n) => `deletions.2020010${n}T000000Z.1.jsonl`);
    for (const name of old) writeFileSync(join(dir, name), name);
    writeFileSync(join(dir, 'other'), '');
    writeFileSync(join(dir, 'deletions.jsonl'), 'big');
    const points: string[] = [];
    rollOver(dir, 3, WAY_ON, (point) => points.push(point));
    expect(points).toEqual(['marks-read']);
    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(5);
    expect(names.slice(0, 3)).toEqual(old.slice(2));
    expect(names[3]).toMatch(new RegExp(`^deletions\\.\\d{8}T\\d{6}\\.\\d{3}Z\\.${pid}\\.jsonl$`));
    expect(names[4]).toBe('other');
  });

  it('with four old journals or fewer, removes none (and does not pause)', () => {
    const dir = tempDir();
    const old = [1, 2, 3].map((n) => `deletions.2020010${n}T000000Z.1.jsonl`);
    for (const name of old) writeFileSync(join(dir, name), name);
    writeFileSync(join(dir, 'deletions.jsonl'), 'big');
    const points: string[] = [];
    rollOver(dir, 1, WAY_ON, (point) => points.push(point));
    expect(points).toEqual([]);
    expect(readdirSync(dir)).toHaveLength(4);
  });

  it('keeps an old journal a running run still writes, under its own name', () => {
    const dir = tempDir();
    const old = [1, 2, 3, 4, 5].map((n) => `deletions.2020010${n}T000000Z.1.jsonl`);
    for (const name of old) writeFileSync(join(dir, name), name);
    const fd = openSync(join(dir, old[0]!), 'a');
    fds.push(fd);
    const mark = markWriter(dir, fd);
    writeFileSync(join(dir, 'deletions.jsonl'), 'big');
    rollOver(dir, 1, WAY_ON);
    const names = readdirSync(dir).filter((name) => !name.startsWith('deletions.writer.'));
    expect(names.sort()).toEqual([...old.slice(0, 1), ...old.slice(2), expect.stringContaining(`.${pid}.jsonl`)]);
    expect(readFileSync(join(dir, old[0]!), 'utf8')).toBe(old[0]);
    mark.remove();
  });

  it("takes up a file an ended remover left; leaves a running remover's", () => {
    const dir = tempDir();
    const ended = endedPid();
    const running = process.ppid;
    const names = [
      `deletions.removing.${ended}.deletions.20200101T000000Z.1.jsonl`,
      `deletions.removing.${running}.deletions.20200102T000000Z.1.jsonl`,
      'deletions.20200103T000000Z.1.jsonl',
      'deletions.20200104T000000Z.1.jsonl',
      'deletions.20200105T000000Z.1.jsonl',
      'deletions.20200106T000000Z.1.jsonl',
    ];
    for (const name of names) writeFileSync(join(dir, name), '');
    writeFileSync(join(dir, 'deletions.jsonl'), 'big');
    rollOver(dir, 1, WAY_ON);
    const left = readdirSync(dir).sort();
    expect(left).toHaveLength(5);
    expect(left).toEqual([
      names[3],
      names[4],
      names[5],
      expect.stringMatching(new RegExp(`^deletions\\.\\d{8}T\\d{6}\\.\\d{3}Z\\.${pid}\\.jsonl$`)),
      names[1],
    ]);
  });
});

describe('writerMayKeep', () => {
  it('the journal as it is: kept; removed, or under a removing name: not', () => {
    const dir = tempDir();
    const path = join(dir, 'deletions.jsonl');
    writeFileSync(path, '');
    writeFileSync(join(dir, 'deletions.removing.1.deletions.20200101T000000Z.1.jsonl'), '');
    const fd = openSync(path, 'a');
    fds.push(fd);
    expect(writerMayKeep(dir, fd)).toBe(true);
    // A second link, not a removing one: still kept.
    linkSync(path, join(dir, 'deletions.20200102T000000Z.1.jsonl'));
    expect(writerMayKeep(dir, fd)).toBe(true);
    linkSync(path, join(dir, 'deletions.removing.9.deletions.20200102T000000Z.1.jsonl'));
    expect(writerMayKeep(dir, fd)).toBe(false);
    unlinkSync(join(dir, 'deletions.removing.9.deletions.20200102T000000Z.1.jsonl'));
    unlinkSync(join(dir, 'deletions.20200102T000000Z.1.jsonl'));
    unlinkSync(path);
    expect(writerMayKeep(dir, fd)).toBe(false);
  });

  it('a removing name that is a link to nothing is passed over', () => {
    const dir = tempDir();
    const path = join(dir, 'deletions.jsonl');
    writeFileSync(path, '');
    symlinkSync(join(dir, 'nowhere'), join(dir, 'deletions.removing.1.deletions.20200101T000000Z.1.jsonl'));
    const fd = openSync(path, 'a');
    fds.push(fd);
    expect(writerMayKeep(dir, fd)).toBe(true);
  });
});
