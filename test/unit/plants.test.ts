import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Plant } from '../../src/api/responses.js';
import { createIOStreams } from '../../src/output/iostreams.js';
import type { OutputFormat } from '../../src/output/format-writers.js';
import { writePlants } from '../../src/output/plants.js';
import { fakeIO } from '../helpers/io.js';

afterEach(() => {
  vi.useRealTimers();
});

const monstera: Plant = { id: 1, name: 'Monstera', tag: 'aroid' };
const fern: Plant = { id: 2, name: 'Fern', tag: null };

async function written(batches: Plant[][], format: OutputFormat, options: { tty?: boolean; columns?: string[] } = {}) {
  const fake = fakeIO({ tty: options.tty ?? false });
  const count = await writePlants(fake.io, batches, { format, columns: options.columns });
  return { count, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('writePlants', () => {
  it('JSON in a pipe: one line, the same data however the plants came in batches, empty batches included', async () => {
    const { count, stdout } = await written([[], [monstera], [], [fern]], 'json');
    expect(count).toBe(2);
    expect(stdout).toBe(`${JSON.stringify([monstera, fern])}\n`);
  });

  it('JSON on a terminal: pretty, as JSON.stringify with an indent of 2', async () => {
    const { stdout } = await written([[monstera], [fern]], 'json', { tty: true });
    expect(stdout).toBe(`${JSON.stringify([monstera, fern], null, 2)}\n`);
  });

  it.each([false, true])('an empty list is still a whole JSON document (terminal: %s)', async (tty) => {
    expect((await written([[]], 'json', { tty })).stdout).toBe('[]\n');
    expect((await written([], 'json', { tty })).stdout).toBe('[]\n');
  });

  it('NDJSON: one plant a line', async () => {
    const { stdout } = await written([[monstera, fern]], 'ndjson');
    expect(stdout).toBe(`${JSON.stringify(monstera)}\n${JSON.stringify(fern)}\n`);
  });

  it('JSON and NDJSON on a terminal escape bidi controls; in a pipe they stay exact', async () => {
    const tricky: Plant = { id: 3, name: 'evil\u202etxt' };
    for (const format of ['json', 'ndjson'] as const) {
      expect((await written([[tricky]], format, { tty: true })).stdout).toContain('evil\\u202etxt');
      expect((await written([[tricky]], format)).stdout).toContain('evil\u202etxt');
    }
  });

  it('TSV: id, name, tag without a header', async () => {
    const { stdout } = await written([[monstera], [fern]], 'tsv');
    expect(stdout).toBe('1\tMonstera\taroid\n2\tFern\t\n');
  });

  it('CSV: a header, then CRLF records; an empty list is the header alone', async () => {
    expect((await written([[monstera, fern]], 'csv')).stdout).toBe('id,name,tag\r\n1,Monstera,aroid\r\n2,Fern,\r\n');
    expect((await written([[]], 'csv')).stdout).toBe('id,name,tag\r\n');
  });

  it('reads dotted columns, empty where the path leads nowhere (null included)', async () => {
    const plants: Plant[] = [
      { name: 'a', extra: { height: 30 } },
      { name: 'b', extra: null },
      { name: 'c', extra: { height: null } },
      { name: 'd' },
    ];
    const { stdout } = await written([plants], 'tsv', { columns: ['name', 'extra.height', 'extra.height.cm'] });
    expect(stdout).toBe('a\t30\t\nb\t\t\nc\t\t\nd\t\t\n');
  });

  it('a table shows the ID column when some plant has an id, not when none has (null is none)', async () => {
    const some = (await written([[{ name: 'x', id: null }, monstera]], 'table', { tty: true })).stdout;
    expect(some.split('\n')[0]).toMatch(/^ID\s+NAME\s+TAG\s*$/);
    const none = (await written([[{ name: 'x', id: null }]], 'table', { tty: true })).stdout;
    expect(none.split('\n')[0]).toMatch(/^NAME\s+TAG\s*$/);
  });

  it('a table keeps of each plant only the fields its columns read, and shows the same', async () => {
    const proto: Plant = { name: 'p', extra: { height: 3, note: 'x'.repeat(100) } };
    Object.defineProperty(proto, '__proto__', { value: 'own', enumerable: true, writable: true, configurable: true });
    const plants: Plant[] = [proto, { name: 'q', id: 9, note: 'y'.repeat(100), extra: { height: 4 } }];
    const columns = ['name', 'extra.height', '__proto__', 'id', 'toString'];
    const { stdout } = await written([plants], 'table', { columns });
    expect(stdout.split('\n')).toEqual([
      'NAME  EXTRA.HEIGHT  __PROTO__  ID  TOSTRING',
      'p     3             own',
      `q     4${' '.repeat(24)}9`,
      '',
    ]);
  });

  it('a table of no plants says so on stderr and prints nothing', async () => {
    const { count, stdout, stderr } = await written([[]], 'table', { tty: true });
    expect([count, stdout, stderr]).toEqual([0, '', 'No plants found\n']);
  });

  it('a table is coloured only when stdout has colour', async () => {
    let out = '';
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        out += chunk.toString();
        callback();
      },
    });
    const io = createIOStreams(
      { stdin: new PassThrough(), stdout, stderr: new PassThrough() },
      { stdin: false, stdout: true, stderr: false },
      { stdout: true, stderr: false },
      () => undefined,
    );
    await writePlants(io, [[monstera]], { format: 'table' });
    expect(out).toContain('\u001b[');
    expect((await written([[monstera]], 'table', { tty: true })).stdout).not.toContain('\u001b[');
  });

  it('shows plants as they come from a slow service: what came is written when 100 ms have passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fake = fakeIO();
    const seen: string[] = [];
    function* slow() {
      yield [monstera];
      vi.advanceTimersByTime(100);
      yield [fern];
      seen.push(fake.stdout());
      yield [{ id: 3, name: 'Cactus' }];
    }
    await writePlants(fake.io, slow(), { format: 'ndjson' });
    expect(seen).toEqual([`${JSON.stringify(monstera)}\n${JSON.stringify(fern)}\n`]);
  });

  it('writes large output in pieces as it goes, before the list ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fake = fakeIO();
    const big = Array.from({ length: 1000 }, (_, i) => ({ id: i, name: 'x'.repeat(80) }));
    let before = 0;
    function* batches() {
      yield big;
      before = fake.stdout().length;
      yield [fern];
    }
    await writePlants(fake.io, batches(), { format: 'tsv' });
    expect(before).toBeGreaterThan(64 * 1024);
    expect(fake.stdout()).toMatch(/^0\tx+\t\n[\s\S]*\n2\tFern\t\n$/);
  });

  it('gathers small batches into few large writes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let writes = 0;
    const stdout = new Writable({
      write(_chunk, _encoding, callback) {
        writes++;
        callback();
      },
    });
    const io = createIOStreams(
      { stdin: new PassThrough(), stdout, stderr: new PassThrough() },
      { stdin: false, stdout: false, stderr: false },
      { stdout: false, stderr: false },
      () => undefined,
    );
    const batches = Array.from({ length: 100 }, (_, i) => [{ id: i, name: `plant ${i}` }]);
    expect(await writePlants(io, batches, { format: 'ndjson' })).toBe(100);
    expect(writes).toBe(1);
  });

  it('stops reading plants once the reader has gone (plants list | head -1)', async () => {
    const stdout = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('EPIPE'), { code: 'EPIPE' }));
      },
    });
    stdout.on('error', () => undefined);
    const io = createIOStreams(
      { stdin: new PassThrough(), stdout, stderr: new PassThrough() },
      { stdin: false, stdout: false, stderr: false },
      { stdout: false, stderr: false },
      () => undefined,
    );
    let pulled = 0;
    function* many() {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield Array.from({ length: 1000 }, (_, j) => ({ id: j, name: 'x'.repeat(80) }));
      }
    }
    await writePlants(io, many(), { format: 'tsv' });
    expect(pulled).toBe(1);
  });
});
