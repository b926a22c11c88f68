import type { Clock } from './contract/index.js';

export type { Clock } from './contract/index.js';

/** `performance.now()` and unref'd timers. (The adapters, which import the core's types only, have the same.) */
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
