import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import {
  colorWanted,
  createIOStreams,
  readerGone,
  isTerminal,
  systemIOStreams,
  writeAll,
  writeOut,
} from '../../src/output/iostreams.js';
import { OutputError } from '../../src/shared/errors.js';

/** A writable that records each write, failing with `code` once `failAfter` writes went through. */
function sink(options: { code?: string; failAfter?: number } = {}) {
  const writes: string[] = [];
  let attempts = 0;
  // Like process.stdout, a failed write does not destroy it.
  const stream = new Writable({
    autoDestroy: false,
    write(chunk: Buffer, _encoding, callback) {
      attempts++;
      if (options.code !== undefined && writes.length >= (options.failAfter ?? 0)) {
        callback(Object.assign(new Error(options.code), { code: options.code }));
        return;
      }
      writes.push(chunk.toString());
      callback();
    },
  });
  // A failed write destroys the stream; the error event is the write callback's to report.
  stream.on('error', () => undefined);
  return { stream, writes, attempts: () => attempts };
}

describe('createIOStreams', () => {
  const streams = () => ({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() });

  it('answers for each stream separately: a prompt needs stdin, marks need stderr, tables stdout', () => {
    const io = createIOStreams(
      streams(),
      { stdin: true, stdout: false, stderr: false },
      { stdout: false, stderr: false },
      () => undefined,
    );
    expect([io.canPrompt(), io.interactive(), io.stdoutIsTTY]).toEqual([true, false, false]);
    const piped = createIOStreams(
      streams(),
      { stdin: false, stdout: true, stderr: true },
      { stdout: false, stderr: false },
      () => undefined,
    );
    expect([piped.canPrompt(), piped.interactive(), piped.stdoutIsTTY]).toEqual([false, true, true]);
  });

  it('keeps colour per stream until --no-color turns both off', () => {
    const io = createIOStreams(
      streams(),
      { stdin: false, stdout: true, stderr: false },
      { stdout: true, stderr: false },
      () => undefined,
    );
    expect([io.colorEnabled('stdout'), io.colorEnabled('stderr')]).toEqual([true, false]);
    const both = createIOStreams(
      streams(),
      { stdin: false, stdout: true, stderr: true },
      { stdout: true, stderr: true },
      () => undefined,
    );
    both.disableColor();
    expect([both.colorEnabled('stdout'), both.colorEnabled('stderr')]).toEqual([false, false]);
  });

  it('does not share colour state between two instances built from one setting', () => {
    const color = { stdout: true, stderr: true };
    const tty = { stdin: false, stdout: true, stderr: true };
    const first = createIOStreams(streams(), tty, color, () => undefined);
    const second = createIOStreams(streams(), tty, color, () => undefined);
    first.disableColor();
    expect(second.colorEnabled('stdout')).toBe(true);
  });

  it('reads stdin only when it is used', () => {
    let made = 0;
    const s = streams();
    const io = createIOStreams(
      {
        get stdin() {
          made++;
          return s.stdin;
        },
        stdout: s.stdout,
        stderr: s.stderr,
      },
      { stdin: false, stdout: false, stderr: false },
      { stdout: false, stderr: false },
      () => undefined,
    );
    expect(made).toBe(0);
    expect(io.stdin).toBe(s.stdin);
    expect(made).toBe(1);
  });
});

describe('systemIOStreams (the test runner’s streams are pipes, not terminals)', () => {
  it('uses the process streams and does not treat pipes as terminals', () => {
    const io = systemIOStreams({});
    expect(io.stdout).toBe(process.stdout);
    expect(io.stderr).toBe(process.stderr);
    expect(io.stdin).toBe(process.stdin);
    expect(io.stdoutIsTTY).toBe(process.stdout.isTTY === true);
    expect(io.interactive()).toBe(process.stderr.isTTY === true);
  });

  it('writes help straight to the descriptor until the stream is made, then through it, in order', () => {
    const writeSync = vi
      .spyOn(fs, 'writeSync')
      .mockImplementation(((_fd: number, buffer: Buffer) => buffer.length) as typeof fs.writeSync);
    const streamWrite = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const io = systemIOStreams({});
      io.write('stderr', 'usage\n');
      expect(writeSync.mock.calls.map(([fd, buffer]) => [fd, String(buffer)])).toEqual([[2, 'usage\n']]);
      expect(io.stderr).toBe(process.stderr);
      io.write('stderr', 'after\n');
      expect(streamWrite.mock.calls.map(([text]) => text)).toEqual(['after\n']);
      expect(writeSync).toHaveBeenCalledTimes(1);
    } finally {
      writeSync.mockRestore();
      streamWrite.mockRestore();
    }
  });

  it('writeNow writes at once to file descriptor 1 or 2', () => {
    const write = vi
      .spyOn(fs, 'writeSync')
      .mockImplementation(((_fd: number, buffer: Buffer) => buffer.length) as typeof fs.writeSync);
    try {
      const io = systemIOStreams({});
      io.writeNow('stderr', 'interrupted\n');
      io.writeNow('stdout', ']\n');
      expect(write.mock.calls.map(([fd, buffer]) => [fd, String(buffer)])).toEqual([
        [2, 'interrupted\n'],
        [1, ']\n'],
      ]);
    } finally {
      write.mockRestore();
    }
  });

  it('colours pipes only when FORCE_COLOR asks, and never with --no-color or NO_COLOR', () => {
    expect(systemIOStreams({ TERM: 'xterm' }).colorEnabled('stdout')).toBe(process.stdout.isTTY === true);
    const forced = systemIOStreams({ FORCE_COLOR: '1' });
    expect([forced.colorEnabled('stdout'), forced.colorEnabled('stderr')]).toEqual([true, true]);
    const flagged = systemIOStreams({ FORCE_COLOR: '1' }, true);
    expect([flagged.colorEnabled('stdout'), flagged.colorEnabled('stderr')]).toEqual([false, false]);
    const noColor = systemIOStreams({ FORCE_COLOR: '1', NO_COLOR: '1' });
    expect([noColor.colorEnabled('stdout'), noColor.colorEnabled('stderr')]).toEqual([false, false]);
  });
});

describe('colorWanted', () => {
  it('without --no-color, follows the terminal', () => {
    expect([colorWanted(true, {}), colorWanted(false, {})]).toEqual([true, false]);
  });
});

describe('writeOut', () => {
  it('resolves once the stream has taken the text', async () => {
    const { stream, writes } = sink();
    await writeOut(stream, 'a\tb\n');
    expect(writes).toEqual(['a\tb\n']);
    expect(readerGone(stream)).toBe(false);
  });

  it.each(['EPIPE', 'ERR_STREAM_DESTROYED'])(
    'ends quietly when the reader has gone (%s), and writes no more',
    async (code) => {
      const { stream, writes } = sink({ code });
      await expect(writeOut(stream, 'first\n')).resolves.toBeUndefined();
      expect(readerGone(stream)).toBe(true);
      await expect(writeOut(stream, 'second\n')).resolves.toBeUndefined();
      expect(writes).toEqual([]);
    },
  );

  it('reports any other write error as an OutputError naming it, and every write after it too', async () => {
    const { stream, attempts } = sink({ code: 'EIO' });
    const failed = writeOut(stream, 'x');
    await expect(failed).rejects.toBeInstanceOf(OutputError);
    await expect(failed).rejects.toMatchObject({
      code: 'output',
      exitCode: 1,
      message: 'could not write to standard output: EIO',
    });
    await expect(writeOut(stream, 'y')).rejects.toMatchObject({ code: 'output' });
    expect(attempts()).toBe(1);
  });

  it('writes nothing to a destroyed stream', async () => {
    const { stream, writes } = sink();
    stream.destroy();
    await writeOut(stream, 'x');
    expect(readerGone(stream)).toBe(true);
    expect(writes).toEqual([]);
  });
});

describe('stdoutFailure: a write to stdout that failed, however it was made', () => {
  const io = (stdout: Writable) =>
    createIOStreams(
      { stdin: new PassThrough(), stdout, stderr: new PassThrough() },
      { stdin: false, stdout: false, stderr: false },
      { stdout: false, stderr: false },
      () => undefined,
    );

  it('is the error of a failed writeOut, or of a plain write (help)', async () => {
    const out = sink({ code: 'ENOSPC' });
    const viaWriteOut = io(out.stream);
    await expect(writeOut(viaWriteOut.stdout, 'x')).rejects.toBeInstanceOf(OutputError);
    expect(await viaWriteOut.stdoutFailure()).toMatchObject({ code: 'ENOSPC' });
    const plain = io(sink({ code: 'EIO' }).stream);
    plain.write('stdout', 'Usage: plants\n');
    expect(await plain.stdoutFailure()).toMatchObject({ code: 'EIO' });
  });

  it.each(['EPIPE', 'ERR_STREAM_DESTROYED'])(
    'is undefined when all went through, or the reader went away (%s)',
    async (code) => {
      const fine = io(sink().stream);
      await writeOut(fine.stdout, 'x');
      expect(await fine.stdoutFailure()).toBeUndefined();
      const gone = io(sink({ code }).stream);
      await writeOut(gone.stdout, 'x');
      gone.write('stdout', 'y');
      expect(await gone.stdoutFailure()).toBeUndefined();
    },
  );
});

describe('writeAll', () => {
  it('writes every piece in order, in few large writes', async () => {
    const { stream, writes } = sink();
    const pieces = Array.from({ length: 3000 }, (_, i) => `plant ${i}\t${'x'.repeat(40)}\n`);
    await writeAll(stream, pieces);
    expect(writes.join('')).toBe(pieces.join(''));
    expect(writes.length).toBeGreaterThan(1);
    expect(writes.length).toBeLessThan(10);
  });

  it('writes nothing for no pieces', async () => {
    const { stream, writes } = sink();
    await writeAll(stream, []);
    expect(writes).toEqual([]);
  });

  it('stops taking pieces once the reader has gone', async () => {
    const { stream, writes } = sink({ code: 'EPIPE', failAfter: 1 });
    let taken = 0;
    function* pieces() {
      for (let i = 0; i < 100_000; i++) {
        taken++;
        yield `${'y'.repeat(99)}\n`;
      }
    }
    await writeAll(stream, pieces());
    expect(writes).toHaveLength(1);
    expect(taken).toBeLessThan(100_000);
  });
});

describe('isTerminal', () => {
  it('answers false for a file, /dev/null and a closed descriptor', () => {
    const dir = fs.mkdtempSync(join(tmpdir(), 'plants-isterminal-'));
    const file = fs.openSync(join(dir, 'out'), 'w');
    const devNull = fs.openSync('/dev/null', 'w');
    try {
      expect(isTerminal(file)).toBe(false);
      expect(isTerminal(devNull)).toBe(false);
      fs.closeSync(file);
      expect(isTerminal(file)).toBe(false);
    } finally {
      fs.closeSync(devNull);
      fs.rmSync(dir, { recursive: true });
    }
  });

  it.runIf(process.platform === 'linux' && fs.existsSync('/dev/ptmx'))(
    'answers true for a terminal (a pseudo-terminal, as a terminal emulator gives)',
    () => {
      const fd = fs.openSync('/dev/ptmx', 'r+');
      try {
        expect(isTerminal(fd)).toBe(true);
      } finally {
        fs.closeSync(fd);
      }
    },
  );
});
