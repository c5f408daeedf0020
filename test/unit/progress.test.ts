import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { progressBar } from '../../src/output/progress.js';
import { fakeIO } from '../helpers/io.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const CLEAR = '\r\u001b[2K';

/** Each redraw of the bar, as the line shows it. */
function frames(stderr: string): string[] {
  return stderr.split(CLEAR).slice(1);
}

describe('progressBar', () => {
  it('draws an empty bar at once, on a cleared line', () => {
    const fake = fakeIO({ tty: true });
    const { io } = fake;
    const stderr = () => fake.stderr();
    progressBar(io, 'Deleting', 4);
    expect(stderr()).toBe(`${CLEAR}Deleting [${'-'.repeat(30)}] 0/4`);
  });

  it('fills the 30-wide bar in proportion, rounded', () => {
    const fake = fakeIO({ tty: true });
    const { io } = fake;
    const stderr = () => fake.stderr();
    const bar = progressBar(io, 'Deleting', 4);
    vi.advanceTimersByTime(100);
    bar.update(1);
    vi.advanceTimersByTime(100);
    bar.update(3);
    expect(frames(stderr()).slice(1)).toEqual([
      `Deleting [${'#'.repeat(8)}${'-'.repeat(22)}] 1/4`,
      `Deleting [${'#'.repeat(23)}${'-'.repeat(7)}] 3/4`,
    ]);
  });

  it('redraws at most ten times a second, drawing the latest count when the interval is up', () => {
    const fake = fakeIO({ tty: true });
    const { io } = fake;
    const stderr = () => fake.stderr();
    const bar = progressBar(io, 'Deleting', 10);
    bar.update(1);
    bar.update(2);
    vi.advanceTimersByTime(50);
    bar.update(3);
    expect(frames(stderr())).toHaveLength(1);
    vi.advanceTimersByTime(49);
    expect(frames(stderr())).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(frames(stderr()).at(-1)).toMatch(/\] 3\/10$/);
    expect(frames(stderr())).toHaveLength(2);
    // Nothing new: no more redraws.
    vi.advanceTimersByTime(1000);
    expect(frames(stderr())).toHaveLength(2);
  });

  it('draws an update at once when the interval is already up', () => {
    const fake = fakeIO({ tty: true });
    const { io } = fake;
    const stderr = () => fake.stderr();
    const bar = progressBar(io, 'Deleting', 10);
    vi.advanceTimersByTime(100);
    bar.update(5);
    expect(frames(stderr()).at(-1)).toMatch(/\] 5\/10$/);
  });

  it('always draws the last count at once, full', () => {
    const fake = fakeIO({ tty: true });
    const { io } = fake;
    const stderr = () => fake.stderr();
    const bar = progressBar(io, 'Deleting', 2);
    bar.update(1);
    bar.update(2);
    expect(frames(stderr())).toEqual([`Deleting [${'-'.repeat(30)}] 0/2`, `Deleting [${'#'.repeat(30)}] 2/2`]);
    // The throttled 1/2 is not drawn after the full bar.
    vi.advanceTimersByTime(1000);
    expect(frames(stderr())).toHaveLength(2);
  });

  it('end() erases the bar and cancels a pending redraw', () => {
    const fake = fakeIO({ tty: true });
    const { io } = fake;
    const stderr = () => fake.stderr();
    const bar = progressBar(io, 'Deleting', 10);
    bar.update(4);
    bar.end();
    vi.advanceTimersByTime(1000);
    expect(stderr()).toBe(`${CLEAR}Deleting [${'-'.repeat(30)}] 0/10${CLEAR}`);
  });
});
