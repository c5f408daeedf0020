import {
  chmodSync,
  chownSync,
  fstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkJournalFile,
  journalFirstLine,
  openJournalFile,
  refuseDash,
  stateDirProblem,
} from '../../src/deletion/journal/open-file.js';
import { JournalError } from '../../src/shared/errors.js';
import { runCommand } from '../helpers/command.js';
import { tempFiles } from '../helpers/temp-files.js';

// Opening a journal file, on real files in a temp dir (and the devices every Linux has).

const { tempDir, fds } = tempFiles('plants-open-file-');

function open(path: string, own: boolean): number {
  const fd = openJournalFile(path, own);
  fds.push(fd);
  return fd;
}

const RECORD =
  '{"v":1,"event":"start","time":"2026-11-29T06:11:00.123Z","run":"r","command":"delete","profile":"default","base_url":"http://127.0.0.1:1","plants":1}';
const LINK =
  'run with --no-journal (or PLANTS_JOURNAL=off) to delete without a record, or --no-journal --journal-file <path> to keep the journal elsewhere';
const OUTPUT = "give a file's path (--journal-file run.jsonl), or a pipe: --journal-file >(gzip > run.jsonl.gz)";
const mode = (path: string) => statSync(path).mode & 0o777;

describe('openJournalFile', () => {
  it('creates a missing file 0600 for appending', () => {
    for (const own of [true, false]) {
      const path = join(tempDir(), 'j.jsonl');
      const fd = open(path, own);
      expect(mode(path)).toBe(0o600);
      writeSync(fd, 'a\n');
      expect(readFileSync(path, 'utf8')).toBe('a\n');
    }
  });

  it('appends to what is there, whatever the descriptor was told', () => {
    const path = join(tempDir(), 'j.jsonl');
    writeFileSync(path, `${RECORD}\n`);
    const fd = open(path, false);
    writeSync(fd, 'b\n', 0);
    expect(readFileSync(path, 'utf8')).toBe(`${RECORD}\nb\n`);
  });

  it("sets the state directory's journal, a file of this user, to 0600; a --journal-file's mode is left as it is", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'own.jsonl'), '', { mode: 0o644 });
    writeFileSync(join(dir, 'other.jsonl'), '', { mode: 0o644 });
    chmodSync(join(dir, 'own.jsonl'), 0o644);
    chmodSync(join(dir, 'other.jsonl'), 0o644);
    open(join(dir, 'own.jsonl'), true);
    open(join(dir, 'other.jsonl'), false);
    expect(mode(join(dir, 'own.jsonl'))).toBe(0o600);
    expect(mode(join(dir, 'other.jsonl'))).toBe(0o644);
  });

  it.runIf(process.getuid?.() === 0)("leaves the mode of another user's file in the state directory as it is", () => {
    const path = join(tempDir(), 'deletions.jsonl');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    chownSync(path, 4321, 4321);
    open(path, true);
    expect(mode(path)).toBe(0o644);
  });

  it("refuses a symbolic link as the state directory's journal, and follows one as a --journal-file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'target.jsonl'), '');
    symlinkSync(join(dir, 'target.jsonl'), join(dir, 'link.jsonl'));
    const path = join(dir, 'link.jsonl');
    const message = `the deletion journal ${path} is a symbolic link, which plants does not follow there; nothing was deleted; ${LINK}`;
    expect(() => openJournalFile(path, true)).toThrow(new JournalError(message));
    expect(() => openJournalFile(path, true)).toThrow(JournalError);
    expect(() => checkJournalFile(path, true)).toThrow(new JournalError(message));
    const fd = open(path, false);
    writeSync(fd, 'c\n');
    expect(readFileSync(join(dir, 'target.jsonl'), 'utf8')).toBe('c\n');
    // A link to nothing is refused too (opening it would make the file it points to).
    symlinkSync(join(dir, 'nowhere.jsonl'), join(dir, 'dangling.jsonl'));
    expect(() => openJournalFile(join(dir, 'dangling.jsonl'), true)).toThrow(/is a symbolic link/);
    expect(() => checkJournalFile(join(dir, 'dangling.jsonl'), true)).toThrow(/is a symbolic link/);
  });

  it('a failure that is not a link: the system error', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'deletions.jsonl'));
    expect(() => openJournalFile(join(dir, 'deletions.jsonl'), true)).toThrow(
      expect.objectContaining({ code: 'EISDIR' }),
    );
    expect(() => openJournalFile(join(dir, 'missing', 'j.jsonl'), false)).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    writeFileSync(join(dir, 'file'), '');
    expect(() => openJournalFile(join(dir, 'file', 'j.jsonl'), true)).toThrow(
      expect.objectContaining({ code: 'ENOTDIR' }),
    );
  });

  it('a --journal-file that is a link to itself: the system error, not a refusal of links', () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'loop.jsonl'), join(dir, 'loop.jsonl'));
    expect(() => openJournalFile(join(dir, 'loop.jsonl'), false)).toThrow(expect.objectContaining({ code: 'ELOOP' }));
  });

  it('a pipe nobody reads: the open fails at once (ENXIO) rather than wait', () => {
    const path = join(tempDir(), 'journal.fifo');
    runCommand('mkfifo', [path]);
    expect(() => openJournalFile(path, false)).toThrow(expect.objectContaining({ code: 'ENXIO' }));
  });

  it('closes what it opened before refusing it', () => {
    const path = join(tempDir(), 'config.json');
    writeFileSync(path, '{}\n');
    const before = readdirSync('/proc/self/fd').length;
    expect(() => openJournalFile(path, false)).toThrow(/is not a deletion journal/);
    expect(readdirSync('/proc/self/fd').length).toBe(before);
  });

  it('takes a --journal-file whose first line is a record written otherwise (keys reordered), whatever follows', () => {
    const dir = tempDir();
    const { v, event, ...rest } = JSON.parse(RECORD) as Record<string, unknown>;
    const reordered = JSON.stringify({ event, v, ...rest });
    for (const text of [`${reordered}\nnot a record\n`, reordered]) {
      writeFileSync(join(dir, 'j.jsonl'), text);
      expect(() => checkJournalFile(join(dir, 'j.jsonl'), false)).not.toThrow();
    }
    expect(journalFirstLine(reordered)).toBe(true);
  });

  it.runIf(process.platform === 'linux')('takes a terminal as a --journal-file: it shows what is written', () => {
    const before = readdirSync('/proc/self/fd').length;
    expect(() => checkJournalFile('/dev/ptmx', false)).not.toThrow();
    expect(() => checkJournalFile('/dev/zero', false)).toThrow(/is a device that is not a terminal/);
    // The devices opened to ask are closed again.
    expect(readdirSync('/proc/self/fd').length).toBe(before);
  });

  it('opens a state journal named - where it is, as any other name', () => {
    const dir = tempDir();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      open('-', true);
    } finally {
      process.chdir(cwd);
    }
    expect(mode(join(dir, '-'))).toBe(0o600);
  });

  it('refuses --journal-file -, and not a state journal of that name', () => {
    const message =
      "--journal-file - is not supported: stdout has the run's results, not its journal; nothing was deleted; give a file's path (--journal-file run.jsonl), or a pipe: --journal-file >(gzip > run.jsonl.gz)";
    expect(() => refuseDash('-')).toThrow(new JournalError(message));
    expect(() => refuseDash('--')).not.toThrow();
    expect(() => openJournalFile('-', false)).toThrow(new JournalError(message));
    expect(() => checkJournalFile('-', false)).toThrow(new JournalError(message));
    expect(() => checkJournalFile('-', true)).not.toThrow();
  });

  it('refuses an existing --journal-file whose first line is not a record; takes an empty one, or a journal', () => {
    const dir = tempDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"profiles":{}}\n' + RECORD + '\n');
    const message = `--journal-file ${path} is not a deletion journal: its first line is not a journal record; nothing was deleted; name a new file, or one that --journal-file wrote`;
    expect(() => openJournalFile(path, false)).toThrow(new JournalError(message));
    expect(() => checkJournalFile(path, false)).toThrow(new JournalError(message));
    // The state directory's journal is plants' own: not looked at.
    open(path, true);
    writeFileSync(join(dir, 'one-line'), 'not a record');
    expect(() => checkJournalFile(join(dir, 'one-line'), false)).toThrow(/is not a deletion journal/);
    for (const text of [
      '',
      `${RECORD}\n`,
      RECORD,
      `${RECORD}\nanything\n`,
      '{"v":1,"event":"int',
      '{"v":1,"event":"\n',
    ]) {
      writeFileSync(join(dir, 'j.jsonl'), text);
      expect(() => checkJournalFile(join(dir, 'j.jsonl'), false)).not.toThrow();
      open(join(dir, 'j.jsonl'), false);
    }
    // Missing, or a directory: the open says what is wrong.
    expect(() => checkJournalFile(join(dir, 'missing'), false)).not.toThrow();
    expect(() => checkJournalFile(dir, false)).not.toThrow();
    expect(() => checkJournalFile(join(dir, 'missing'), true)).not.toThrow();
  });

  it.runIf(process.platform === 'linux')(
    'refuses /dev/null and a device that keeps nothing as a --journal-file; takes /dev/full',
    () => {
      const devNull =
        '--journal-file /dev/null is /dev/null, which keeps nothing; nothing was deleted; to delete without a record, leave --journal-file out and run with --no-journal (or PLANTS_JOURNAL=off)';
      expect(() => openJournalFile('/dev/null', false)).toThrow(new JournalError(devNull));
      expect(() => checkJournalFile('/dev/null', false)).toThrow(new JournalError(devNull));
      const zero = `--journal-file /dev/zero is a device that is not a terminal (as /dev/zero or /dev/urandom), which may keep nothing written to it; nothing was deleted; ${OUTPUT}`;
      expect(() => openJournalFile('/dev/zero', false)).toThrow(new JournalError(zero));
      expect(() => checkJournalFile('/dev/zero', false)).toThrow(new JournalError(zero));
      expect(() => checkJournalFile('/dev/urandom', false)).toThrow(/is a device that is not a terminal/);
      // Every write fails there, for all to see.
      expect(() => checkJournalFile('/dev/full', false)).not.toThrow();
      expect(fstatSync(open('/dev/full', false)).isCharacterDevice()).toBe(true);
      // The state directory's journal is not looked at so.
      expect(() => checkJournalFile('/dev/null', true)).not.toThrow();
      expect(() => checkJournalFile('/dev/zero', true)).not.toThrow();
      open('/dev/null', true);
      open('/dev/zero', true);
    },
  );

  it.runIf(process.platform === 'linux')("refuses this run's stdout and stderr under another name", () => {
    const out = fstatSync(1);
    const err = fstatSync(2);
    const apart = out.dev !== err.dev || out.ino !== err.ino;
    expect(() => checkJournalFile('/dev/fd/1', false)).toThrow(
      new JournalError(
        `--journal-file /dev/fd/1 is this run's stdout, which has the run's results: its records would be mixed into them; nothing was deleted; ${OUTPUT}`,
      ),
    );
    expect(() => openJournalFile('/proc/self/fd/1', true)).toThrow(
      new JournalError(
        `the deletion journal /proc/self/fd/1 is this run's stdout, which has the run's results: its records would be mixed into them; nothing was deleted; ${LINK}`,
      ),
    );
    if (apart) {
      expect(() => openJournalFile('/dev/fd/2', true)).toThrow(
        new JournalError(
          `the deletion journal /dev/fd/2 is this run's stderr, which has the run's messages: its records would be mixed into them; nothing was deleted; ${LINK}`,
        ),
      );
    }
  });
});

describe('journalFirstLine', () => {
  it('a record, or the beginning of one', () => {
    expect(journalFirstLine(RECORD)).toBe(true);
    expect(journalFirstLine('{"v":1,"event":"')).toBe(true);
    expect(journalFirstLine('{"v":1,"event":"start"')).toBe(true);
    expect(journalFirstLine('{"v":1,"event":')).toBe(false);
    expect(journalFirstLine(' {"v":1,"event":"start"')).toBe(false);
    expect(journalFirstLine('')).toBe(false);
    expect(journalFirstLine('{"profiles":{}}')).toBe(false);
  });
});

describe('stateDirProblem', () => {
  it("a directory the user's alone, or missing: none", () => {
    const dir = tempDir();
    chmodSync(dir, 0o700);
    expect(stateDirProblem(dir)).toBeUndefined();
    chmodSync(dir, 0o755);
    expect(stateDirProblem(dir)).toBeUndefined();
    expect(stateDirProblem(join(dir, 'missing'))).toBeUndefined();
  });

  it('a directory others may write to: its mode, and the chmod that mends it', () => {
    const dir = tempDir();
    for (const [bits, shown] of [
      [0o775, '0775'],
      [0o757, '0757'],
      [0o720, '0720'],
      [0o702, '0702'],
      [0o1777, '0777'],
    ] as const) {
      chmodSync(dir, bits);
      expect(stateDirProblem(dir)).toBe(
        `the directory of the deletion journal ${dir} has mode ${shown}: others can replace the journal; run chmod 700 ${dir}`,
      );
    }
    chmodSync(dir, 0o700);
  });

  it.runIf(process.getuid?.() === 0)('a directory another user owns: who', () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    chownSync(dir, 4321, 4321);
    expect(stateDirProblem(dir)).toBe(
      `the directory of the deletion journal ${dir} is owned by another user (uid 4321), who can replace the journal; set PLANTS_STATE_DIR to a directory of your own`,
    );
  });
});
