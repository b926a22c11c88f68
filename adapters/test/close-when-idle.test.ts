import { manualClock } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { closeWhenIdle } from '../src/subscriptions/close-when-idle.js';

describe('closeWhenIdle (drain of streaming connections)', () => {
  it('closes idle connections at once, busy ones when idle or at the grace, and cuts what is still open after twice the grace', async () => {
    const clock = manualClock();
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
      clock,
    );
    // The first sweep runs a turn later (setImmediate), not on the clock.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toEqual(['idle']);
    busy.delete('busy-then-idle');
    await clock.advance(10);
    expect(closed).toEqual(['idle', 'busy-then-idle']);
    await clock.advance(989);
    expect(closed).toEqual(['idle', 'busy-then-idle']); // 1 ms before the grace: still busy, still open
    await clock.advance(1);
    expect(closed).toEqual(['idle', 'busy-then-idle', 'always-busy', 'never-closes']);
    await clock.advance(999);
    expect(cut).toEqual([]);
    await clock.advance(1);
    expect(cut).toEqual(['never-closes']);
    expect(clock.scheduled).toBe(0);
  });
});
