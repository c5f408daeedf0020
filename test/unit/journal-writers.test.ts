import { spawnSync } from 'node:child_process';
import { openSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileKey, filesBeingWritten, markWriter } from '../../src/deletion/journal/writers.js';
import { tempFiles } from '../helpers/temp-files.js';

// The runs writing the state directory's journal: their marks, on real files in a temp dir.

const { tempDir, fds } = tempFiles('plants-journal-writers-');

function openFile(path: string): number {
  writeFileSync(path, '');
  const fd = openSync(path, 'a');
  fds.push(fd);
  return fd;
}

/** The pid of a process that has ended. */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid;
}

describe('fileKey', () => {
  it('is dev:ino', () => {
    expect(fileKey({ dev: 2049, ino: 131 })).toBe('2049:131');
  });
});

describe('markWriter', () => {
  it('makes an empty 0600 file naming this pid and the file the descriptor holds, removed by remove()', () => {
    const dir = tempDir();
    const fd = openFile(join(dir, 'deletions.jsonl'));
    const { dev, ino } = statSync(join(dir, 'deletions.jsonl'));
    const mark = markWriter(dir, fd);
    const names = readdirSync(dir).filter((name) => name !== 'deletions.jsonl');
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(
      new RegExp(
        `^deletions\\.writer\\.${process.pid}\\.${dev}-${ino}\\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`,
      ),
    );
    const stats = statSync(join(dir, names[0]!));
    expect(stats.size).toBe(0);
    expect(stats.mode & 0o777).toBe(0o600);
    expect(filesBeingWritten(dir, readdirSync(dir))).toEqual(new Set([`${dev}:${ino}`]));
    mark.remove();
    expect(readdirSync(dir)).toEqual(['deletions.jsonl']);
    // Gone already: nothing to say.
    expect(() => mark.remove()).not.toThrow();
  });

  it('two marks of one run are two files', () => {
    const dir = tempDir();
    const fd = openFile(join(dir, 'deletions.jsonl'));
    const first = markWriter(dir, fd);
    const second = markWriter(dir, fd);
    expect(readdirSync(dir)).toHaveLength(3);
    first.remove();
    expect(readdirSync(dir)).toHaveLength(2);
    second.remove();
    expect(readdirSync(dir)).toEqual(['deletions.jsonl']);
  });

  it('throws what the file system says when the mark cannot be made', () => {
    const dir = tempDir();
    const fd = openFile(join(dir, 'deletions.jsonl'));
    expect(() => markWriter(join(dir, 'missing'), fd)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

describe('filesBeingWritten', () => {
  it('the files of running runs; marks of ended runs are removed; other names are left alone', () => {
    const dir = tempDir();
    const ended = endedPid();
    const names = [
      `deletions.writer.${process.pid}.12-34.abc-def`,
      'deletions.writer.0.5-6.zero',
      `deletions.writer.${ended}.7-8.gone`,
      `deletions.writer.${ended}.9-10.already-gone`,
      `xdeletions.writer.${process.pid}.1-1.u`,
      `deletions.writer.${process.pid}.2-2.u!`,
      `deletions.writer.${process.pid}.3-3.`,
      `deletions.writer.p${process.pid}.4-4.u`,
      `deletions.writer.${process.pid}.55.u`,
      'deletions.jsonl',
    ];
    for (const name of names.filter((name) => !name.includes('already-gone'))) writeFileSync(join(dir, name), '');
    expect(filesBeingWritten(dir, names)).toEqual(new Set(['12:34', '5:6']));
    expect(readdirSync(dir).sort()).toEqual(names.filter((name) => !name.includes(`.${ended}.`)).sort());
  });

  it('nothing in the directory: nothing written', () => {
    expect(filesBeingWritten(tempDir(), [])).toEqual(new Set());
  });
});
