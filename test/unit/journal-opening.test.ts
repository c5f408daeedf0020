import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalFile } from '../../src/deletion/journal/file-writer.js';
import { checkJournalPlaces, closeAll, openJournalFiles, WAY_ON } from '../../src/deletion/journal/opening.js';
import { JournalError } from '../../src/shared/errors.js';
import { runCommand } from '../helpers/command.js';

// Opening the run's journal files (and the dry run's check that it could), on real files in a temp dir.

const dirs: string[] = [];
const fds: number[] = [];
const opened: JournalFile[][] = [];
afterEach(() => {
  for (const files of opened.splice(0)) closeAll(files);
  for (const fd of fds.splice(0)) closeSync(fd);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plants-opening-'));
  dirs.push(dir);
  return dir;
}

function open(places: Parameters<typeof openJournalFiles>[0]): JournalFile[] {
  const files = openJournalFiles(places);
  opened.push(files);
  return files;
}

const OTHER_FILE = 'name a writable --journal-file, or leave it out';
const RECORD =
  '{"v":1,"event":"start","time":"2026-11-29T06:11:00.123Z","run":"r","command":"delete","profile":"default","base_url":"http://127.0.0.1:1","plants":1}';
const writers = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('deletions.writer.'));

describe('openJournalFiles', () => {
  it('makes a missing state directory 0700 (its parents too), and opens its journal marked as written by this run', () => {
    const dir = join(tempDir(), 'a', 'state');
    const [file, ...rest] = open({ dir });
    expect(rest).toEqual([]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, '..')).mode & 0o777).toBe(0o700);
    const path = join(dir, 'deletions.jsonl');
    expect(file).toMatchObject({ path, wayOn: WAY_ON, pipe: false, regular: true });
    expect(WAY_ON).toBe('run with --no-journal (or PLANTS_JOURNAL=off) to delete without a record');
    expect(fstatSync(file!.fd).ino).toBe(statSync(path).ino);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const { dev, ino } = statSync(path);
    expect(writers(dir)).toEqual([
      expect.stringMatching(new RegExp(`^deletions\\.writer\\.${process.pid}\\.${dev}-${ino}\\.`)),
    ]);
    closeAll([file!]);
    opened.pop();
    expect(writers(dir)).toEqual([]);
    expect(() => fstatSync(file!.fd)).toThrow(expect.objectContaining({ code: 'EBADF' }));
  });

  it('a --journal-file alone, or both; nothing at all', () => {
    const dir = tempDir();
    const extraFile = join(dir, 'run.jsonl');
    const [alone, ...none] = open({ extraFile });
    expect(none).toEqual([]);
    expect(alone).toMatchObject({ path: extraFile, wayOn: OTHER_FILE, pipe: false, regular: true });
    expect(alone!.mark).toBeUndefined();
    const both = open({ dir: join(dir, 'state'), extraFile });
    expect(both.map((file) => file.path)).toEqual([join(dir, 'state', 'deletions.jsonl'), extraFile]);
    expect(open({})).toEqual([]);
  });

  it('ends a line a run left unended; a file that ends with one, or is empty, is left as it is', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'deletions.jsonl'), '{"v":1,"event":"int');
    writeFileSync(join(dir, 'whole.jsonl'), `${RECORD}\n`);
    writeFileSync(join(dir, 'cut.jsonl'), RECORD);
    open({ dir, extraFile: join(dir, 'whole.jsonl') });
    expect(readFileSync(join(dir, 'deletions.jsonl'), 'utf8')).toBe('{"v":1,"event":"int\n');
    expect(readFileSync(join(dir, 'whole.jsonl'), 'utf8')).toBe(`${RECORD}\n`);
    open({ extraFile: join(dir, 'cut.jsonl') });
    expect(readFileSync(join(dir, 'cut.jsonl'), 'utf8')).toBe(`${RECORD}\n`);
    open({ extraFile: join(dir, 'empty.jsonl') });
    expect(readFileSync(join(dir, 'empty.jsonl'), 'utf8')).toBe('');
  });

  it('rolls the journal over at the size given, else at 16 MiB', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'deletions.jsonl'), `${RECORD}\n`);
    open({ dir });
    expect(readdirSync(dir).filter((name) => name.endsWith('.jsonl'))).toEqual(['deletions.jsonl']);
    closeAll(opened.pop()!);
    open({ dir, rollOverBytes: RECORD.length + 1 });
    const names = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
    expect(names).toHaveLength(2);
    expect(readFileSync(join(dir, 'deletions.jsonl'), 'utf8')).toBe('');
  });

  it('a pipe as the --journal-file: pipe, not regular', () => {
    const dir = tempDir();
    const path = join(dir, 'journal.fifo');
    runCommand('mkfifo', [path]);
    fds.push(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
    const [file] = open({ extraFile: path });
    expect(file).toMatchObject({ pipe: true, regular: false });
  });

  it('opens the journal again when a rollover took the one it opened, pausing the first time only', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'deletions.jsonl'), 'first\n');
    const points: string[] = [];
    const fdsBefore = readdirSync('/proc/self/fd').length;
    const [file] = open({
      dir,
      pause: (point) => {
        points.push(point);
        // A rollover removing the journal just opened.
        renameSync(
          join(dir, 'deletions.jsonl'),
          join(dir, `deletions.removing.${process.pid}.deletions.20200101T000000Z.1.jsonl`),
        );
      },
    });
    expect(points).toEqual(['writer-opened']);
    expect(fstatSync(file!.fd).ino).toBe(statSync(join(dir, 'deletions.jsonl')).ino);
    expect(readFileSync(join(dir, 'deletions.jsonl'), 'utf8')).toBe('');
    expect(writers(dir)).toHaveLength(1);
    // The first descriptor was closed: only the one kept is open.
    expect(readdirSync('/proc/self/fd').length).toBe(fdsBefore + 1);
  });

  it('a state directory that cannot be made: a JournalError naming it, the reason and the way on', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    expect(() => open({ dir: join(dir, 'file') })).toThrow(
      new JournalError(
        `cannot make the directory of the deletion journal ${join(dir, 'file')}: something that is not a directory is in its place; nothing was deleted; ${WAY_ON}`,
      ),
    );
    expect(() => open({ dir: join(dir, 'file', 'state') })).toThrow(
      new JournalError(
        `cannot make the directory of the deletion journal ${join(dir, 'file', 'state')}: not a directory (ENOTDIR); nothing was deleted; ${WAY_ON}`,
      ),
    );
  });

  it('a journal that cannot be opened: a JournalError naming it, the reason and the way on; nothing left open', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'state', 'deletions.jsonl'), { recursive: true });
    expect(() => open({ dir: join(dir, 'state') })).toThrow(
      new JournalError(
        `cannot write the deletion journal ${join(dir, 'state', 'deletions.jsonl')}: illegal operation on a directory (EISDIR); nothing was deleted; ${WAY_ON}`,
      ),
    );
    const extraFile = join(dir, 'missing', 'run.jsonl');
    const fdsBefore = readdirSync('/proc/self/fd').length;
    expect(() => open({ dir: join(dir, 'other'), extraFile })).toThrow(
      new JournalError(
        `cannot write the deletion journal ${extraFile}: no such file or directory (ENOENT); nothing was deleted; ${OTHER_FILE}`,
      ),
    );
    // The state directory's journal, opened first, is closed and unmarked again.
    expect(writers(join(dir, 'other'))).toEqual([]);
    expect(readdirSync('/proc/self/fd').length).toBe(fdsBefore);
  });

  it('a --journal-file is followed through a link, and its mode left as it is', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'target.jsonl'), `${RECORD}\n`, { mode: 0o644 });
    symlinkSync(join(dir, 'target.jsonl'), join(dir, 'link.jsonl'));
    const [file] = open({ extraFile: join(dir, 'link.jsonl') });
    expect(fstatSync(file!.fd).ino).toBe(statSync(join(dir, 'target.jsonl')).ino);
    expect(statSync(join(dir, 'target.jsonl')).mode & 0o777).toBe(0o644);
  });

  it('a name too long for the file system: the system says so', () => {
    const dir = join(tempDir(), 'x'.repeat(300));
    expect(() => checkJournalPlaces({ dir })).toThrow(
      new JournalError(
        `cannot make the directory of the deletion journal ${dir}: name too long (ENAMETOOLONG); nothing was deleted; ${WAY_ON}`,
      ),
    );
    expect(() => checkJournalPlaces({ extraFile: join(dir, 'run.jsonl') })).toThrow(
      new JournalError(
        `cannot write the deletion journal ${join(dir, 'run.jsonl')}: name too long (ENAMETOOLONG); nothing was deleted; ${OTHER_FILE}`,
      ),
    );
  });

  it('a refused state journal is refused in its own words (a link), not as a write failure', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'target'), '');
    symlinkSync(join(dir, 'target'), join(dir, 'deletions.jsonl'));
    expect(() => open({ dir })).toThrow(/^the deletion journal .* is a symbolic link/);
    expect(() => checkJournalPlaces({ dir })).toThrow(/^the deletion journal .* is a symbolic link/);
  });

  it('a --journal-file that is not a journal is refused before the state directory is made', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{}\n');
    expect(() => open({ dir: join(dir, 'state'), extraFile: join(dir, 'config.json') })).toThrow(
      /config\.json is not a deletion journal/,
    );
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });
});

describe('checkJournalPlaces', () => {
  it('makes and writes nothing', () => {
    const dir = tempDir();
    checkJournalPlaces({ dir: join(dir, 'a', 'b', 'state'), extraFile: join(dir, 'run.jsonl') });
    checkJournalPlaces({ dir });
    writeFileSync(join(dir, 'deletions.jsonl'), RECORD);
    writeFileSync(join(dir, 'run.jsonl'), RECORD);
    checkJournalPlaces({ dir, extraFile: join(dir, 'run.jsonl') });
    checkJournalPlaces({});
    expect(readdirSync(dir).sort()).toEqual(['deletions.jsonl', 'run.jsonl']);
    expect(readFileSync(join(dir, 'deletions.jsonl'), 'utf8')).toBe(RECORD);
  });

  it('a state directory that could not be made', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    expect(() => checkJournalPlaces({ dir: join(dir, 'file') })).toThrow(
      new JournalError(
        `cannot make the directory of the deletion journal ${join(dir, 'file')}: something that is not a directory is in its place; nothing was deleted; ${WAY_ON}`,
      ),
    );
    expect(() => checkJournalPlaces({ dir: join(dir, 'file', 'state') })).toThrow(
      new JournalError(
        `cannot make the directory of the deletion journal ${join(dir, 'file', 'state')}: not a directory (ENOTDIR); nothing was deleted; ${WAY_ON}`,
      ),
    );
    expect(() => checkJournalPlaces({ dir: join(dir, 'file', 'a', 'state') })).toThrow(/: not a directory \(ENOTDIR\)/);
  });

  it('a journal that could not be opened for appending', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'deletions.jsonl'));
    expect(() => checkJournalPlaces({ dir })).toThrow(
      new JournalError(
        `cannot write the deletion journal ${join(dir, 'deletions.jsonl')}: illegal operation on a directory (EISDIR); nothing was deleted; ${WAY_ON}`,
      ),
    );
    const extraFile = join(dir, 'missing', 'run.jsonl');
    expect(() => checkJournalPlaces({ extraFile })).toThrow(
      new JournalError(
        `cannot write the deletion journal ${extraFile}: no such file or directory (ENOENT); nothing was deleted; ${OTHER_FILE}`,
      ),
    );
    expect(() => checkJournalPlaces({ extraFile: dir })).toThrow(
      new JournalError(
        `cannot write the deletion journal ${dir}: illegal operation on a directory (EISDIR); nothing was deleted; ${OTHER_FILE}`,
      ),
    );
    writeFileSync(join(dir, 'file'), '');
    expect(() => checkJournalPlaces({ extraFile: join(dir, 'file', 'run.jsonl') })).toThrow(
      /^cannot write the deletion journal .*: not a directory \(ENOTDIR\); nothing was deleted; name a writable/,
    );
  });

  it('a --journal-file refused as the run would refuse it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{}\n');
    expect(() => checkJournalPlaces({ dir, extraFile: join(dir, 'config.json') })).toThrow(
      /config\.json is not a deletion journal/,
    );
    expect(() => checkJournalPlaces({ extraFile: '-' })).toThrow(/^--journal-file - is not supported/);
  });
});
