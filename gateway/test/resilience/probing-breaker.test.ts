import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProbingBreaker } from '../../src/resilience/probing-breaker.js';

/** A probe the test answers by hand: each call is pending until `answer` or `fail`. */
function manualProbe() {
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const probe = vi.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  );
  const settle = async (ok: boolean) => {
    const call = pending.shift();
    if (!call) throw new Error('no probe is in flight');
    if (ok) call.resolve();
    else call.reject(new Error('still down'));
    // Lets the probe's then/finally run.
    await vi.advanceTimersByTimeAsync(0);
  };
  return { probe, answer: () => settle(true), fail: () => settle(false), inFlight: () => pending.length };
}

describe('ProbingBreaker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const create = (probe: () => Promise<unknown>) =>
    new ProbingBreaker({ failuresBeforeSkip: 3, probeIntervalMs: 1_000, probe });

  it('skips only after failuresBeforeSkip failures in a row; a success in between starts the count again', () => {
    const breaker = create(() => Promise.resolve());
    breaker.failed();
    breaker.failed();
    breaker.succeeded();
    breaker.failed();
    breaker.failed();
    expect(breaker.skipping).toBe(false);
    breaker.failed();
    expect(breaker.skipping).toBe(true);
    breaker.close();
  });

  it('probes every interval while skipped, one probe at a time, and the first answer ends the skip', async () => {
    const { probe, answer, fail, inFlight } = manualProbe();
    const breaker = create(probe);
    for (let i = 0; i < 3; i++) breaker.failed();
    expect(probe).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(1_000);
    expect(probe).toHaveBeenCalledTimes(1);
    // A probe that hangs is not joined by another one.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(inFlight()).toBe(1);
    await fail();
    expect(breaker.skipping).toBe(true);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(probe).toHaveBeenCalledTimes(2);
    await answer();
    expect(breaker.skipping).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(probe).toHaveBeenCalledTimes(2);

    // The count starts again from zero: it takes three more failures to skip once more.
    breaker.failed();
    breaker.failed();
    expect(breaker.skipping).toBe(false);
    breaker.failed();
    expect(breaker.skipping).toBe(true);
    breaker.close();
  });

  it('stops probing when closed, and failures after that never start it again', async () => {
    const probe = vi.fn(() => Promise.reject(new Error('down')));
    const breaker = create(probe);
    for (let i = 0; i < 3; i++) breaker.failed();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(probe).toHaveBeenCalledTimes(2);

    breaker.close();
    expect(breaker.skipping).toBe(false);
    for (let i = 0; i < 5; i++) breaker.failed();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});
