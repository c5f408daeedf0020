import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/output/table.js';

async function render(headers: string[], rows: unknown[][]): Promise<string> {
  let text = '';
  for await (const block of renderTable(headers, rows, false)) text += block;
  return text;
}

describe('renderTable', () => {
  it('aligns columns two spaces apart without borders or trailing spaces', async () => {
    expect(await render(['ID', 'NAME', 'TAG'], [[1, 'Fern', 'green'], [22, 'Cactus', undefined]])).toBe(
      ['ID  NAME    TAG', '1   Fern    green', '22  Cactus', ''].join('\n'),
    );
  });

  it('measures wide characters as the terminal shows them', async () => {
    expect(await render(['NAME', 'TAG'], [['🌱🌱', 'x'], ['ab', 'y']])).toBe(
      ['NAME  TAG', '🌱🌱  x', 'ab    y', ''].join('\n'),
    );
  });

  it('keeps columns aligned across the blocks it renders in', async () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => [i, `plant ${i}`, i % 2 ? 'odd' : '']);
    const lines = (await render(['ID', 'NAME', 'TAG'], rows)).trimEnd().split('\n');
    expect(lines).toHaveLength(2_501);
    expect(lines[0]).toBe('ID    NAME        TAG');
    expect(lines[1]).toBe('0     plant 0');
    expect(lines[1002]).toBe('1001  plant 1001  odd');
    expect(lines[2_500]).toBe('2499  plant 2499  odd');
  });
});

describe('renderTable past the rows cli-table3 lays out itself', () => {
  it('pads every later row exactly as cli-table3 does, wide characters included', async () => {
    const names = ['Fern', '🌱 sprout', 'Ficus lyrata', 'ü', ''];
    const rows = Array.from({ length: 600 }, (_, i) => [i, names[i % names.length], i % 3 ? 'tag' : undefined]);
    const lines = (await render(['ID', 'NAME', 'TAG'], rows)).trimEnd().split('\n');
    // Rows 1-200 come from cli-table3; the same data again further down must look identical.
    for (let i = 1; i <= 15; i += 1) expect(lines[i + 300]).toBe(lines[i]!.replace(/^\d+ */, (m) => `${Number(m) + 300}`.padEnd(m.length)));
  });
});
