import { describe, expect, it } from 'vitest';
import { fullJitterDelay } from '../../src/resilience/backoff.js';
import { RetryBudget } from '../../src/resilience/retry-budget.js';

function budget(ratio: number, minPerSecond: number) {
  let now = 0;
  const retries = new RetryBudget({ ratio, minPerSecond, now: () => now });
  return { retries, advance: (ms: number) => (now += ms) };
}

/** Records `requests` first attempts, each followed by a retry if the budget allows; returns the retries. */
function failEverything(retries: RetryBudget, requests: number): number {
  let granted = 0;
  for (let i = 0; i < requests; i++) {
    retries.recordRequest();
    if (retries.tryWithdraw()) granted++;
  }
  return granted;
}

describe('RetryBudget', () => {
  it('allows retries of at most `ratio` of the requests when every request fails', () => {
    const { retries } = budget(0.1, 0);
    expect(failEverything(retries, 100)).toBe(10);
  });

  it('adds `minPerSecond` × 10 s, so a quiet subgraph can still be retried', () => {
    const { retries } = budget(0.1, 1);
    expect(failEverything(retries, 5)).toBe(5);
    expect(failEverything(retries, 100)).toBe(10 + Math.floor(0.1 * 105) - 5);
  });

  it('refills as old requests and retries leave the 10 s window', () => {
    const { retries, advance } = budget(0, 1);
    expect(failEverything(retries, 20)).toBe(10);
    advance(10_000);
    expect(failEverything(retries, 20)).toBe(10);
  });
});

describe('fullJitterDelay', () => {
  it('is uniform in [0, base × 2^(attempt-1)]', () => {
    expect(fullJitterDelay(1, 50, () => 0)).toBe(0);
    expect(fullJitterDelay(1, 50, () => 0.999)).toBeCloseTo(49.95);
    expect(fullJitterDelay(3, 50, () => 0.5)).toBe(100);
  });
});
