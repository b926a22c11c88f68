import type { Clock } from '@fedgw/gateway/contract';

/**
 * `performance.now()` and unref'd timers: the core's real clock (gateway/src/clock.ts), here
 * because the adapters import the core's types only. Tests pass test-support's `manualClock`.
 */
export const realClock: Clock = Object.freeze({
  now: () => performance.now(),
  every(ms: number, run: () => unknown) {
    const timer = setInterval(run, ms);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  },
  after(ms: number, run: () => unknown) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
});
