import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createIOStreams, terminalColumns } from '../../src/output/iostreams.js';

describe('terminalColumns: the width tables fit on a terminal', () => {
  it.each([
    [80, undefined, 80],
    [80, '60', 60],
    [80, '250', 250],
    [0, undefined, undefined],
    [undefined, undefined, undefined],
    [0, '60', 60],
    [80, '0', 80],
    [80, '', 80],
    [80, 'wide', 80],
    [80, '-5', 80],
    [80, '60x', 80],
  ])('measured %s, COLUMNS=%s: %s', (measured, columns, width) => {
    expect(terminalColumns(measured, columns)).toBe(width);
  });
});

describe('IOStreams.terminalWidth', () => {
  const streams = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
  const off = { stdout: false, stderr: false };

  it('is the width for a stream that is a terminal, and undefined for one that is not', () => {
    const io = createIOStreams(
      streams,
      { stdin: true, stdout: false, stderr: true },
      off,
      () => undefined,
      () => 40,
    );
    expect(io.terminalWidth('stdout')).toBeUndefined();
    expect(io.terminalWidth('stderr')).toBe(40);
  });
});
