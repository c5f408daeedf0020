import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  closeJournalFile,
  failedByStop,
  JournalWriter,
  wholeLines,
  WriteFailed,
  type JournalFile,
} from '../../src/deletion/journal/file-writer.js';
import { cut, RunRecords } from '../../src/deletion/journal/record-lines.js';
import { forgetSecrets, registerSecret } from '../../src/secrets/registry.js';

// The journal's records as text, and the writer's account of what a cut-short write left on record.

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  forgetSecrets();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const RUN = { run: 'run-1', command: 'delete', profile: 'default', baseUrl: 'http://127.0.0.1:1' };

describe('RunRecords', () => {
  it('makes a record line: the shared fields, the time, then its own', () => {
    vi.useFakeTimers({ now: new Date('2026-11-25T10:00:00.123Z'), toFake: ['Date'] });
    const records = new RunRecords(RUN);
    const shared =
      '{"v":1,"event":"start","run":"run-1","time":"2026-11-25T10:00:00.123Z","command":"delete","profile":"default","base_url":"http://127.0.0.1:1"';
    expect(records.line('start', '')).toBe(`${shared}}\n`);
    expect(records.line('start', '"plants":2')).toBe(`${shared},"plants":2}\n`);
    vi.setSystemTime(new Date('2026-11-25T10:00:01.000Z'));
    expect(records.line('start', '')).toContain('"time":"2026-11-25T10:00:01.000Z"');
  });

  it("writes a plant's id always, its name and tag only when they are text, cut to 200 characters", () => {
    const records = new RunRecords(RUN);
    expect(records.plant({ id: '7' })).toBe('"id":"7"');
    expect(records.plant({ id: '7', name: 'Ficus', tag: 'tree' })).toBe('"id":"7","name":"Ficus","tag":"tree"');
    expect(records.plant({ id: '7', name: 7, tag: null })).toBe('"id":"7"');
    expect(records.plant({ id: '7', name: 'n'.repeat(201) })).toBe(`"id":"7","name":"${'n'.repeat(199)}…"`);
    expect(records.plant({ id: '7'.repeat(300) })).toBe(`"id":"${'7'.repeat(300)}"`);
  });

  it('cuts text over 200 characters to 199 and an ellipsis', () => {
    expect(cut('n'.repeat(200))).toBe('n'.repeat(200));
    expect(cut('n'.repeat(201))).toBe(`${'n'.repeat(199)}…`);
  });

  it('masks every secret the run knows before a name is cut: no piece of it is left', () => {
    const token = 'tok-0123456789abcdef';
    registerSecret(token);
    const records = new RunRecords({ ...RUN, profile: `p-${token}`, baseUrl: `http://h/${token}/` });
    const line = records.line('intent', records.plant({ id: token, name: `${'n'.repeat(190)}${token}` }));
    expect(line).not.toContain('tok-');
    expect(line).toContain('"profile":"p-***"');
    expect(line).toContain('"base_url":"http://h/***/"');
    expect(line).toContain(`"id":"***","name":"${'n'.repeat(190)}***"`);
  });

  it('writes outcomes, and the outcome of a plant never sent', () => {
    const records = new RunRecords(RUN);
    const strip = (line: string) => line.replace(/"time":"[^"]*",/, '');
    expect(strip(records.outcome({ id: '7' }, { id: '7', result: 'deleted', status: 204, request_id: 'r' }, 2))).toBe(
      '{"v":1,"event":"outcome","run":"run-1","command":"delete","profile":"default","base_url":"http://127.0.0.1:1","id":"7","request_id":"r","result":"deleted","status":204,"attempts":2}\n',
    );
    expect(
      strip(records.outcome({ id: '7' }, { id: '7', result: 'unknown', status: null, request_id: null }, null)),
    ).toContain('"request_id":null,"result":"unknown","status":null,"attempts":null}');
    expect(strip(records.skipped({ id: '8', tag: 't' }))).toBe(
      '{"v":1,"event":"outcome","run":"run-1","command":"delete","profile":"default","base_url":"http://127.0.0.1:1","id":"8","tag":"t","request_id":null,"result":"skipped","status":null,"attempts":null}\n',
    );
  });
});

describe('wholeLines: what a write cut short left on record whole', () => {
  const text = 'ab\ncd\n';
  it.each([
    [0, false, 0],
    [2, false, 0],
    [2, true, 1],
    [3, false, 1],
    [4, false, 1],
    [5, false, 1],
    [5, true, 2],
    [6, false, 2],
    [6, true, 2],
  ])('after %i bytes (line break written after: %s): %i lines', (written, ended, whole) => {
    expect(wholeLines(text, written, ended)).toBe(whole);
  });

  it('counts an empty last line whose line break came after', () => {
    expect(wholeLines('ab\n\n', 3, true)).toBe(2);
    expect(wholeLines('ab\n\n', 3, false)).toBe(1);
  });

  it('counts bytes, not characters', () => {
    expect(wholeLines('é\nx\n', 2, false)).toBe(0);
    expect(wholeLines('é\nx\n', 3, false)).toBe(1);
  });
});

describe('JournalWriter', () => {
  function file() {
    const dir = mkdtempSync(join(tmpdir(), 'plants-journal-lines-'));
    dirs.push(dir);
    const path = join(dir, 'deletions.jsonl');
    const fd = openSync(path, 'a');
    return { path, fd, wayOn: 'the way on', pipe: false, regular: true };
  }

  it('writes whole lines to every file, and names those it wrote to', async () => {
    const a = file();
    const b = file();
    const writer = new JournalWriter([a, b], {});
    const took: JournalFile[] = [];
    await writer.write('one\n', () => 'then', took);
    writer.writeNow('two\n', () => 'then');
    expect(took).toEqual([a, b]);
    expect(readFileSync(a.path, 'utf8')).toBe('one\ntwo\n');
    expect(readFileSync(b.path, 'utf8')).toBe('one\ntwo\n');
    expect(writer.healthy).toEqual([a, b]);
    closeSync(a.fd);
    closeSync(b.fd);
  });

  it('a file that fails a write: a WriteFailed naming it, what is on record, and the file takes no more', async () => {
    const good = file();
    const bad = file();
    closeSync(bad.fd);
    const writer = new JournalWriter([good, bad], {});
    const took: JournalFile[] = [];
    const failure = await writer
      .write('x\n', (wayOn, whole) => `${wayOn}: ${whole} whole`, took)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(WriteFailed);
    expect((failure as WriteFailed).message).toMatch(
      new RegExp(`^cannot write the deletion journal ${bad.path}: .*\\(EBADF\\); the way on: 0 whole$`),
    );
    expect((failure as WriteFailed).whole).toBe(0);
    expect(failedByStop(failure)).toBe(false);
    expect(failedByStop(new Error('x'))).toBe(false);
    expect(took).toEqual([good]);
    expect(writer.healthy).toEqual([good]);
    expect(() => writer.writeNow('y\n', () => 'then', [], [bad])).toThrow(/\(EBADF\); then$/);
    let now: unknown;
    try {
      writer.writeNow('\n', () => 'then', [], [bad]);
    } catch (err) {
      now = err;
    }
    expect((now as WriteFailed).whole).toBe(0);
    closeSync(good.fd);
  });

  it('a file whose pipe stalled takes no more: each write fails at once with why', async () => {
    const stalled = { ...file(), stalled: new Error('the reader took nothing for 30 s') };
    const writer = new JournalWriter([stalled], {});
    await expect(writer.write('x\n', () => 'then')).rejects.toThrow(
      `cannot write the deletion journal ${stalled.path}: the reader took nothing for 30 s; then`,
    );
    expect(() => writer.writeNow('x\n', () => 'then')).toThrow(
      `cannot write the deletion journal ${stalled.path}: the reader took nothing for 30 s; then`,
    );
    expect(readFileSync(stalled.path, 'utf8')).toBe('');
    closeSync(stalled.fd);
  });

  it('writeNow names the files it wrote to', () => {
    const a = file();
    const b = file();
    const took: JournalFile[] = [];
    new JournalWriter([a, b], {}).writeNow('x\n', () => 'then', took);
    expect(took).toEqual([a, b]);
    closeSync(a.fd);
    closeSync(b.fd);
  });
});

describe('closeJournalFile and failedByStop', () => {
  it('closes the file and removes its writer mark', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plants-journal-lines-'));
    dirs.push(dir);
    const fd = openSync(join(dir, 'deletions.jsonl'), 'a');
    const remove = vi.fn();
    closeJournalFile({ path: 'p', fd, wayOn: '', pipe: false, regular: true, mark: { remove } });
    expect(remove).toHaveBeenCalledTimes(1);
    expect(() => fstatSync(fd)).toThrow(/EBADF/);
  });

  it('tells a write failed only because the run was stopping', () => {
    expect(failedByStop(new WriteFailed('x', 0, true))).toBe(true);
    expect(failedByStop(new WriteFailed('x', 0, false))).toBe(false);
  });
});
