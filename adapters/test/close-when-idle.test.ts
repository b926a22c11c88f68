import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeWhenIdle } from '../src/subscriptions/close-when-idle.js';

describe('closeWhenIdle (drain of streaming connections)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('closes idle connections at once, busy ones when idle or at the grace, and cuts what is still open after twice the grace', () => {
    const open = new Set(['idle', 'busy-then-idle', 'always-busy', 'never-closes']);
    const busy = new Set(['busy-then-idle', 'always-busy', 'never-closes']);
    const closed: string[] = [];
    const cut: string[] = [];
    closeWhenIdle(
      () => open,
      (connection) => !busy.has(connection),
      (connection) => {
        closed.push(connection);
        if (connection !== 'never-closes') open.delete(connection);
      },
      (connection) => cut.push(connection),
      1000,
    );
    vi.advanceTimersByTime(0);
    expect(closed).toEqual(['idle']);
    busy.delete('busy-then-idle');
    vi.advanceTimersByTime(20);
    expect(closed).toEqual(['idle', 'busy-then-idle']);
    vi.advanceTimersByTime(1000);
    expect(closed).toEqual(['idle', 'busy-then-idle', 'always-busy', 'never-closes']);
    expect(cut).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(cut).toEqual(['never-closes']);
  });
});
